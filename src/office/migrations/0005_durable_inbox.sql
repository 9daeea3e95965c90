CREATE TABLE `office_inbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`event_id` text NOT NULL,
	`kind` text NOT NULL,
	`conversation_id` text NOT NULL,
	`request` text NOT NULL,
	`accepted_at` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `office_inbox_event` ON `office_inbox` (`tenant_id`,`event_id`);