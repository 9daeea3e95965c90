CREATE TABLE `gateway_passkey_challenges` (
	`challenge` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`tenant_id` text,
	`entity_id` text,
	`expires_at` text NOT NULL,
	`used_at` text
);
--> statement-breakpoint
CREATE TABLE `gateway_passkeys` (
	`passkey_id` text PRIMARY KEY NOT NULL,
	`credential_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer NOT NULL,
	`transports` text,
	`device_label` text,
	`created_at` text NOT NULL,
	`last_used_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gateway_passkeys_credential_unique` ON `gateway_passkeys` (`credential_id`);--> statement-breakpoint
CREATE INDEX `gateway_passkeys_entity_idx` ON `gateway_passkeys` (`tenant_id`,`entity_id`);