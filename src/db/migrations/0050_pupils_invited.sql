ALTER TABLE "bookings" DROP CONSTRAINT "bookings_source_check";--> statement-breakpoint
ALTER TABLE "chasers" DROP CONSTRAINT "chasers_check_check";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "parent_invited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "parent_invite_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_source_check" CHECK ("bookings"."source" in ('office', 'online', 'group'));--> statement-breakpoint
ALTER TABLE "chasers" ADD CONSTRAINT "chasers_check_check" CHECK ("chasers"."check" in ('passport', 'forms', 'consent'));