ALTER TABLE "trips" ADD COLUMN "minimum" integer;--> statement-breakpoint
ALTER TABLE "trips" ADD CONSTRAINT "trips_minimum_check" CHECK ("trips"."minimum" is null or "trips"."minimum" > 0);