CREATE TABLE "gateway"."invites" (
	"invite_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"created_by" text NOT NULL,
	"display_name" text,
	"roles" text NOT NULL,
	"created_at" text NOT NULL,
	"expires_at" text NOT NULL,
	"accepted_by" text
);
--> statement-breakpoint
CREATE TABLE "gateway"."passkey_challenges" (
	"challenge" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"tenant_id" text,
	"entity_id" text,
	"expires_at" text NOT NULL,
	"used_at" text
);
--> statement-breakpoint
CREATE TABLE "gateway"."sign_in_links" (
	"link_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"entity_id" text NOT NULL,
	"purpose" text NOT NULL,
	"created_at" text NOT NULL,
	"expires_at" text NOT NULL,
	"used_at" text,
	"session_id" text
);
--> statement-breakpoint
CREATE TABLE "gateway"."tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"entity_id" text NOT NULL,
	"created_at" text NOT NULL,
	"revoked_at" text,
	"session_id" text,
	"device_label" text,
	"signed_in_via" text,
	"last_seen_at" text,
	CONSTRAINT "tokens_session_id_unique" UNIQUE("session_id")
);
--> statement-breakpoint
CREATE INDEX "sign_in_links_entity_idx" ON "gateway"."sign_in_links" USING btree ("tenant_id","entity_id");--> statement-breakpoint
CREATE INDEX "tokens_entity_idx" ON "gateway"."tokens" USING btree ("tenant_id","entity_id");--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "gateway"."tokens", "gateway"."sign_in_links", "gateway"."invites", "gateway"."passkey_challenges" TO "logline_gateway_writer";
