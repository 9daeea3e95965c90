CREATE TABLE `gateway_sign_in_links` (
	`link_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`purpose` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`session_id` text
);
--> statement-breakpoint
CREATE INDEX `gateway_sign_in_links_entity_idx` ON `gateway_sign_in_links` (`tenant_id`,`entity_id`);--> statement-breakpoint
ALTER TABLE `gateway_tokens` ADD `session_id` text;--> statement-breakpoint
ALTER TABLE `gateway_tokens` ADD `device_label` text;--> statement-breakpoint
ALTER TABLE `gateway_tokens` ADD `signed_in_via` text;--> statement-breakpoint
ALTER TABLE `gateway_tokens` ADD `last_seen_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `gateway_tokens_session_id_unique` ON `gateway_tokens` (`session_id`);--> statement-breakpoint
-- Tokens issued before sessions existed become sessions too, with a fresh public id each.
UPDATE `gateway_tokens` SET `session_id` = 'ses_' || lower(hex(randomblob(12))) WHERE `session_id` IS NULL;
