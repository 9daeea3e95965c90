CREATE TABLE `gateway_attachments` (
	`artifact_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`filename` text NOT NULL,
	`mime_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`path` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `gateway_idempotency_keys` (
	`tenant_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`sealed_response` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `entity_id`, `key_hash`)
);
--> statement-breakpoint
CREATE INDEX `gateway_idem_created_idx` ON `gateway_idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `gateway_invites` (
	`invite_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`created_by` text NOT NULL,
	`display_name` text,
	`roles` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`accepted_by` text
);
--> statement-breakpoint
CREATE TABLE `gateway_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text
);
--> statement-breakpoint
CREATE INDEX `gateway_tokens_entity_idx` ON `gateway_tokens` (`tenant_id`,`entity_id`);