-- The migrations table already lives in this schema (drizzle creates it first), so it may exist.
CREATE SCHEMA IF NOT EXISTS "ledger";
--> statement-breakpoint
CREATE TABLE "ledger"."checkpoints" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger"."checkpoints_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" text NOT NULL,
	"tenant_seq" bigint NOT NULL,
	"head_hash" text NOT NULL,
	"signature" text NOT NULL,
	"key_id" text NOT NULL,
	"ts" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger"."events" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger"."events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" text NOT NULL,
	"tenant_seq" bigint NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"ts" text NOT NULL,
	"conversation_id" text NOT NULL,
	"job_id" text,
	"trace_id" text NOT NULL,
	"actor_entity_id" text NOT NULL,
	"actor_type" text NOT NULL,
	"payload" text NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"merkle" "bytea" NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger"."heads" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"tenant_seq" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "checkpoints_tenant_seq_idx" ON "ledger"."checkpoints" USING btree ("tenant_id","tenant_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "events_tenant_seq_uq" ON "ledger"."events" USING btree ("tenant_id","tenant_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "events_tenant_event_id_uq" ON "ledger"."events" USING btree ("tenant_id","event_id");--> statement-breakpoint
CREATE INDEX "events_tenant_conversation_idx" ON "ledger"."events" USING btree ("tenant_id","conversation_id","tenant_seq");--> statement-breakpoint
CREATE INDEX "events_tenant_job_idx" ON "ledger"."events" USING btree ("tenant_id","job_id","tenant_seq");--> statement-breakpoint
CREATE INDEX "events_tenant_type_idx" ON "ledger"."events" USING btree ("tenant_id","event_type","tenant_seq");