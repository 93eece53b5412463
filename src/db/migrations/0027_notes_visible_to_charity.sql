ALTER TABLE "booking_notes" ADD COLUMN "visible_to_charity" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- the notes the portal has shown until now (written by a user of the booking's own charity) stay shown; from here on the flag is set when a note is written
UPDATE "booking_notes" n SET "visible_to_charity" = true FROM "users" u, "bookings" b WHERE u."id" = n."user_id" AND b."id" = n."booking_id" AND u."user_role_id" = 2 AND u."charity_id" = b."charity_id";
