CREATE TABLE "booking_setups" (
	"booking_id" bigint PRIMARY KEY NOT NULL,
	"invoice_id" integer,
	"discount_id" integer,
	"discount_code" text,
	"discount_amount_pence" integer,
	"deposit_pence" integer NOT NULL,
	"booked_on" date NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "booking_setups_invoice_id_unique" UNIQUE("invoice_id")
);
--> statement-breakpoint
ALTER TABLE "booking_weeks" DROP CONSTRAINT "booking_weeks_trip_id_week_status_funding_type_pk";--> statement-breakpoint
ALTER TABLE "booking_weeks" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- the counts made again slot by slot, so that a later change of a booking takes back from its own slot
DELETE FROM "booking_weeks";--> statement-breakpoint
INSERT INTO "booking_weeks" (trip_id, week, status, funding_type, slot, n)
SELECT trip_id, date_trunc('week', created_at AT TIME ZONE 'Europe/London')::date, status, funding_type, (id % 8)::smallint, count(*)::int
FROM bookings GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
ALTER TABLE "booking_weeks" ADD CONSTRAINT "booking_weeks_trip_id_week_status_funding_type_slot_pk" PRIMARY KEY("trip_id","week","status","funding_type","slot");--> statement-breakpoint
ALTER TABLE "booking_setups" ADD CONSTRAINT "booking_setups_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_setups" ADD CONSTRAINT "booking_setups_discount_id_discounts_id_fk" FOREIGN KEY ("discount_id") REFERENCES "public"."discounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- booking_weeks split in eight slots by the booking's id: bookings of one trip made at once add
-- to different rows, so they no longer wait on one another until each commits (decision 030)
CREATE OR REPLACE FUNCTION rollup_booking_weeks() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO booking_weeks AS d (trip_id, week, status, funding_type, slot, n)
    SELECT x.trip_id, x.week, x.status, x.funding_type, x.slot, count(*)::int
    FROM (SELECT n.trip_id, date_trunc('week', n.created_at AT TIME ZONE 'Europe/London')::date AS week, n.status, n.funding_type, (n.id % 8)::smallint AS slot FROM new_rows n) x
    GROUP BY x.trip_id, x.week, x.status, x.funding_type, x.slot ORDER BY x.trip_id, x.week, x.status, x.funding_type, x.slot
    ON CONFLICT (trip_id, week, status, funding_type, slot) DO UPDATE SET n = d.n + excluded.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO booking_weeks AS d (trip_id, week, status, funding_type, slot, n)
    SELECT x.trip_id, x.week, x.status, x.funding_type, x.slot, sum(x.n)::int
    FROM (
      SELECT n.trip_id, date_trunc('week', n.created_at AT TIME ZONE 'Europe/London')::date AS week, n.status, n.funding_type, (n.id % 8)::smallint AS slot, 1 AS n
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.trip_id, n.created_at, n.status, n.funding_type) IS DISTINCT FROM (o.trip_id, o.created_at, o.status, o.funding_type)
      UNION ALL
      SELECT o.trip_id, date_trunc('week', o.created_at AT TIME ZONE 'Europe/London')::date, o.status, o.funding_type, (o.id % 8)::smallint, -1
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.trip_id, n.created_at, n.status, n.funding_type) IS DISTINCT FROM (o.trip_id, o.created_at, o.status, o.funding_type)
    ) x
    GROUP BY x.trip_id, x.week, x.status, x.funding_type, x.slot HAVING sum(x.n) <> 0 ORDER BY x.trip_id, x.week, x.status, x.funding_type, x.slot
    ON CONFLICT (trip_id, week, status, funding_type, slot) DO UPDATE SET n = d.n + excluded.n;
  ELSE
    INSERT INTO booking_weeks AS d (trip_id, week, status, funding_type, slot, n)
    SELECT x.trip_id, x.week, x.status, x.funding_type, x.slot, -count(*)::int
    FROM (SELECT o.trip_id, date_trunc('week', o.created_at AT TIME ZONE 'Europe/London')::date AS week, o.status, o.funding_type, (o.id % 8)::smallint AS slot FROM old_rows o) x
    GROUP BY x.trip_id, x.week, x.status, x.funding_type, x.slot ORDER BY x.trip_id, x.week, x.status, x.funding_type, x.slot
    ON CONFLICT (trip_id, week, status, funding_type, slot) DO UPDATE SET n = d.n + excluded.n;
  END IF;
  RETURN NULL;
END;
$$;
