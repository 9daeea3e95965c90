-- The ledger is append-only: any UPDATE or DELETE of an event or a checkpoint is refused by the
-- database itself, so no code path (ours or a stray script) can rewrite history in place.
CREATE TRIGGER `ledger_events_no_update` BEFORE UPDATE ON `ledger_events`
BEGIN SELECT RAISE(ABORT, 'ledger_events is append-only: UPDATE refused'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_events_no_delete` BEFORE DELETE ON `ledger_events`
BEGIN SELECT RAISE(ABORT, 'ledger_events is append-only: DELETE refused'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_checkpoints_no_update` BEFORE UPDATE ON `ledger_checkpoints`
BEGIN SELECT RAISE(ABORT, 'ledger_checkpoints is append-only: UPDATE refused'); END;
--> statement-breakpoint
CREATE TRIGGER `ledger_checkpoints_no_delete` BEFORE DELETE ON `ledger_checkpoints`
BEGIN SELECT RAISE(ABORT, 'ledger_checkpoints is append-only: DELETE refused'); END;
