-- Still append-only, with one exception: the tree hashes of a row written before the Merkle
-- tree existed (merkle IS NULL) may be filled in once, changing nothing else. They are derived
-- from the payload and checked against it, so filling them cannot rewrite history.
DROP TRIGGER `ledger_events_no_update`;
--> statement-breakpoint
CREATE TRIGGER `ledger_events_no_update` BEFORE UPDATE ON `ledger_events`
WHEN NOT (
  OLD.merkle IS NULL AND NEW.merkle IS NOT NULL
  AND NEW.seq IS OLD.seq AND NEW.tenant_id IS OLD.tenant_id AND NEW.tenant_seq IS OLD.tenant_seq
  AND NEW.event_id IS OLD.event_id AND NEW.event_type IS OLD.event_type AND NEW.ts IS OLD.ts
  AND NEW.conversation_id IS OLD.conversation_id AND NEW.job_id IS OLD.job_id AND NEW.trace_id IS OLD.trace_id
  AND NEW.actor_entity_id IS OLD.actor_entity_id AND NEW.actor_type IS OLD.actor_type
  AND NEW.payload IS OLD.payload AND NEW.prev_hash IS OLD.prev_hash AND NEW.hash IS OLD.hash
)
BEGIN SELECT RAISE(ABORT, 'ledger_events is append-only: UPDATE refused'); END;
