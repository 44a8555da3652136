ALTER TABLE "streams" ADD COLUMN "ingest_key" text;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "encoder_connected_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "streams_ingest_key_key" ON "streams" USING btree ("ingest_key");