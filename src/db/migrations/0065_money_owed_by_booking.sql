-- The bookings asked for drive each half (unnest first, then each booking by its key): with the
-- generic plan of money_owed_refresh made while the tables were small (a new office, a test), the
-- planner had read every open instalment against every booking, which made an import of 500 pupils
-- in one transaction take 50 s on PostgreSQL.
CREATE OR REPLACE FUNCTION money_owed_of(ids bigint[])
 RETURNS TABLE(kind text, id integer, booking_id bigint, trip_id integer, due_date date, outstanding_pence bigint, departure date, last_name_key text, first_name_key text, trip_name_key text, last_reminder_at timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT 'invoice', i.id, i.booking_id, b.trip_id, i.due_date, o.pence, b.trip_departure, lower(b.last_name), lower(b.first_name), lower(t.name), lr.at
  FROM unnest(ids) AS x(id)
  JOIN bookings b ON b.id = x.id
  JOIN trips t ON t.id = b.trip_id
  CROSS JOIN LATERAL (SELECT max(pr.created_at) AS at FROM payment_reminders pr WHERE pr.booking_id = b.id AND pr.outcome = 'sent') lr
  JOIN invoices i ON i.booking_id = b.id
  CROSS JOIN LATERAL (
    SELECT coalesce((SELECT sum(ii.amount_pence) FROM invoice_items ii WHERE ii.invoice_id = i.id), 0)
         + coalesce((SELECT sum(ia.price_pence) FROM invoice_addons ia WHERE ia.invoice_id = i.id), 0) AS subtotal
  ) s
  CROSS JOIN LATERAL (
    SELECT (s.subtotal - greatest(0, least(i.discount_pence, s.subtotal))
      - coalesce((SELECT sum(CASE WHEN t.type = 'payment' THEN t.amount_pence ELSE -t.amount_pence END)
                  FROM transactions t WHERE t.invoice_id = i.id AND t.deleted_at IS NULL), 0))::bigint AS pence
  ) o
  WHERE (b.status <> 'cancelled' OR i.type = 'cancellation') AND i.group_id IS NULL AND o.pence > 0
  UNION ALL
  SELECT 'instalment', r.id, r.booking_id, b.trip_id, r.due_date, r.amount_pence::bigint, b.trip_departure, lower(b.last_name), lower(b.first_name), lower(t.name), lr.at
  FROM unnest(ids) AS x(id)
  JOIN bookings b ON b.id = x.id
  JOIN trips t ON t.id = b.trip_id
  CROSS JOIN LATERAL (SELECT max(pr.created_at) AS at FROM payment_reminders pr WHERE pr.booking_id = b.id AND pr.outcome = 'sent') lr
  JOIN schedule_rows r ON r.booking_id = b.id
  WHERE b.status <> 'cancelled' AND r.invoice_id IS NULL AND NOT r.waived AND r.amount_pence > 0
$function$;

