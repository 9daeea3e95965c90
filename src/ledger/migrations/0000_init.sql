CREATE TABLE `ledger_checkpoints` (
	`id` integer PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`tenant_seq` integer NOT NULL,
	`head_hash` text NOT NULL,
	`signature` text NOT NULL,
	`key_id` text NOT NULL,
	`ts` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ledger_checkpoints_tenant_seq_idx` ON `ledger_checkpoints` (`tenant_id`,`tenant_seq`);--> statement-breakpoint
CREATE TABLE `ledger_events` (
	`seq` integer PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`tenant_seq` integer NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`ts` text NOT NULL,
	`conversation_id` text NOT NULL,
	`job_id` text,
	`trace_id` text NOT NULL,
	`actor_entity_id` text NOT NULL,
	`actor_type` text NOT NULL,
	`payload` text NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_events_tenant_seq_uq` ON `ledger_events` (`tenant_id`,`tenant_seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_events_tenant_event_id_uq` ON `ledger_events` (`tenant_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `ledger_events_tenant_conversation_idx` ON `ledger_events` (`tenant_id`,`conversation_id`,`tenant_seq`);--> statement-breakpoint
CREATE INDEX `ledger_events_tenant_job_idx` ON `ledger_events` (`tenant_id`,`job_id`,`tenant_seq`);--> statement-breakpoint
CREATE INDEX `ledger_events_tenant_type_idx` ON `ledger_events` (`tenant_id`,`event_type`,`tenant_seq`);