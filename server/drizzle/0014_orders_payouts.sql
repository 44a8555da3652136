CREATE TABLE "addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"line1" text NOT NULL,
	"line2" text,
	"city" text NOT NULL,
	"region" text,
	"postal_code" text NOT NULL,
	"country" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seller_id" uuid NOT NULL,
	"order_id" uuid,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"available_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('sale', 'fee', 'refund', 'fee_refund', 'payout'))
);
--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "status" SET DEFAULT 'paid';--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_address" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "shipping_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "shipping_address" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "fulfillment" text DEFAULT 'ship' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "shipping_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "stripe_account_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "payouts_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "addresses_user_idx" ON "addresses" USING btree ("user_id","last_used_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ledger_entries_seller_idx" ON "ledger_entries" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_order_kind_key" ON "ledger_entries" USING btree ("order_id","kind") WHERE "ledger_entries"."kind" <> 'payout';--> statement-breakpoint
CREATE INDEX "orders_shipped_idx" ON "orders" USING btree ("shipped_at") WHERE "orders"."status" = 'shipped';--> statement-breakpoint
UPDATE "orders" SET "status" = 'paid' WHERE "status" = 'completed';--> statement-breakpoint
INSERT INTO "ledger_entries" ("seller_id", "order_id", "kind", "amount_cents", "available_at", "created_at")
  SELECT "seller_id", "id", 'sale', "amount_cents", "created_at" + interval '7 days', "created_at" FROM "orders";--> statement-breakpoint
INSERT INTO "ledger_entries" ("seller_id", "order_id", "kind", "amount_cents", "available_at", "created_at")
  SELECT "seller_id", "id", 'refund', -"amount_cents", "created_at", "created_at" FROM "orders" WHERE "status" = 'refunded';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('paid', 'shipped', 'delivered', 'cancelled', 'refunded'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_fulfillment_check" CHECK ("products"."fulfillment" in ('ship', 'digital', 'pickup'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_shipping_check" CHECK ("products"."shipping_cents" >= 0 and "products"."shipping_cents" <= 100000);