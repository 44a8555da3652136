CREATE TABLE "chat_settings" (
	"owner_id" uuid PRIMARY KEY NOT NULL,
	"slow_mode_sec" integer DEFAULT 0 NOT NULL,
	"blocked_words" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seller_moderators" (
	"owner_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stream_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stream_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"price_cents" integer NOT NULL,
	"quantity" integer NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "stream_offers_price_check" CHECK ("stream_offers"."price_cents" > 0),
	CONSTRAINT "stream_offers_quantity_check" CHECK ("stream_offers"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "stream_pins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stream_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"pinned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unpinned_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stream_products" (
	"stream_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stream_viewer_samples" (
	"stream_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"viewers" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "kind" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_mutes" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "stream_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "during_live" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "stream_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "offer_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "show_buyer" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "during_live" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_settings" ADD CONSTRAINT "chat_settings_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_moderators" ADD CONSTRAINT "seller_moderators_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_moderators" ADD CONSTRAINT "seller_moderators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_offers" ADD CONSTRAINT "stream_offers_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_offers" ADD CONSTRAINT "stream_offers_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_pins" ADD CONSTRAINT "stream_pins_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_pins" ADD CONSTRAINT "stream_pins_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_products" ADD CONSTRAINT "stream_products_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_products" ADD CONSTRAINT "stream_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_viewer_samples" ADD CONSTRAINT "stream_viewer_samples_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "seller_moderators_key" ON "seller_moderators" USING btree ("owner_id","user_id");--> statement-breakpoint
CREATE INDEX "stream_offers_stream_idx" ON "stream_offers" USING btree ("stream_id","starts_at");--> statement-breakpoint
CREATE INDEX "stream_pins_stream_idx" ON "stream_pins" USING btree ("stream_id","pinned_at");--> statement-breakpoint
CREATE UNIQUE INDEX "stream_pins_open_key" ON "stream_pins" USING btree ("stream_id","product_id") WHERE "stream_pins"."unpinned_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "stream_products_key" ON "stream_products" USING btree ("stream_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stream_viewer_samples_key" ON "stream_viewer_samples" USING btree ("stream_id","at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_offer_id_stream_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."stream_offers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_stream_idx" ON "orders" USING btree ("stream_id");