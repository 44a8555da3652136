ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "payout_ref" text;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_payout_ref_kind_key" ON "ledger_entries" USING btree ("payout_ref","kind") WHERE "ledger_entries"."payout_ref" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_stripe_account_key" ON "users" USING btree ("stripe_account_id") WHERE "users"."stripe_account_id" is not null;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('sale', 'fee', 'refund', 'fee_refund', 'payout', 'payout_reversal'));