ALTER TABLE "bookings" ADD COLUMN "keep_until" date;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "keep_reason" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "personal_data_erased_at" timestamp with time zone;