CREATE TABLE "booking_month_counts" (
	"month" date NOT NULL,
	"status" text NOT NULL,
	"funding_type" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "booking_month_counts_month_status_funding_type_pk" PRIMARY KEY("month","status","funding_type")
);
--> statement-breakpoint
CREATE TABLE "booking_month_weeks" (
	"month" date NOT NULL,
	"type" text NOT NULL,
	"week" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "booking_month_weeks_month_type_week_pk" PRIMARY KEY("month","type","week")
);
--> statement-breakpoint
CREATE TABLE "money_month_weeks" (
	"month" date NOT NULL,
	"week" date NOT NULL,
	"received_pence" bigint DEFAULT 0 NOT NULL,
	"invoiced_pence" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "money_month_weeks_month_week_pk" PRIMARY KEY("month","week")
);
--> statement-breakpoint
CREATE TABLE "money_owed_month_days" (
	"month" date NOT NULL,
	"due_date" date NOT NULL,
	"n" integer NOT NULL,
	"pence" bigint NOT NULL,
	CONSTRAINT "money_owed_month_days_month_due_date_pk" PRIMARY KEY("month","due_date")
);
--> statement-breakpoint
-- Each change to a trip's narrow sums added to its departure month's (for a trip not deleted).
-- The trip's advisory lock (class 2063) is taken shared first, and the trip read after it: a
-- change to its departure month, type or deletion takes that lock alone, so it waits for this
-- transaction or this for it, and no sum is moved from a month it has not reached yet. Not the
-- trip's row: an online booking holds that (FOR NO KEY UPDATE) while it adds to these same sums,
-- and a payment that waited on it while holding a sum the booking needs would deadlock.
CREATE FUNCTION rollup_booking_month_weeks() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE k record;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.trip_id = OLD.trip_id AND NEW.week = OLD.week THEN
    IF NEW.n = OLD.n THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock_shared(2063, NEW.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month, type INTO k FROM trips WHERE id = NEW.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO booking_month_weeks AS m (month, type, week, n) VALUES (k.month, k.type, NEW.week, NEW.n - OLD.n)
      ON CONFLICT (month, type, week) DO UPDATE SET n = m.n + excluded.n;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_advisory_xact_lock_shared(2063, OLD.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month, type INTO k FROM trips WHERE id = OLD.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO booking_month_weeks AS m (month, type, week, n) VALUES (k.month, k.type, OLD.week, -OLD.n)
      ON CONFLICT (month, type, week) DO UPDATE SET n = m.n + excluded.n;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_advisory_xact_lock_shared(2063, NEW.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month, type INTO k FROM trips WHERE id = NEW.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO booking_month_weeks AS m (month, type, week, n) VALUES (k.month, k.type, NEW.week, NEW.n)
      ON CONFLICT (month, type, week) DO UPDATE SET n = m.n + excluded.n;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION rollup_booking_month_counts() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE k record;
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.trip_id, NEW.status, NEW.funding_type) = (OLD.trip_id, OLD.status, OLD.funding_type) THEN
    IF NEW.n = OLD.n THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock_shared(2063, NEW.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month INTO k FROM trips WHERE id = NEW.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO booking_month_counts AS m (month, status, funding_type, n) VALUES (k.month, NEW.status, NEW.funding_type, NEW.n - OLD.n)
      ON CONFLICT (month, status, funding_type) DO UPDATE SET n = m.n + excluded.n;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_advisory_xact_lock_shared(2063, OLD.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month INTO k FROM trips WHERE id = OLD.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO booking_month_counts AS m (month, status, funding_type, n) VALUES (k.month, OLD.status, OLD.funding_type, -OLD.n)
      ON CONFLICT (month, status, funding_type) DO UPDATE SET n = m.n + excluded.n;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_advisory_xact_lock_shared(2063, NEW.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month INTO k FROM trips WHERE id = NEW.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO booking_month_counts AS m (month, status, funding_type, n) VALUES (k.month, NEW.status, NEW.funding_type, NEW.n)
      ON CONFLICT (month, status, funding_type) DO UPDATE SET n = m.n + excluded.n;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION rollup_money_month_weeks() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE k record;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.trip_id = OLD.trip_id AND NEW.week = OLD.week THEN
    IF (NEW.received_pence, NEW.invoiced_pence) = (OLD.received_pence, OLD.invoiced_pence) THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock_shared(2063, NEW.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month INTO k FROM trips WHERE id = NEW.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO money_month_weeks AS m (month, week, received_pence, invoiced_pence)
      VALUES (k.month, NEW.week, NEW.received_pence - OLD.received_pence, NEW.invoiced_pence - OLD.invoiced_pence)
      ON CONFLICT (month, week) DO UPDATE
        SET received_pence = m.received_pence + excluded.received_pence, invoiced_pence = m.invoiced_pence + excluded.invoiced_pence;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_advisory_xact_lock_shared(2063, OLD.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month INTO k FROM trips WHERE id = OLD.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO money_month_weeks AS m (month, week, received_pence, invoiced_pence)
      VALUES (k.month, OLD.week, -OLD.received_pence, -OLD.invoiced_pence)
      ON CONFLICT (month, week) DO UPDATE
        SET received_pence = m.received_pence + excluded.received_pence, invoiced_pence = m.invoiced_pence + excluded.invoiced_pence;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_advisory_xact_lock_shared(2063, NEW.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month INTO k FROM trips WHERE id = NEW.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO money_month_weeks AS m (month, week, received_pence, invoiced_pence)
      VALUES (k.month, NEW.week, NEW.received_pence, NEW.invoiced_pence)
      ON CONFLICT (month, week) DO UPDATE
        SET received_pence = m.received_pence + excluded.received_pence, invoiced_pence = m.invoiced_pence + excluded.invoiced_pence;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION rollup_money_owed_month_days() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE k record;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.trip_id = OLD.trip_id AND NEW.due_date = OLD.due_date THEN
    IF (NEW.n, NEW.pence) = (OLD.n, OLD.pence) THEN RETURN NULL; END IF;
    PERFORM pg_advisory_xact_lock_shared(2063, NEW.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month INTO k FROM trips WHERE id = NEW.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO money_owed_month_days AS m (month, due_date, n, pence) VALUES (k.month, NEW.due_date, NEW.n - OLD.n, NEW.pence - OLD.pence)
      ON CONFLICT (month, due_date) DO UPDATE SET n = m.n + excluded.n, pence = m.pence + excluded.pence;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_advisory_xact_lock_shared(2063, OLD.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month INTO k FROM trips WHERE id = OLD.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO money_owed_month_days AS m (month, due_date, n, pence) VALUES (k.month, OLD.due_date, -OLD.n, -OLD.pence)
      ON CONFLICT (month, due_date) DO UPDATE SET n = m.n + excluded.n, pence = m.pence + excluded.pence;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_advisory_xact_lock_shared(2063, NEW.trip_id);
    SELECT date_trunc('month', departure_date::timestamp)::date AS month INTO k FROM trips WHERE id = NEW.trip_id AND deleted_at IS NULL;
    IF FOUND THEN
      INSERT INTO money_owed_month_days AS m (month, due_date, n, pence) VALUES (k.month, NEW.due_date, NEW.n, NEW.pence)
      ON CONFLICT (month, due_date) DO UPDATE SET n = m.n + excluded.n, pence = m.pence + excluded.pence;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A trip whose departure month, type or deletion changes moves all its sums: taken from the
-- month they were in, added to the one they are in now (none for a deleted trip). Its advisory
-- lock is taken alone first, so changes to its sums under way finish before they are read. The
-- trigger's name puts it after trips_push_departure, which locks the trip's bookings: a change
-- that holds one of them waits for no lock of this trip's.
CREATE FUNCTION rollup_trip_months() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_trip integer;
  v_month date;
  v_type text;
  v_sign integer;
BEGIN
  PERFORM pg_advisory_xact_lock(2063, CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  FOR i IN 1..2 LOOP
    IF i = 1 THEN
      CONTINUE WHEN TG_OP = 'INSERT' OR OLD.deleted_at IS NOT NULL;
      v_trip := OLD.id; v_month := date_trunc('month', OLD.departure_date::timestamp)::date; v_type := OLD.type; v_sign := -1;
    ELSE
      CONTINUE WHEN TG_OP = 'DELETE' OR NEW.deleted_at IS NOT NULL;
      v_trip := NEW.id; v_month := date_trunc('month', NEW.departure_date::timestamp)::date; v_type := NEW.type; v_sign := 1;
    END IF;
    INSERT INTO booking_month_weeks AS m (month, type, week, n)
    SELECT v_month, v_type, d.week, v_sign * d.n FROM booking_trip_weeks d WHERE d.trip_id = v_trip ORDER BY d.week
    ON CONFLICT (month, type, week) DO UPDATE SET n = m.n + excluded.n;
    INSERT INTO booking_month_counts AS m (month, status, funding_type, n)
    SELECT v_month, d.status, d.funding_type, v_sign * d.n FROM booking_trip_counts d WHERE d.trip_id = v_trip ORDER BY 2, 3
    ON CONFLICT (month, status, funding_type) DO UPDATE SET n = m.n + excluded.n;
    INSERT INTO money_month_weeks AS m (month, week, received_pence, invoiced_pence)
    SELECT v_month, d.week, v_sign * d.received_pence, v_sign * d.invoiced_pence FROM money_weeks d WHERE d.trip_id = v_trip ORDER BY d.week
    ON CONFLICT (month, week) DO UPDATE
      SET received_pence = m.received_pence + excluded.received_pence, invoiced_pence = m.invoiced_pence + excluded.invoiced_pence;
    INSERT INTO money_owed_month_days AS m (month, due_date, n, pence)
    SELECT v_month, d.due_date, v_sign * d.n, v_sign * d.pence FROM money_owed_days d WHERE d.trip_id = v_trip ORDER BY d.due_date
    ON CONFLICT (month, due_date) DO UPDATE SET n = m.n + excluded.n, pence = m.pence + excluded.pence;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_booking_month_weeks AFTER INSERT OR UPDATE OR DELETE ON booking_trip_weeks FOR EACH ROW EXECUTE FUNCTION rollup_booking_month_weeks();--> statement-breakpoint
CREATE TRIGGER rollup_booking_month_counts AFTER INSERT OR UPDATE OR DELETE ON booking_trip_counts FOR EACH ROW EXECUTE FUNCTION rollup_booking_month_counts();--> statement-breakpoint
CREATE TRIGGER rollup_money_month_weeks AFTER INSERT OR UPDATE OR DELETE ON money_weeks FOR EACH ROW EXECUTE FUNCTION rollup_money_month_weeks();--> statement-breakpoint
CREATE TRIGGER rollup_money_owed_month_days AFTER INSERT OR UPDATE OR DELETE ON money_owed_days FOR EACH ROW EXECUTE FUNCTION rollup_money_owed_month_days();--> statement-breakpoint
CREATE TRIGGER trips_rollup_months_update AFTER UPDATE ON trips FOR EACH ROW
  WHEN (date_trunc('month', OLD.departure_date::timestamp) IS DISTINCT FROM date_trunc('month', NEW.departure_date::timestamp)
    OR OLD.type IS DISTINCT FROM NEW.type OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
  EXECUTE FUNCTION rollup_trip_months();--> statement-breakpoint
CREATE TRIGGER trips_rollup_months_delete AFTER DELETE ON trips FOR EACH ROW EXECUTE FUNCTION rollup_trip_months();--> statement-breakpoint
INSERT INTO booking_month_weeks (month, type, week, n)
SELECT date_trunc('month', t.departure_date::timestamp)::date, t.type, d.week, sum(d.n)::int
FROM booking_trip_weeks d JOIN trips t ON t.id = d.trip_id AND t.deleted_at IS NULL GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO booking_month_counts (month, status, funding_type, n)
SELECT date_trunc('month', t.departure_date::timestamp)::date, d.status, d.funding_type, sum(d.n)::int
FROM booking_trip_counts d JOIN trips t ON t.id = d.trip_id AND t.deleted_at IS NULL GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO money_month_weeks (month, week, received_pence, invoiced_pence)
SELECT date_trunc('month', t.departure_date::timestamp)::date, d.week, sum(d.received_pence), sum(d.invoiced_pence)
FROM money_weeks d JOIN trips t ON t.id = d.trip_id AND t.deleted_at IS NULL GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO money_owed_month_days (month, due_date, n, pence)
SELECT date_trunc('month', t.departure_date::timestamp)::date, d.due_date, sum(d.n)::int, sum(d.pence)
FROM money_owed_days d JOIN trips t ON t.id = d.trip_id AND t.deleted_at IS NULL GROUP BY 1, 2;
