-- The tree's nodes move out of the event row into a table of their own, keyed by the event's
-- row (seq), so that a scan of the events reads narrow rows. The nodes already stored move with
-- them; rows written before the tree existed have none and are filled in at boot as before.
CREATE TABLE `ledger_tree` (
	`seq` integer PRIMARY KEY NOT NULL,
	`nodes` blob NOT NULL
);
--> statement-breakpoint
INSERT INTO `ledger_tree` (`seq`, `nodes`) SELECT `seq`, `merkle` FROM `ledger_events` WHERE `merkle` IS NOT NULL;
--> statement-breakpoint
DROP TRIGGER `ledger_events_no_update`;
--> statement-breakpoint
ALTER TABLE `ledger_events` DROP COLUMN `merkle`;
--> statement-breakpoint
CREATE TRIGGER `ledger_events_no_update` BEFORE UPDATE ON `ledger_events`
BEGIN SELECT RAISE(ABORT, 'ledger_events is append-only: UPDATE refused'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_tree_no_update` BEFORE UPDATE ON `ledger_tree`
BEGIN SELECT RAISE(ABORT, 'ledger_tree is append-only: UPDATE refused'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_tree_no_delete` BEFORE DELETE ON `ledger_tree`
BEGIN SELECT RAISE(ABORT, 'ledger_tree is append-only: DELETE refused'); END;
