DROP INDEX "bookings_created_idx";--> statement-breakpoint
DROP INDEX "bookings_trip_created_idx";--> statement-breakpoint
DROP INDEX "bookings_status_idx";--> statement-breakpoint
CREATE INDEX "bookings_created_idx" ON "bookings" USING btree ("created_at","id","trip_departure","trip_id","status");--> statement-breakpoint
CREATE INDEX "bookings_trip_created_idx" ON "bookings" USING btree ("trip_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bookings_status_idx" ON "bookings" USING btree ("status","created_at","id");--> statement-breakpoint
-- The list counts exactly below ~10,000 matches and shows the planner's estimate above that, so
-- the estimate of a text search must be steady: with the default statistics target the 'smith'
-- search was estimated anywhere from 10,000 to 60,000 (33,279 are there); with 1000 it is
-- within a few per cent. (Hand-written: drizzle-kit does not model statistics targets.)
ALTER INDEX "bookings_name_trgm_idx" ALTER COLUMN 1 SET STATISTICS 1000;--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "email" SET STATISTICS 1000;--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "ref" SET STATISTICS 1000;
