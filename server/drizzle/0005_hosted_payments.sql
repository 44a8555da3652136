ALTER TABLE "local_payment_intents" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "local_payment_intents" ADD COLUMN "success_url" text;--> statement-breakpoint
ALTER TABLE "local_payment_intents" ADD COLUMN "cancel_url" text;