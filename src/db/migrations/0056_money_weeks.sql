CREATE TABLE "money_weeks" (
	"trip_id" integer NOT NULL,
	"week" date NOT NULL,
	"received_pence" bigint DEFAULT 0 NOT NULL,
	"invoiced_pence" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "money_weeks_trip_id_week_pk" PRIMARY KEY("trip_id","week")
);
--> statement-breakpoint
-- money_weeks follows money_days: each statement's change to a trip's days added to their weeks
CREATE FUNCTION rollup_money_weeks() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO money_weeks AS w (trip_id, week, received_pence, invoiced_pence)
    SELECT n.trip_id, date_trunc('week', n.day)::date, sum(n.received_pence), sum(n.invoiced_pence)
    FROM new_rows n GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (trip_id, week) DO UPDATE
      SET received_pence = w.received_pence + excluded.received_pence, invoiced_pence = w.invoiced_pence + excluded.invoiced_pence;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO money_weeks AS w (trip_id, week, received_pence, invoiced_pence)
    SELECT x.trip_id, x.week, sum(x.received), sum(x.invoiced)
    FROM (
      SELECT n.trip_id, date_trunc('week', n.day)::date AS week, n.received_pence AS received, n.invoiced_pence AS invoiced FROM new_rows n
      UNION ALL
      SELECT o.trip_id, date_trunc('week', o.day)::date, -o.received_pence, -o.invoiced_pence FROM old_rows o
    ) x
    GROUP BY 1, 2 HAVING sum(x.received) <> 0 OR sum(x.invoiced) <> 0 ORDER BY 1, 2
    ON CONFLICT (trip_id, week) DO UPDATE
      SET received_pence = w.received_pence + excluded.received_pence, invoiced_pence = w.invoiced_pence + excluded.invoiced_pence;
  ELSE
    INSERT INTO money_weeks AS w (trip_id, week, received_pence, invoiced_pence)
    SELECT o.trip_id, date_trunc('week', o.day)::date, -sum(o.received_pence), -sum(o.invoiced_pence)
    FROM old_rows o GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (trip_id, week) DO UPDATE
      SET received_pence = w.received_pence + excluded.received_pence, invoiced_pence = w.invoiced_pence + excluded.invoiced_pence;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_money_weeks_insert AFTER INSERT ON money_days REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_money_weeks();--> statement-breakpoint
CREATE TRIGGER rollup_money_weeks_update AFTER UPDATE ON money_days REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_money_weeks();--> statement-breakpoint
CREATE TRIGGER rollup_money_weeks_delete AFTER DELETE ON money_days REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_money_weeks();--> statement-breakpoint
INSERT INTO money_weeks (trip_id, week, received_pence, invoiced_pence)
SELECT trip_id, date_trunc('week', day)::date, sum(received_pence), sum(invoiced_pence) FROM money_days GROUP BY 1, 2;
