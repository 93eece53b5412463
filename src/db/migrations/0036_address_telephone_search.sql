-- The address a booking's list search looks in, as one text: its parts joined by spaces, those
-- that are null left out, as concat_ws(' ', …) does (which is only stable: no index may use it). Written with
-- immutable operators only, so that the planner inlines it (no function call for each row
-- checked) and the index and the search are the same expression.
CREATE OR REPLACE FUNCTION booking_address(a1 text, a2 text, a3 text, a4 text, pc text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ select substr(coalesce(' ' || a1, '') || coalesce(' ' || a2, '') || coalesce(' ' || a3, '') || coalesce(' ' || a4, '') || coalesce(' ' || pc, ''), 2) $$;--> statement-breakpoint
CREATE INDEX "bookings_address_trgm_idx" ON "bookings" USING gin (booking_address("address_1", "address_2", "address_3", "address_4", "post_code") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "bookings_mobile_digits_trgm_idx" ON "bookings" USING gin (regexp_replace(coalesce("mobile", ''), '\D', '', 'g') gin_trgm_ops);