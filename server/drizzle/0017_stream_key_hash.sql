ALTER TABLE "streams" ADD COLUMN "ingest_key_nonce" text;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "ingest_key_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "streams_ingest_key_hash_key" ON "streams" USING btree ("ingest_key_hash");--> statement-breakpoint
-- Keys made before this migration: found by their hash from now on (the plain key stays only until its owner resets it).
UPDATE "streams" SET "ingest_key_hash" = encode(sha256(convert_to("ingest_key", 'UTF8')), 'hex') WHERE "ingest_key" IS NOT NULL;
