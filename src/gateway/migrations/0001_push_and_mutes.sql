CREATE TABLE `gateway_conversation_mutes` (
	`tenant_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`muted_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `entity_id`, `conversation_id`)
);
--> statement-breakpoint
CREATE TABLE `gateway_push_subscriptions` (
	`subscription_id` text PRIMARY KEY NOT NULL,
	`endpoint` text NOT NULL,
	`tenant_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`expires_at` integer,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gateway_push_subscriptions_endpoint_unique` ON `gateway_push_subscriptions` (`endpoint`);--> statement-breakpoint
CREATE INDEX `gateway_push_entity_idx` ON `gateway_push_subscriptions` (`tenant_id`,`entity_id`);