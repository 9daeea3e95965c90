CREATE TABLE `office_inbound_mail` (
	`key` text PRIMARY KEY NOT NULL,
	`message_id_sha256` text,
	`tenant_id` text,
	`job_id` text,
	`status` text NOT NULL,
	`reason` text,
	`detail` text,
	`event_id` text,
	`received_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `office_inbound_mail_job` ON `office_inbound_mail` (`tenant_id`,`job_id`);