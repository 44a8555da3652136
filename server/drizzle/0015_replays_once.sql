CREATE TABLE "stream_parts" (
	"stream_id" uuid NOT NULL,
	"id" text NOT NULL,
	"instance_id" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "stream_parts_stream_id_id_pk" PRIMARY KEY("stream_id","id")
);
--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "publisher_instance" text;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "publisher_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "replay_state" text;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "replay_builder" text;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "replay_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stream_parts" ADD CONSTRAINT "stream_parts_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stream_parts_open_idx" ON "stream_parts" USING btree ("instance_id") WHERE "stream_parts"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "streams_replay_todo_idx" ON "streams" USING btree ("ended_at") WHERE "streams"."ended_at" is not null and "streams"."vod_url" is null and "streams"."replay_state" is distinct from 'empty';--> statement-breakpoint
ALTER TABLE "streams" ADD CONSTRAINT "streams_replay_state_check" CHECK ("streams"."replay_state" in ('building', 'ready', 'empty'));--> statement-breakpoint
-- Streams that have a replay already: it is made.
UPDATE "streams" SET "replay_state" = 'ready' WHERE "vod_url" IS NOT NULL;