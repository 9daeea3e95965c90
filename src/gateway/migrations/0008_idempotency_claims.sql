PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_gateway_idempotency_keys` (
	`tenant_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text DEFAULT 'done' NOT NULL,
	`claimed_by` text,
	`claim_expires` integer,
	`status` integer,
	`sealed_response` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `entity_id`, `key_hash`)
);
--> statement-breakpoint
INSERT INTO `__new_gateway_idempotency_keys`("tenant_id", "entity_id", "key_hash", "request_hash", "status", "sealed_response", "created_at") SELECT "tenant_id", "entity_id", "key_hash", "request_hash", "status", "sealed_response", "created_at" FROM `gateway_idempotency_keys`;--> statement-breakpoint
DROP TABLE `gateway_idempotency_keys`;--> statement-breakpoint
ALTER TABLE `__new_gateway_idempotency_keys` RENAME TO `gateway_idempotency_keys`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `gateway_idem_created_idx` ON `gateway_idempotency_keys` (`created_at`);