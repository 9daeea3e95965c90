-- The migrations table already lives in this schema (drizzle creates it first), so it may exist.
CREATE SCHEMA IF NOT EXISTS "office";
--> statement-breakpoint
CREATE TABLE "office"."inbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "office"."inbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" text NOT NULL,
	"event_id" text NOT NULL,
	"kind" text NOT NULL,
	"conversation_id" text NOT NULL,
	"request" text NOT NULL,
	"accepted_at" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_event_uq" ON "office"."inbox" USING btree ("tenant_id","event_id");;
--> statement-breakpoint
-- What a running server may do with Office's rows, as a role to grant to the login it connects
-- with (roles belong to the cluster, so it is created only where it is missing).
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'logline_office_writer') THEN
    CREATE ROLE "logline_office_writer" NOLOGIN;
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA "office" TO "logline_office_writer";
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "office"."inbox" TO "logline_office_writer";
