ALTER TABLE "trips" ADD COLUMN "capacity" integer;--> statement-breakpoint
ALTER TABLE "trips" ADD CONSTRAINT "trips_capacity_check" CHECK ("trips"."capacity" is null or "trips"."capacity" > 0);