-- The ledger is append-only, enforced by the database itself: UPDATE, DELETE and TRUNCATE of an
-- event or a checkpoint are refused (row triggers do not see TRUNCATE, so a statement trigger
-- refuses it), and a tenant's head only moves forward.
CREATE FUNCTION "ledger"."refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%.% is append-only: % refused', TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER "events_append_only" BEFORE UPDATE OR DELETE ON "ledger"."events"
  FOR EACH ROW EXECUTE FUNCTION "ledger"."refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "events_no_truncate" BEFORE TRUNCATE ON "ledger"."events"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger"."refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "checkpoints_append_only" BEFORE UPDATE OR DELETE ON "ledger"."checkpoints"
  FOR EACH ROW EXECUTE FUNCTION "ledger"."refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "checkpoints_no_truncate" BEFORE TRUNCATE ON "ledger"."checkpoints"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger"."refuse_change"();
--> statement-breakpoint
CREATE FUNCTION "ledger"."head_moves_forward"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.tenant_id = OLD.tenant_id AND NEW.tenant_seq > OLD.tenant_seq THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'ledger.heads only moves forward: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER "heads_forward_only" BEFORE UPDATE OR DELETE ON "ledger"."heads"
  FOR EACH ROW EXECUTE FUNCTION "ledger"."head_moves_forward"();
--> statement-breakpoint
CREATE TRIGGER "heads_no_truncate" BEFORE TRUNCATE ON "ledger"."heads"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger"."refuse_change"();
--> statement-breakpoint
-- What a running server may do, as a role to grant to the login it connects with: read the
-- ledger, add events and checkpoints, and move heads. The owner (who runs these migrations) keeps
-- everything else. Roles belong to the cluster, so it is created only where it is missing.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'logline_ledger_writer') THEN
    CREATE ROLE "logline_ledger_writer" NOLOGIN;
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA "ledger" TO "logline_ledger_writer";
--> statement-breakpoint
GRANT SELECT, INSERT ON "ledger"."events", "ledger"."checkpoints" TO "logline_ledger_writer";
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "ledger"."heads" TO "logline_ledger_writer";
