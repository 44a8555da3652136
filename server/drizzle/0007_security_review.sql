CREATE TABLE "stream_views" (
	"stream_id" uuid NOT NULL,
	"viewer_key" text NOT NULL,
	"counted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stream_views_stream_id_viewer_key_pk" PRIMARY KEY("stream_id","viewer_key")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "stream_views" ADD CONSTRAINT "stream_views_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;