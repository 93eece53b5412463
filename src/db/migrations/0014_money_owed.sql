CREATE TABLE "money_owed" (
	"kind" text NOT NULL,
	"id" integer NOT NULL,
	"booking_id" bigint NOT NULL,
	"trip_id" integer NOT NULL,
	"due_date" date NOT NULL,
	"outstanding_pence" bigint NOT NULL,
	"departure" date NOT NULL,
	"last_name_key" text NOT NULL,
	"first_name_key" text NOT NULL,
	"trip_name_key" text NOT NULL,
	"last_reminder_at" timestamp with time zone,
	CONSTRAINT "money_owed_kind_id_pk" PRIMARY KEY("kind","id")
);
--> statement-breakpoint
CREATE TABLE "money_owed_days" (
	"trip_id" integer NOT NULL,
	"due_date" date NOT NULL,
	"n" integer NOT NULL,
	"pence" bigint NOT NULL,
	CONSTRAINT "money_owed_days_trip_id_due_date_pk" PRIMARY KEY("trip_id","due_date")
);
--> statement-breakpoint
CREATE INDEX "money_owed_booking_idx" ON "money_owed" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "money_owed_due_idx" ON "money_owed" USING btree ("due_date","kind","id");--> statement-breakpoint
CREATE INDEX "money_owed_trip_due_idx" ON "money_owed" USING btree ("trip_id","due_date","kind","id");--> statement-breakpoint
CREATE INDEX "money_owed_outstanding_idx" ON "money_owed" USING btree ("outstanding_pence","kind","id");--> statement-breakpoint
CREATE INDEX "money_owed_departure_idx" ON "money_owed" USING btree ("departure","kind","id");--> statement-breakpoint
CREATE INDEX "money_owed_traveller_idx" ON "money_owed" USING btree ("last_name_key","first_name_key","kind","id");--> statement-breakpoint
CREATE INDEX "money_owed_trip_name_idx" ON "money_owed" USING btree ("trip_name_key","kind","id");--> statement-breakpoint
CREATE INDEX "money_owed_reminded_idx" ON "money_owed" USING btree ("last_reminder_at","kind","id");--> statement-breakpoint
CREATE INDEX "money_owed_reminded_desc_idx" ON "money_owed" USING btree ("last_reminder_at" DESC NULLS LAST,"kind" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- What each booking owes (issue 17's money due, decision 012), computed by the rules of decision
-- 006 from the booking's invoices (items + add-ons − the discount, never below £0, − live payments
-- + live refunds) and its instalments not invoiced, not waived and not £0; nothing for a cancelled
-- booking. The one place in SQL that sums an invoice for the list; src/server/modules/invoices/money.ts
-- is the same rule in TypeScript, and a test checks the two agree.
CREATE FUNCTION money_owed_of(ids bigint[])
RETURNS TABLE (kind text, id integer, booking_id bigint, trip_id integer, due_date date, outstanding_pence bigint, departure date, last_name_key text, first_name_key text, trip_name_key text, last_reminder_at timestamptz)
LANGUAGE sql STABLE AS $$
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
  WHERE b.id = ANY (ids) AND b.status <> 'cancelled' AND o.pence > 0
  UNION ALL
  SELECT 'instalment', r.id, r.booking_id, b.trip_id, r.due_date, r.amount_pence::bigint, b.trip_departure, lower(b.last_name), lower(b.first_name), lower(t.name), lr.at
  FROM bookings b
  JOIN trips t ON t.id = b.trip_id
  CROSS JOIN LATERAL (SELECT max(pr.created_at) AS at FROM payment_reminders pr WHERE pr.booking_id = b.id AND pr.outcome = 'sent') lr
  JOIN schedule_rows r ON r.booking_id = b.id
  WHERE b.id = ANY (ids) AND b.status <> 'cancelled' AND r.invoice_id IS NULL AND NOT r.waived AND r.amount_pence > 0
$$;
--> statement-breakpoint
-- Rebuilds the entries of these bookings, and moves the per-day totals by the difference. The
-- bookings' rows are locked first (FOR NO KEY UPDATE: an invoice or payment referring to a booking
-- still goes ahead), so two transactions changing one booking's money rebuild it one after the
-- other, each from what the other committed. The day totals are changed in one statement, in key
-- order, so two transactions never wait for each other's days the other way round. A day whose
-- money is all paid keeps its row at 0 (it counts nothing).
CREATE FUNCTION money_owed_refresh(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
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
  )
  INSERT INTO money_owed_days AS d (trip_id, due_date, n, pence)
  SELECT delta.trip_id, delta.due_date, delta.n, delta.pence FROM delta ORDER BY delta.trip_id, delta.due_date
  ON CONFLICT (trip_id, due_date) DO UPDATE SET n = d.n + excluded.n, pence = d.pence + excluded.pence;
  INSERT INTO money_owed (kind, id, booking_id, trip_id, due_date, outstanding_pence, departure, last_name_key, first_name_key, trip_name_key, last_reminder_at)
  SELECT * FROM money_owed_of(ids);
END;
$$;
--> statement-breakpoint
-- after a statement on a table with booking_id (invoices, transactions, schedule_rows,
-- payment_reminders): rebuild
-- the bookings whose rows it inserted, changed or deleted
CREATE FUNCTION money_owed_after_booking_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM money_owed_refresh(ARRAY(SELECT DISTINCT n.booking_id FROM new_rows n));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM money_owed_refresh(ARRAY(SELECT n.booking_id FROM new_rows n UNION SELECT o.booking_id FROM old_rows o));
  ELSE
    PERFORM money_owed_refresh(ARRAY(SELECT DISTINCT o.booking_id FROM old_rows o));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- after a statement on an invoice's items or add-ons: rebuild the bookings of their invoices (an
-- invoice deleted with its items is rebuilt by the invoices' own trigger)
CREATE FUNCTION money_owed_after_invoice_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM money_owed_refresh(ARRAY(SELECT DISTINCT i.booking_id FROM invoices i WHERE i.id IN (SELECT n.invoice_id FROM new_rows n)));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM money_owed_refresh(ARRAY(SELECT DISTINCT i.booking_id FROM invoices i WHERE i.id IN (SELECT n.invoice_id FROM new_rows n UNION SELECT o.invoice_id FROM old_rows o)));
  ELSE
    PERFORM money_owed_refresh(ARRAY(SELECT DISTINCT i.booking_id FROM invoices i WHERE i.id IN (SELECT o.invoice_id FROM old_rows o)));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- after an update of bookings: rebuild those whose status, trip, departure or names changed
CREATE FUNCTION money_owed_after_bookings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM money_owed_refresh(ARRAY(
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.status, n.trip_id, n.trip_departure, n.first_name, n.last_name) IS DISTINCT FROM (o.status, o.trip_id, o.trip_departure, o.first_name, o.last_name)));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER money_owed_invoices_insert AFTER INSERT ON invoices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_invoices_update AFTER UPDATE ON invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_invoices_delete AFTER DELETE ON invoices REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_transactions_insert AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_transactions_update AFTER UPDATE ON transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_transactions_delete AFTER DELETE ON transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_schedule_rows_insert AFTER INSERT ON schedule_rows REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_schedule_rows_update AFTER UPDATE ON schedule_rows REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_schedule_rows_delete AFTER DELETE ON schedule_rows REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_invoice_items_insert AFTER INSERT ON invoice_items REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_invoice_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_invoice_items_update AFTER UPDATE ON invoice_items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_invoice_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_invoice_items_delete AFTER DELETE ON invoice_items REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_invoice_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_invoice_addons_insert AFTER INSERT ON invoice_addons REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_invoice_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_invoice_addons_update AFTER UPDATE ON invoice_addons REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_invoice_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_invoice_addons_delete AFTER DELETE ON invoice_addons REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_invoice_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_payment_reminders_insert AFTER INSERT ON payment_reminders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_payment_reminders_update AFTER UPDATE ON payment_reminders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
CREATE TRIGGER money_owed_payment_reminders_delete AFTER DELETE ON payment_reminders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_booking_rows();--> statement-breakpoint
-- a trip renamed: its entries' sort key (the name is all that is copied from the trip)
CREATE FUNCTION money_owed_after_trip_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE money_owed SET trip_name_key = lower(NEW.name) WHERE trip_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER money_owed_trip_name AFTER UPDATE OF name ON trips
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION money_owed_after_trip_name();--> statement-breakpoint
CREATE TRIGGER money_owed_bookings_update AFTER UPDATE ON bookings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION money_owed_after_bookings();--> statement-breakpoint
-- what is owed today
SELECT money_owed_refresh(ARRAY(SELECT id FROM bookings));
