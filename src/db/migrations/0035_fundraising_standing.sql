CREATE TABLE "fundraising_defaults" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"fundraise_minimum_pence" integer NOT NULL,
	"flexi_minimum_pence" integer NOT NULL,
	"milestones" jsonb NOT NULL,
	CONSTRAINT "fundraising_defaults_one_row" CHECK ("fundraising_defaults"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "fundraising_goal_pence" bigint;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "fundraising_met" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "fundraising_behind_from" date;--> statement-breakpoint
-- Each booking's fundraising standing (issue 33), kept by the database in the same transaction as
-- anything it depends on, by the rule of src/server/modules/fundraising/rules.ts: the target in
-- force (the booking's own, else the trip's minimum for its funding type, else the default),
-- whether it is met, and the first day it is behind — the day after the earliest milestone whose
-- share of the target is more than is raised. A booking is behind on a day when that day is on
-- or after fundraising_behind_from, so the passing of days needs no job. The defaults are the
-- configuration's, written here by the server when it starts (keepFundraisingDefaults).
INSERT INTO fundraising_defaults (id, fundraise_minimum_pence, flexi_minimum_pence, milestones)
VALUES (1, 250000, 125000, '[{"percent":50,"weeks_before":16},{"percent":80,"weeks_before":12},{"percent":100,"weeks_before":4}]');
--> statement-breakpoint
CREATE FUNCTION booking_fundraising_standing() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  own_minimum bigint;
  own_milestones jsonb;
  has_own boolean;
  goal bigint;
  rule jsonb;
BEGIN
  IF NEW.funding_type NOT IN ('fundraise', 'flexi') THEN
    NEW.fundraising_goal_pence := NULL;
    NEW.fundraising_met := false;
    NEW.fundraising_behind_from := NULL;
    RETURN NEW;
  END IF;
  SELECT minimum_pence, milestones INTO own_minimum, own_milestones
    FROM trip_fundraising WHERE trip_id = NEW.trip_id AND funding_type = NEW.funding_type;
  has_own := FOUND;
  IF has_own THEN
    goal := coalesce(NEW.fundraising_target_pence, own_minimum);
    rule := own_milestones;
  ELSE
    SELECT coalesce(NEW.fundraising_target_pence,
        CASE NEW.funding_type WHEN 'fundraise' THEN fundraise_minimum_pence ELSE flexi_minimum_pence END),
      milestones
      INTO goal, rule FROM fundraising_defaults WHERE id = 1;
    IF NOT FOUND THEN
      goal := NEW.fundraising_target_pence;
      rule := '[]'::jsonb;
    END IF;
  END IF;
  NEW.fundraising_goal_pence := goal;
  NEW.fundraising_met := goal IS NOT NULL AND NEW.fundraising_raised_pence >= goal;
  NEW.fundraising_behind_from := CASE WHEN goal IS NULL OR NEW.fundraising_met THEN NULL ELSE (
    SELECT min(NEW.trip_departure - 7 * (m ->> 'weeks_before')::int + 1)
    FROM jsonb_array_elements(coalesce(rule, '[]'::jsonb)) m
    WHERE NEW.fundraising_raised_pence < ceil(goal::numeric * (m ->> 'percent')::int / 100)
  ) END;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- after bookings_trip_departure (triggers of a kind fire in the order of their names), so the
-- departure is the new trip's
CREATE TRIGGER bookings_trip_fundraising_standing
  BEFORE INSERT OR UPDATE OF funding_type, trip_id, trip_departure, fundraising_target_pence, fundraising_raised_pence ON bookings
  FOR EACH ROW EXECUTE FUNCTION booking_fundraising_standing();
--> statement-breakpoint
CREATE FUNCTION trip_fundraising_push() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE bookings b SET fundraising_target_pence = b.fundraising_target_pence
  WHERE b.trip_id IN (SELECT trip_id FROM changed_rows) AND b.funding_type IN ('fundraise', 'flexi');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER trip_fundraising_push_insert AFTER INSERT ON trip_fundraising REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION trip_fundraising_push();
--> statement-breakpoint
CREATE TRIGGER trip_fundraising_push_update AFTER UPDATE ON trip_fundraising REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION trip_fundraising_push();
--> statement-breakpoint
CREATE TRIGGER trip_fundraising_push_delete AFTER DELETE ON trip_fundraising REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION trip_fundraising_push();
--> statement-breakpoint
CREATE FUNCTION fundraising_defaults_push() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE bookings b SET fundraising_target_pence = b.fundraising_target_pence
  WHERE b.funding_type IN ('fundraise', 'flexi')
    AND NOT EXISTS (SELECT 1 FROM trip_fundraising tf WHERE tf.trip_id = b.trip_id AND tf.funding_type = b.funding_type);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- by row: a statement trigger would fire on every server start, the defaults changed or not
CREATE TRIGGER fundraising_defaults_push AFTER INSERT OR UPDATE ON fundraising_defaults FOR EACH ROW EXECUTE FUNCTION fundraising_defaults_push();
--> statement-breakpoint
UPDATE bookings SET fundraising_target_pence = fundraising_target_pence WHERE funding_type IN ('fundraise', 'flexi');
