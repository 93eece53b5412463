ALTER TABLE "bookings" ADD COLUMN "passport_image_uploaded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "passport_image_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "nationality" text;