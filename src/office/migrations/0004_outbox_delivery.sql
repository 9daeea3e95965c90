ALTER TABLE `office_outbox` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `office_outbox` ADD `retry_base` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `office_outbox` ADD `next_attempt_at` text;--> statement-breakpoint
ALTER TABLE `office_outbox` ADD `last_error` text;--> statement-breakpoint
ALTER TABLE `office_outbox` ADD `last_response` text;--> statement-breakpoint
ALTER TABLE `office_outbox` ADD `message_id` text;--> statement-breakpoint
ALTER TABLE `office_outbox` ADD `sent_at` text;--> statement-breakpoint
ALTER TABLE `office_outbox` ADD `updated_at` text;--> statement-breakpoint
CREATE INDEX `office_outbox_status_due_idx` ON `office_outbox` (`status`,`next_attempt_at`);