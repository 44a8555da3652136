ALTER TABLE "streams" ADD COLUMN "plan" text DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "first_paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "refund_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "streams" ADD CONSTRAINT "streams_plan_check" CHECK ("streams"."plan" in ('free', 'pro'));--> statement-breakpoint
UPDATE "streams" SET "plan" = "users"."plan" FROM "users" WHERE "users"."id" = "streams"."owner_id";--> statement-breakpoint
UPDATE "subscriptions" SET "first_paid_at" = "created_at" WHERE "status" IN ('active', 'expired');
