CREATE TABLE "booking_weeks" (
	"trip_id" integer NOT NULL,
	"week" date NOT NULL,
	"status" text NOT NULL,
	"funding_type" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "booking_weeks_trip_id_week_status_funding_type_pk" PRIMARY KEY("trip_id","week","status","funding_type")
);
--> statement-breakpoint
CREATE TABLE "invoice_days" (
	"invoice_id" integer PRIMARY KEY NOT NULL,
	"trip_id" integer NOT NULL,
	"day" date NOT NULL,
	"pence" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "money_days" (
	"trip_id" integer NOT NULL,
	"day" date NOT NULL,
	"received_pence" bigint DEFAULT 0 NOT NULL,
	"invoiced_pence" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "money_days_trip_id_day_pk" PRIMARY KEY("trip_id","day")
);
--> statement-breakpoint
CREATE TABLE "trip_counts" (
	"trip_id" integer PRIMARY KEY NOT NULL,
	"stale" boolean DEFAULT true NOT NULL,
	"computed_on" date,
	"defaults_key" text,
	"not_ready" integer,
	"behind" integer,
	"computed_at" timestamp with time zone
);
--> statement-breakpoint
-- The dashboard's rollups (issue 20, decision 015), kept in the same transaction as the writes
-- they follow. Every trigger here is named rollup_… so that it fires after the money_owed_… ones
-- of the same statement (triggers fire in name order): those lock the bookings first, and every
-- path takes its locks in that one order. Day totals change in one statement each, in key order.
--
-- booking_weeks: bookings per trip, week made (its Monday, London time), status and funding type
CREATE FUNCTION rollup_booking_weeks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO booking_weeks AS d (trip_id, week, status, funding_type, n)
    SELECT x.trip_id, x.week, x.status, x.funding_type, count(*)::int
    FROM (SELECT n.trip_id, date_trunc('week', n.created_at AT TIME ZONE 'Europe/London')::date AS week, n.status, n.funding_type FROM new_rows n) x
    GROUP BY x.trip_id, x.week, x.status, x.funding_type ORDER BY x.trip_id, x.week, x.status, x.funding_type
    ON CONFLICT (trip_id, week, status, funding_type) DO UPDATE SET n = d.n + excluded.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO booking_weeks AS d (trip_id, week, status, funding_type, n)
    SELECT x.trip_id, x.week, x.status, x.funding_type, sum(x.n)::int
    FROM (
      SELECT n.trip_id, date_trunc('week', n.created_at AT TIME ZONE 'Europe/London')::date AS week, n.status, n.funding_type, 1 AS n
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.trip_id, n.created_at, n.status, n.funding_type) IS DISTINCT FROM (o.trip_id, o.created_at, o.status, o.funding_type)
      UNION ALL
      SELECT o.trip_id, date_trunc('week', o.created_at AT TIME ZONE 'Europe/London')::date, o.status, o.funding_type, -1
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.trip_id, n.created_at, n.status, n.funding_type) IS DISTINCT FROM (o.trip_id, o.created_at, o.status, o.funding_type)
    ) x
    GROUP BY x.trip_id, x.week, x.status, x.funding_type HAVING sum(x.n) <> 0 ORDER BY x.trip_id, x.week, x.status, x.funding_type
    ON CONFLICT (trip_id, week, status, funding_type) DO UPDATE SET n = d.n + excluded.n;
  ELSE
    INSERT INTO booking_weeks AS d (trip_id, week, status, funding_type, n)
    SELECT x.trip_id, x.week, x.status, x.funding_type, -count(*)::int
    FROM (SELECT o.trip_id, date_trunc('week', o.created_at AT TIME ZONE 'Europe/London')::date AS week, o.status, o.funding_type FROM old_rows o) x
    GROUP BY x.trip_id, x.week, x.status, x.funding_type ORDER BY x.trip_id, x.week, x.status, x.funding_type
    ON CONFLICT (trip_id, week, status, funding_type) DO UPDATE SET n = d.n + excluded.n;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- money_days.received_pence: live payments less live refunds, by their date, on their booking's trip
CREATE FUNCTION rollup_money_days_received() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO money_days AS d (trip_id, day, received_pence)
    SELECT b.trip_id, n.date, sum(CASE WHEN n.type = 'payment' THEN n.amount_pence ELSE -n.amount_pence END)
    FROM new_rows n JOIN bookings b ON b.id = n.booking_id WHERE n.deleted_at IS NULL
    GROUP BY b.trip_id, n.date ORDER BY b.trip_id, n.date
    ON CONFLICT (trip_id, day) DO UPDATE SET received_pence = d.received_pence + excluded.received_pence;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO money_days AS d (trip_id, day, received_pence)
    SELECT x.trip_id, x.day, sum(x.pence)
    FROM (
      SELECT b.trip_id, n.date AS day, CASE WHEN n.type = 'payment' THEN n.amount_pence ELSE -n.amount_pence END AS pence
      FROM new_rows n JOIN bookings b ON b.id = n.booking_id WHERE n.deleted_at IS NULL
      UNION ALL
      SELECT b.trip_id, o.date, CASE WHEN o.type = 'payment' THEN -o.amount_pence ELSE o.amount_pence END
      FROM old_rows o JOIN bookings b ON b.id = o.booking_id WHERE o.deleted_at IS NULL
    ) x
    GROUP BY x.trip_id, x.day HAVING sum(x.pence) <> 0 ORDER BY x.trip_id, x.day
    ON CONFLICT (trip_id, day) DO UPDATE SET received_pence = d.received_pence + excluded.received_pence;
  ELSE
    INSERT INTO money_days AS d (trip_id, day, received_pence)
    SELECT b.trip_id, o.date, -sum(CASE WHEN o.type = 'payment' THEN o.amount_pence ELSE -o.amount_pence END)
    FROM old_rows o JOIN bookings b ON b.id = o.booking_id WHERE o.deleted_at IS NULL
    GROUP BY b.trip_id, o.date ORDER BY b.trip_id, o.date
    ON CONFLICT (trip_id, day) DO UPDATE SET received_pence = d.received_pence + excluded.received_pence;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- what these invoices add to money_days.invoiced_pence: each one's total as money_owed_of reckons
-- it (items and add-ons, less its discount, never below £0) on its invoice date and its booking's trip
CREATE FUNCTION invoice_days_of(ids integer[])
RETURNS TABLE (invoice_id integer, trip_id integer, day date, pence bigint)
LANGUAGE sql STABLE AS $$
  SELECT i.id, b.trip_id, i.invoice_date, (s.subtotal - greatest(0, least(i.discount_pence, s.subtotal)))::bigint
  FROM invoices i
  JOIN bookings b ON b.id = i.booking_id
  CROSS JOIN LATERAL (
    SELECT coalesce((SELECT sum(ii.amount_pence) FROM invoice_items ii WHERE ii.invoice_id = i.id), 0)
         + coalesce((SELECT sum(ia.price_pence) FROM invoice_addons ia WHERE ia.invoice_id = i.id), 0) AS subtotal
  ) s
  WHERE i.id = ANY (ids)
$$;
--> statement-breakpoint
-- takes back what these invoices last added (invoice_days) and adds what they add now
CREATE FUNCTION invoice_days_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM invoice_days WHERE invoice_id = ANY (ids) ORDER BY invoice_id FOR UPDATE;
  WITH gone AS (
    DELETE FROM invoice_days m WHERE m.invoice_id = ANY (ids) RETURNING m.trip_id, m.day, -m.pence AS pence
  ), fresh AS (
    SELECT f.trip_id, f.day, f.pence FROM invoice_days_of(ids) f
  )
  INSERT INTO money_days AS d (trip_id, day, invoiced_pence)
  SELECT x.trip_id, x.day, sum(x.pence) FROM (SELECT * FROM gone UNION ALL SELECT * FROM fresh) x
  GROUP BY x.trip_id, x.day HAVING sum(x.pence) <> 0 ORDER BY x.trip_id, x.day
  ON CONFLICT (trip_id, day) DO UPDATE SET invoiced_pence = d.invoiced_pence + excluded.invoiced_pence;
  INSERT INTO invoice_days (invoice_id, trip_id, day, pence) SELECT * FROM invoice_days_of(ids);
END;
$$;
--> statement-breakpoint
CREATE FUNCTION rollup_invoices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM invoice_days_refresh(ARRAY(SELECT n.id FROM new_rows n));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM invoice_days_refresh(ARRAY(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.booking_id, n.invoice_date, n.discount_pence) IS DISTINCT FROM (o.booking_id, o.invoice_date, o.discount_pence)));
  ELSE
    PERFORM invoice_days_refresh(ARRAY(SELECT o.id FROM old_rows o));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION rollup_invoice_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM invoice_days_refresh(ARRAY(SELECT DISTINCT n.invoice_id FROM new_rows n));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM invoice_days_refresh(ARRAY(SELECT n.invoice_id FROM new_rows n UNION SELECT o.invoice_id FROM old_rows o));
  ELSE
    PERFORM invoice_days_refresh(ARRAY(SELECT DISTINCT o.invoice_id FROM old_rows o));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- a booking moved to another trip takes its money with it
CREATE FUNCTION rollup_bookings_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO money_days AS d (trip_id, day, received_pence)
  SELECT x.trip_id, x.day, sum(x.pence)
  FROM (
    SELECT m.trip_id, t.date AS day, s.pence * m.sign AS pence
    FROM (SELECT n.id, n.trip_id, 1 AS sign FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.trip_id <> o.trip_id
          UNION ALL SELECT o.id, o.trip_id, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.trip_id <> o.trip_id) m
    JOIN transactions t ON t.booking_id = m.id AND t.deleted_at IS NULL
    CROSS JOIN LATERAL (SELECT CASE WHEN t.type = 'payment' THEN t.amount_pence ELSE -t.amount_pence END AS pence) s
  ) x
  GROUP BY x.trip_id, x.day HAVING sum(x.pence) <> 0 ORDER BY x.trip_id, x.day
  ON CONFLICT (trip_id, day) DO UPDATE SET received_pence = d.received_pence + excluded.received_pence;
  PERFORM invoice_days_refresh(ARRAY(
    SELECT i.id FROM invoices i JOIN new_rows n ON n.id = i.booking_id JOIN old_rows o ON o.id = n.id WHERE n.trip_id <> o.trip_id));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- trip_counts: any change to what the readiness checks or the fundraising standing read marks the
-- trip stale. A writer holds its trips' advisory locks shared (class 2025, the trip id modulo 64)
-- until it commits; the dashboard takes them alone for a moment before it counts a trip afresh
-- (dashboard/trip-counts.ts), so every write it cannot see yet has either committed or will mark
-- the trip stale after it.
CREATE FUNCTION trip_counts_stale(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(2025, x.bucket) FROM (SELECT DISTINCT (i % 64)::int AS bucket FROM unnest(ids) i WHERE i IS NOT NULL ORDER BY 1) x;
  UPDATE trip_counts SET stale = true WHERE trip_id = ANY (ids) AND NOT stale;
END;
$$;
--> statement-breakpoint
-- after a statement on a table with trip_id (bookings, money_owed, trip_custom_fields, trip_documents, trip_fundraising)
CREATE FUNCTION rollup_stale_by_trip() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM trip_counts_stale(ARRAY(SELECT DISTINCT n.trip_id FROM new_rows n));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM trip_counts_stale(ARRAY(SELECT n.trip_id FROM new_rows n UNION SELECT o.trip_id FROM old_rows o));
  ELSE
    PERFORM trip_counts_stale(ARRAY(SELECT DISTINCT o.trip_id FROM old_rows o));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- after a statement on a table with booking_id (invoices, fundraising_entries, booking_custom_field_answers)
CREATE FUNCTION rollup_stale_by_booking() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM trip_counts_stale(ARRAY(SELECT DISTINCT b.trip_id FROM bookings b WHERE b.id IN (SELECT n.booking_id FROM new_rows n)));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM trip_counts_stale(ARRAY(SELECT DISTINCT b.trip_id FROM bookings b WHERE b.id IN (SELECT n.booking_id FROM new_rows n UNION SELECT o.booking_id FROM old_rows o)));
  ELSE
    PERFORM trip_counts_stale(ARRAY(SELECT DISTINCT b.trip_id FROM bookings b WHERE b.id IN (SELECT o.booking_id FROM old_rows o)));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- a trip's own dates, country, deposit or passport rule; a country's passport rule
CREATE FUNCTION rollup_stale_trips() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trip_counts_stale(ARRAY(SELECT n.id FROM new_rows n));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION rollup_stale_countries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trip_counts_stale(ARRAY(SELECT t.id FROM trips t WHERE t.country_id IN (SELECT n.id FROM new_rows n)));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_booking_weeks_insert AFTER INSERT ON bookings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_booking_weeks();--> statement-breakpoint
CREATE TRIGGER rollup_booking_weeks_update AFTER UPDATE ON bookings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_booking_weeks();--> statement-breakpoint
CREATE TRIGGER rollup_booking_weeks_delete AFTER DELETE ON bookings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_booking_weeks();--> statement-breakpoint
CREATE TRIGGER rollup_bookings_moved AFTER UPDATE ON bookings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_bookings_moved();--> statement-breakpoint
CREATE TRIGGER rollup_received_insert AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_money_days_received();--> statement-breakpoint
CREATE TRIGGER rollup_received_update AFTER UPDATE ON transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_money_days_received();--> statement-breakpoint
CREATE TRIGGER rollup_received_delete AFTER DELETE ON transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_money_days_received();--> statement-breakpoint
CREATE TRIGGER rollup_invoices_insert AFTER INSERT ON invoices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_invoices();--> statement-breakpoint
CREATE TRIGGER rollup_invoices_update AFTER UPDATE ON invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_invoices();--> statement-breakpoint
CREATE TRIGGER rollup_invoices_delete AFTER DELETE ON invoices REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_invoices();--> statement-breakpoint
CREATE TRIGGER rollup_invoice_items_insert AFTER INSERT ON invoice_items REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_invoice_rows();--> statement-breakpoint
CREATE TRIGGER rollup_invoice_items_update AFTER UPDATE ON invoice_items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_invoice_rows();--> statement-breakpoint
CREATE TRIGGER rollup_invoice_items_delete AFTER DELETE ON invoice_items REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_invoice_rows();--> statement-breakpoint
CREATE TRIGGER rollup_invoice_addons_insert AFTER INSERT ON invoice_addons REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_invoice_rows();--> statement-breakpoint
CREATE TRIGGER rollup_invoice_addons_update AFTER UPDATE ON invoice_addons REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_invoice_rows();--> statement-breakpoint
CREATE TRIGGER rollup_invoice_addons_delete AFTER DELETE ON invoice_addons REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_invoice_rows();--> statement-breakpoint
CREATE TRIGGER rollup_stale_bookings_insert AFTER INSERT ON bookings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_bookings_update AFTER UPDATE ON bookings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_bookings_delete AFTER DELETE ON bookings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_money_owed_insert AFTER INSERT ON money_owed REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_money_owed_update AFTER UPDATE ON money_owed REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_money_owed_delete AFTER DELETE ON money_owed REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_custom_fields_insert AFTER INSERT ON trip_custom_fields REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_custom_fields_update AFTER UPDATE ON trip_custom_fields REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_custom_fields_delete AFTER DELETE ON trip_custom_fields REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_documents_insert AFTER INSERT ON trip_documents REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_documents_update AFTER UPDATE ON trip_documents REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_documents_delete AFTER DELETE ON trip_documents REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_fundraising_insert AFTER INSERT ON trip_fundraising REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_fundraising_update AFTER UPDATE ON trip_fundraising REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_fundraising_delete AFTER DELETE ON trip_fundraising REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_trip();--> statement-breakpoint
CREATE TRIGGER rollup_stale_invoices_insert AFTER INSERT ON invoices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_booking();--> statement-breakpoint
CREATE TRIGGER rollup_stale_invoices_update AFTER UPDATE ON invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_booking();--> statement-breakpoint
CREATE TRIGGER rollup_stale_invoices_delete AFTER DELETE ON invoices REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_booking();--> statement-breakpoint
CREATE TRIGGER rollup_stale_entries_insert AFTER INSERT ON fundraising_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_booking();--> statement-breakpoint
CREATE TRIGGER rollup_stale_entries_update AFTER UPDATE ON fundraising_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_booking();--> statement-breakpoint
CREATE TRIGGER rollup_stale_entries_delete AFTER DELETE ON fundraising_entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_booking();--> statement-breakpoint
CREATE TRIGGER rollup_stale_answers_insert AFTER INSERT ON booking_custom_field_answers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_booking();--> statement-breakpoint
CREATE TRIGGER rollup_stale_answers_update AFTER UPDATE ON booking_custom_field_answers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_booking();--> statement-breakpoint
CREATE TRIGGER rollup_stale_answers_delete AFTER DELETE ON booking_custom_field_answers REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_by_booking();--> statement-breakpoint
CREATE TRIGGER rollup_stale_trips_update AFTER UPDATE ON trips REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_trips();--> statement-breakpoint
CREATE TRIGGER rollup_stale_countries_update AFTER UPDATE ON countries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_stale_countries();--> statement-breakpoint
-- what is there already
INSERT INTO booking_weeks (trip_id, week, status, funding_type, n)
SELECT trip_id, date_trunc('week', created_at AT TIME ZONE 'Europe/London')::date, status, funding_type, count(*)::int FROM bookings GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO money_days (trip_id, day, received_pence)
SELECT b.trip_id, x.date, sum(CASE WHEN x.type = 'payment' THEN x.amount_pence ELSE -x.amount_pence END)
FROM transactions x JOIN bookings b ON b.id = x.booking_id WHERE x.deleted_at IS NULL GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO invoice_days (invoice_id, trip_id, day, pence) SELECT * FROM invoice_days_of(ARRAY(SELECT id FROM invoices));--> statement-breakpoint
INSERT INTO money_days AS d (trip_id, day, invoiced_pence)
SELECT trip_id, day, sum(pence) FROM invoice_days GROUP BY 1, 2
ON CONFLICT (trip_id, day) DO UPDATE SET invoiced_pence = excluded.invoiced_pence;
