CREATE TABLE "booking_trip_counts" (
	"trip_id" integer NOT NULL,
	"status" text NOT NULL,
	"funding_type" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "booking_trip_counts_trip_id_status_funding_type_pk" PRIMARY KEY("trip_id","status","funding_type")
);
--> statement-breakpoint
CREATE TABLE "booking_trip_weeks" (
	"trip_id" integer NOT NULL,
	"week" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "booking_trip_weeks_trip_id_week_pk" PRIMARY KEY("trip_id","week")
);
--> statement-breakpoint
-- One booking's change to the narrow sums: its old row taken back, its new row added. Fired at
-- commit (deferred), after whatever locks the transaction took: an online booking holds its trip's
-- lock by then, so bookings of one trip made at once never wait on these rows while they run.
CREATE FUNCTION rollup_booking_trips() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO booking_trip_weeks AS d (trip_id, week, n)
    VALUES (OLD.trip_id, date_trunc('week', OLD.created_at AT TIME ZONE 'Europe/London')::date, -1)
    ON CONFLICT (trip_id, week) DO UPDATE SET n = d.n - 1;
    INSERT INTO booking_trip_counts AS d (trip_id, status, funding_type, n)
    VALUES (OLD.trip_id, OLD.status, OLD.funding_type, -1)
    ON CONFLICT (trip_id, status, funding_type) DO UPDATE SET n = d.n - 1;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO booking_trip_weeks AS d (trip_id, week, n)
    VALUES (NEW.trip_id, date_trunc('week', NEW.created_at AT TIME ZONE 'Europe/London')::date, 1)
    ON CONFLICT (trip_id, week) DO UPDATE SET n = d.n + 1;
    INSERT INTO booking_trip_counts AS d (trip_id, status, funding_type, n)
    VALUES (NEW.trip_id, NEW.status, NEW.funding_type, 1)
    ON CONFLICT (trip_id, status, funding_type) DO UPDATE SET n = d.n + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER rollup_booking_trips_insert_delete AFTER INSERT OR DELETE ON bookings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION rollup_booking_trips();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER rollup_booking_trips_update AFTER UPDATE ON bookings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.trip_id, OLD.created_at, OLD.status, OLD.funding_type) IS DISTINCT FROM (NEW.trip_id, NEW.created_at, NEW.status, NEW.funding_type))
  EXECUTE FUNCTION rollup_booking_trips();--> statement-breakpoint
INSERT INTO booking_trip_weeks (trip_id, week, n)
SELECT trip_id, date_trunc('week', created_at AT TIME ZONE 'Europe/London')::date, count(*)::int FROM bookings GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO booking_trip_counts (trip_id, status, funding_type, n)
SELECT trip_id, status, funding_type, count(*)::int FROM bookings GROUP BY 1, 2, 3;
