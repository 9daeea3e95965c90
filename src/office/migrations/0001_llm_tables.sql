-- IF NOT EXISTS: data directories from before this migration already hold these tables (created ad hoc then).
CREATE TABLE IF NOT EXISTS `office_llm_packets` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`turn` integer NOT NULL,
	`created_at` text NOT NULL,
	`sender_role` text NOT NULL,
	`packet_type` text NOT NULL,
	`in_reply_to_request_id` text,
	`model_id` text,
	`job_id` text,
	`outcome` text,
	`redaction` text NOT NULL,
	`packet_json` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `office_llm_packets_conv_turn_idx` ON `office_llm_packets` (`tenant_id`,`conversation_id`,`turn`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `office_llm_packets_job_idx` ON `office_llm_packets` (`tenant_id`,`job_id`);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `office_thread_context` (
	`tenant_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`last_job_id` text,
	`recent_job_ids` text NOT NULL,
	`pinned_job_id` text,
	`focus_job_id` text,
	`turn` integer NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `conversation_id`)
);
