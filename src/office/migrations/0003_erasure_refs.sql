ALTER TABLE `office_artifacts` ADD `vault_refs` text;--> statement-breakpoint
ALTER TABLE `office_outbox` ADD `vault_refs` text;