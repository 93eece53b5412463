ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_source";--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "online_booking" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "booking_slug" text;--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "booking_closes_on" date;--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "booking_funding_types" text[];--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "booking_charity_ids" integer[];--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "booking_discount_codes" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "source" text DEFAULT 'office' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "hold_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "trips_booking_slug_unique" ON "trips" USING btree (lower("booking_slug"));--> statement-breakpoint
CREATE INDEX "bookings_hold_idx" ON "bookings" USING btree ("hold_expires_at") WHERE "bookings"."hold_expires_at" is not null;--> statement-breakpoint
ALTER TABLE "trips" ADD CONSTRAINT "trips_booking_slug_check" CHECK ("trips"."booking_slug" is null or "trips"."booking_slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$');--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_source_check" CHECK ("bookings"."source" in ('office', 'online'));--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_source" CHECK ("audit_events"."source" in ('web', 'api', 'system', 'webhook', 'portal', 'online'));