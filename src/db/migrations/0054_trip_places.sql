-- A trip's places (issue 34): taken (confirmed, and provisional not on hold), held (bookings on
-- hold for their deposits) and offered (the places a waiting list's live offers hold), but those of
-- the offer `except_offer`, whose holder books. VOLATILE PL/pgSQL, so that its query takes a fresh
-- snapshot when it runs: called in the same statement that locks the trip's row, after the lock, it
-- counts every booking committed while that statement waited (launch day: one round trip, not two,
-- while the trip's lock is held).
CREATE FUNCTION trip_places(trip integer, at timestamptz, except_offer integer)
  RETURNS TABLE (taken integer, held integer, offered integer)
  LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT
    (SELECT count(*) FROM bookings b
      WHERE b.trip_id = trip_places.trip AND b.status <> 'cancelled' AND b.hold_expires_at IS NULL)::int,
    (SELECT count(*) FROM bookings b
      WHERE b.trip_id = trip_places.trip AND b.status <> 'cancelled' AND b.hold_expires_at IS NOT NULL)::int,
    (SELECT coalesce(sum(w.places - w.places_booked), 0) FROM waiting_list_entries w
      WHERE w.trip_id = trip_places.trip AND w.state = 'offered' AND w.offer_expires_at > trip_places.at
        AND w.id IS DISTINCT FROM trip_places.except_offer)::int;
END;
$$;
