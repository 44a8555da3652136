CREATE TABLE "money_back_claims" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"key" text PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "refund_attempt_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "money_back_claims" ADD CONSTRAINT "money_back_claims_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "money_back_claims_subscription_idx" ON "money_back_claims" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "uploads_owner_idx" ON "uploads" USING btree ("owner_id");--> statement-breakpoint
-- Backfill: an upload a product or a profile already names belongs to the account of its earliest
-- reference (a product's seller, by the product's creation; an account's avatar, by the account's
-- creation: rows do not record when an image was set). Uploads nothing names stay without owner.
INSERT INTO "uploads" ("key", "owner_id", "created_at")
SELECT DISTINCT ON ("refs"."key") "refs"."key", "refs"."owner_id", "refs"."at"
FROM (
	SELECT 'uploads/' || lower(substring(p."image_url" from '/media/uploads/([0-9A-Fa-f-]{36}\.webp)$')) AS "key",
		p."seller_id" AS "owner_id", p."created_at" AS "at"
	FROM "products" p
	WHERE p."image_url" ~* '^(https?://[^/?#]+)?/media/uploads/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$'
	UNION ALL
	SELECT 'uploads/' || lower(substring(u."profile_image_url" from '/media/uploads/([0-9A-Fa-f-]{36}\.webp)$')),
		u."id", u."created_at"
	FROM "users" u
	WHERE u."profile_image_url" ~* '^(https?://[^/?#]+)?/media/uploads/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$'
) AS "refs"
ORDER BY "refs"."key", "refs"."at", "refs"."owner_id"
ON CONFLICT ("key") DO NOTHING;
