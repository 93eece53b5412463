CREATE INDEX "trips_name_idx" ON "trips" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "bookings_age_idx" ON "bookings" USING btree ((date_part('year', age("trip_departure"::timestamp, "date_of_birth"::timestamp))::int),"trip_departure","medical_conditions","date_of_birth");--> statement-breakpoint
-- As in 0014, and a day whose money is all paid loses its row, rather than keeping it at 0: over
-- years nearly every (trip, due day) an office has ever had is paid, and the money-due totals and
-- the dashboard read every row the filters allow. The rows emptied are known from the upsert's
-- own reply and deleted by a second statement (a statement cannot see its own changes); this
-- transaction still holds their locks, and one waiting to upsert the same day inserts it afresh
-- once the row is gone.
CREATE OR REPLACE FUNCTION money_owed_refresh(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  emptied_trips integer[];
  emptied_days date[];
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM bookings WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  WITH gone AS (
    DELETE FROM money_owed m WHERE m.booking_id = ANY (ids)
    RETURNING m.trip_id, m.due_date, -1 AS n, -m.outstanding_pence AS pence
  ), fresh AS (
    SELECT f.trip_id, f.due_date, 1 AS n, f.outstanding_pence AS pence FROM money_owed_of(ids) f
  ), delta AS (
    SELECT x.trip_id, x.due_date, sum(x.n)::integer AS n, sum(x.pence)::bigint AS pence
    FROM (SELECT * FROM gone UNION ALL SELECT * FROM fresh) x
    GROUP BY x.trip_id, x.due_date
    HAVING sum(x.n) <> 0 OR sum(x.pence) <> 0
  ), moved AS (
    INSERT INTO money_owed_days AS d (trip_id, due_date, n, pence)
    SELECT delta.trip_id, delta.due_date, delta.n, delta.pence FROM delta ORDER BY delta.trip_id, delta.due_date
    ON CONFLICT (trip_id, due_date) DO UPDATE SET n = d.n + excluded.n, pence = d.pence + excluded.pence
    RETURNING d.trip_id, d.due_date, d.n
  )
  SELECT array_agg(moved.trip_id), array_agg(moved.due_date) INTO emptied_trips, emptied_days FROM moved WHERE moved.n = 0;
  IF emptied_trips IS NOT NULL THEN
    DELETE FROM money_owed_days d
    USING unnest(emptied_trips, emptied_days) AS e(trip_id, due_date)
    WHERE d.trip_id = e.trip_id AND d.due_date = e.due_date AND d.n = 0;
  END IF;
  INSERT INTO money_owed (kind, id, booking_id, trip_id, due_date, outstanding_pence, departure, last_name_key, first_name_key, trip_name_key, last_reminder_at)
  SELECT * FROM money_owed_of(ids);
END;
$$;
--> statement-breakpoint
-- the days at 0 there are now: most of the table, so it is rewritten with the others (a DELETE
-- would leave their pages behind for every scan until a VACUUM FULL, which cannot run here)
CREATE TEMP TABLE money_owed_days_kept ON COMMIT DROP AS SELECT * FROM money_owed_days WHERE n <> 0;--> statement-breakpoint
TRUNCATE money_owed_days;--> statement-breakpoint
INSERT INTO money_owed_days SELECT * FROM money_owed_days_kept;
