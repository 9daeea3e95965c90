-- UNLOGGED: buckets are not worth a WAL write per request; a crash empties the table, which only refills them.
CREATE UNLOGGED TABLE "gateway"."rate_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"at_ms" bigint NOT NULL,
	"ok" boolean NOT NULL
);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "gateway"."rate_buckets" TO "logline_gateway_writer";
