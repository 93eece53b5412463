ALTER TABLE "trips" ADD COLUMN "consent_text" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "consent_name" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "consent_given_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "consent_ip" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "consent_withdrawn_at" timestamp with time zone;