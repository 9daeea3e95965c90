CREATE TABLE `gateway_scheduled_messages` (
	`schedule_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`kind` text NOT NULL,
	`body_text` text NOT NULL,
	`about_message_id` text,
	`send_at_ms` integer NOT NULL,
	`time_zone` text NOT NULL,
	`status` text NOT NULL,
	`message_id` text NOT NULL,
	`created_at` text NOT NULL,
	`done_at` text,
	`failure` text
);
--> statement-breakpoint
CREATE INDEX `gateway_scheduled_due_idx` ON `gateway_scheduled_messages` (`status`,`send_at_ms`);--> statement-breakpoint
CREATE INDEX `gateway_scheduled_owner_idx` ON `gateway_scheduled_messages` (`tenant_id`,`entity_id`,`status`);