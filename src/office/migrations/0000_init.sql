CREATE TABLE `office_artifacts` (
	`artifact_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`job_id` text,
	`filename` text NOT NULL,
	`mime_type` text NOT NULL,
	`path` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `office_artifacts_tenant_job_idx` ON `office_artifacts` (`tenant_id`,`job_id`);--> statement-breakpoint
CREATE TABLE `office_outbox` (
	`outbox_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`job_id` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`to_vault_ref` text,
	`to_redacted` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`artifact_id` text,
	`status` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `office_outbox_tenant_idem_uq` ON `office_outbox` (`tenant_id`,`idempotency_key`);--> statement-breakpoint
CREATE TABLE `office_vault` (
	`vault_ref` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`hash` text NOT NULL,
	`iv` text NOT NULL,
	`tag` text NOT NULL,
	`ciphertext` text NOT NULL,
	`created_at` text NOT NULL,
	`erased_at` text
);
--> statement-breakpoint
CREATE INDEX `office_vault_tenant_hash_idx` ON `office_vault` (`tenant_id`,`hash`);