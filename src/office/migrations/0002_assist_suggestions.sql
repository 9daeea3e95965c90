CREATE TABLE `office_assist_suggestions` (
	`tenant_id` text NOT NULL,
	`job_id` text NOT NULL,
	`suggestion_id` text NOT NULL,
	`view_json` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `job_id`, `suggestion_id`)
);
--> statement-breakpoint
CREATE INDEX `office_assist_suggestions_expiry_idx` ON `office_assist_suggestions` (`expires_at`);