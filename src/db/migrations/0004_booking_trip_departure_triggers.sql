-- Each booking carries its trip's departure date, kept right by the database itself:
-- set when a booking is made or moved to another trip, updated when a trip's date changes.
CREATE FUNCTION booking_set_trip_departure() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.trip_departure := (SELECT departure_date FROM trips WHERE id = NEW.trip_id);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER bookings_trip_departure
  BEFORE INSERT OR UPDATE OF trip_id ON bookings
  FOR EACH ROW EXECUTE FUNCTION booking_set_trip_departure();
--> statement-breakpoint
CREATE FUNCTION trip_push_departure() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE bookings SET trip_departure = NEW.departure_date WHERE trip_id = NEW.id;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER trips_push_departure
  AFTER UPDATE OF departure_date ON trips
  FOR EACH ROW WHEN (OLD.departure_date IS DISTINCT FROM NEW.departure_date)
  EXECUTE FUNCTION trip_push_departure();
--> statement-breakpoint
UPDATE bookings b SET trip_departure = t.departure_date FROM trips t WHERE t.id = b.trip_id;
--> statement-breakpoint
ALTER TABLE bookings ALTER COLUMN trip_departure SET NOT NULL;
