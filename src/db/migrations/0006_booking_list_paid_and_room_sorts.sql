DROP INDEX "bookings_deposit_paid_idx";--> statement-breakpoint
DROP INDEX "bookings_room_ref_idx";--> statement-breakpoint
CREATE INDEX "bookings_deposit_paid_desc_idx" ON "bookings" USING btree ("deposit_payment_date" DESC NULLS LAST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bookings_room_ref_desc_idx" ON "bookings" USING btree ("room_ref" DESC NULLS LAST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bookings_deposit_paid_idx" ON "bookings" USING btree ("deposit_payment_date","id");--> statement-breakpoint
CREATE INDEX "bookings_room_ref_idx" ON "bookings" USING btree ("room_ref","id");