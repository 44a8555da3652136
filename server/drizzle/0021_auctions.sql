CREATE TABLE "auction_bid_requests" (
	"auction_id" uuid NOT NULL,
	"bidder_id" uuid NOT NULL,
	"client_bid_id" text NOT NULL,
	"outcome" text NOT NULL,
	"max_cents" integer NOT NULL,
	"version" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auction_bid_requests_auction_id_bidder_id_client_bid_id_pk" PRIMARY KEY("auction_id","bidder_id","client_bid_id")
);
--> statement-breakpoint
CREATE TABLE "auction_bids" (
	"auction_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"bidder_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"proxy" boolean DEFAULT false NOT NULL,
	"max_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auction_bids_auction_id_seq_pk" PRIMARY KEY("auction_id","seq")
);
--> statement-breakpoint
CREATE TABLE "auction_blocks" (
	"seller_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auction_blocks_seller_id_user_id_pk" PRIMARY KEY("seller_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "auctions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stream_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"seller_id" uuid NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"starting_bid_cents" integer NOT NULL,
	"current_bid_cents" integer,
	"leader_id" uuid,
	"leader_max_cents" integer,
	"sudden_death" boolean DEFAULT false NOT NULL,
	"extend_sec" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"bid_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"winner_id" uuid,
	"price_cents" integer,
	"payment_state" text,
	"payment_id" uuid,
	"order_id" uuid,
	"pay_by" timestamp with time zone,
	"last_error" text,
	"lease_token" integer DEFAULT 0 NOT NULL,
	"leased_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auctions_starting_bid_check" CHECK ("auctions"."starting_bid_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "local_card_setups" (
	"id" text PRIMARY KEY NOT NULL,
	"client_secret" text NOT NULL,
	"customer_ref" text NOT NULL,
	"status" text NOT NULL,
	"method_ref" text,
	"card_number" text,
	"brand" text,
	"last4" text,
	"exp_month" integer,
	"exp_year" integer,
	"detached_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_customers" (
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"customer_ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_customers_user_id_provider_pk" PRIMARY KEY("user_id","provider")
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"customer_ref" text NOT NULL,
	"method_ref" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auction_bid_requests" ADD CONSTRAINT "auction_bid_requests_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bid_requests" ADD CONSTRAINT "auction_bid_requests_bidder_id_users_id_fk" FOREIGN KEY ("bidder_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_bidder_id_users_id_fk" FOREIGN KEY ("bidder_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_blocks" ADD CONSTRAINT "auction_blocks_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_blocks" ADD CONSTRAINT "auction_blocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_leader_id_users_id_fk" FOREIGN KEY ("leader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_winner_id_users_id_fk" FOREIGN KEY ("winner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_customers" ADD CONSTRAINT "payment_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auction_bid_requests_version_key" ON "auction_bid_requests" USING btree ("auction_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "auctions_one_running_key" ON "auctions" USING btree ("stream_id") WHERE "auctions"."status" = 'running';--> statement-breakpoint
CREATE INDEX "auctions_stream_idx" ON "auctions" USING btree ("stream_id","started_at");--> statement-breakpoint
CREATE INDEX "auctions_due_idx" ON "auctions" USING btree ("status","ends_at");--> statement-breakpoint
CREATE INDEX "auctions_settling_idx" ON "auctions" USING btree ("payment_state") WHERE "auctions"."payment_state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "auctions_payment_key" ON "auctions" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "local_card_setups_secret_key" ON "local_card_setups" USING btree ("client_secret");--> statement-breakpoint
CREATE UNIQUE INDEX "local_card_setups_method_key" ON "local_card_setups" USING btree ("method_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_method_key" ON "payment_methods" USING btree ("provider","method_ref");--> statement-breakpoint
CREATE INDEX "payment_methods_user_idx" ON "payment_methods" USING btree ("user_id","created_at");