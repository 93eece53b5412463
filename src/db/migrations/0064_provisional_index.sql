DROP INDEX "bookings_status_idx";--> statement-breakpoint
CREATE INDEX "bookings_status_idx" ON "bookings" USING btree ("status","created_at","id","trip_id");