CREATE TABLE "gateway"."conversation_mutes" (
	"tenant_id" text NOT NULL,
	"entity_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"muted_at" text NOT NULL,
	CONSTRAINT "conversation_mutes_tenant_id_entity_id_conversation_id_pk" PRIMARY KEY("tenant_id","entity_id","conversation_id")
);
--> statement-breakpoint
CREATE TABLE "gateway"."push_subscriptions" (
	"subscription_id" text PRIMARY KEY NOT NULL,
	"endpoint" text NOT NULL,
	"tenant_id" text NOT NULL,
	"entity_id" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"expires_at" bigint,
	"created_at" text NOT NULL,
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
CREATE INDEX "push_subscriptions_entity_idx" ON "gateway"."push_subscriptions" USING btree ("tenant_id","entity_id");--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "gateway"."push_subscriptions", "gateway"."conversation_mutes" TO "logline_gateway_writer";
