-- The migrations table already lives in this schema (drizzle creates it first), so it may exist.
CREATE SCHEMA IF NOT EXISTS "gateway";
--> statement-breakpoint
CREATE TABLE "gateway"."idempotency_keys" (
	"tenant_id" text NOT NULL,
	"entity_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text DEFAULT 'done' NOT NULL,
	"claimed_by" text,
	"claim_expires" bigint,
	"status" integer,
	"sealed_response" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "idempotency_keys_tenant_id_entity_id_key_hash_pk" PRIMARY KEY("tenant_id","entity_id","key_hash")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "gateway"."idempotency_keys" USING btree ("created_at");;
--> statement-breakpoint
-- What a running server may do with the gateway's rows, as a role to grant to the login it
-- connects with (roles belong to the cluster, so it is created only where it is missing).
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'logline_gateway_writer') THEN
    CREATE ROLE "logline_gateway_writer" NOLOGIN;
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA "gateway" TO "logline_gateway_writer";
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "gateway"."idempotency_keys" TO "logline_gateway_writer";
