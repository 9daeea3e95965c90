CREATE TABLE `gateway_digest_items` (
	`tenant_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`event_id` text NOT NULL,
	`kind` text NOT NULL,
	`conversation_id` text NOT NULL,
	`job_id` text,
	`seq` integer NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`url` text NOT NULL,
	`noted_ms` integer NOT NULL,
	`sent_at` text,
	PRIMARY KEY(`tenant_id`, `entity_id`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `gateway_digest_due_idx` ON `gateway_digest_items` (`sent_at`,`noted_ms`);