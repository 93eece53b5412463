ALTER TABLE "invoices" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_group_id_school_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."school_groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_group_idx" ON "invoices" USING btree ("group_id") WHERE "invoices"."group_id" is not null;--> statement-breakpoint
-- a school group's share of a pupil's trip is the school's to pay, on its group invoice (issue 37):
-- not money the parents owe, so not in the money due list, their reminders or the dashboard's sums
CREATE OR REPLACE FUNCTION money_owed_of(ids bigint[])
 RETURNS TABLE(kind text, id integer, booking_id bigint, trip_id integer, due_date date, outstanding_pence bigint, departure date, last_name_key text, first_name_key text, trip_name_key text, last_reminder_at timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT 'invoice', i.id, i.booking_id, b.trip_id, i.due_date, o.pence, b.trip_departure, lower(b.last_name), lower(b.first_name), lower(t.name), lr.at
  FROM bookings b
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
  WHERE b.id = ANY (ids) AND (b.status <> 'cancelled' OR i.type = 'cancellation') AND i.group_id IS NULL AND o.pence > 0
  UNION ALL
  SELECT 'instalment', r.id, r.booking_id, b.trip_id, r.due_date, r.amount_pence::bigint, b.trip_departure, lower(b.last_name), lower(b.first_name), lower(t.name), lr.at
  FROM bookings b
  JOIN trips t ON t.id = b.trip_id
  CROSS JOIN LATERAL (SELECT max(pr.created_at) AS at FROM payment_reminders pr WHERE pr.booking_id = b.id AND pr.outcome = 'sent') lr
  JOIN schedule_rows r ON r.booking_id = b.id
  WHERE b.id = ANY (ids) AND b.status <> 'cancelled' AND r.invoice_id IS NULL AND NOT r.waived AND r.amount_pence > 0
$function$;

