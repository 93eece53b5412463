CREATE TABLE "refunds_due" (
	"invoice_id" integer PRIMARY KEY NOT NULL,
	"booking_id" bigint NOT NULL,
	"overpaid_pence" bigint NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_due_overpaid_check" CHECK ("refunds_due"."overpaid_pence" > 0)
);
--> statement-breakpoint
ALTER TABLE "refunds_due" ADD CONSTRAINT "refunds_due_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds_due" ADD CONSTRAINT "refunds_due_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_due_since_idx" ON "refunds_due" USING btree ("since");--> statement-breakpoint
-- The invoices among these that have received more than their total, with by how much (the same
-- sum as money_owed_of, the other way round), rebuilt in the transaction of the change.
CREATE FUNCTION refunds_due_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  WITH over AS (
    SELECT i.id AS invoice_id, i.booking_id, -o.pence AS overpaid_pence
    FROM invoices i
    CROSS JOIN LATERAL (
      SELECT coalesce((SELECT sum(ii.amount_pence) FROM invoice_items ii WHERE ii.invoice_id = i.id), 0)
           + coalesce((SELECT sum(ia.price_pence) FROM invoice_addons ia WHERE ia.invoice_id = i.id), 0) AS subtotal
    ) s
    CROSS JOIN LATERAL (
      SELECT (s.subtotal - greatest(0, least(i.discount_pence, s.subtotal))
        - coalesce((SELECT sum(CASE WHEN t.type = 'payment' THEN t.amount_pence ELSE -t.amount_pence END)
                    FROM transactions t WHERE t.invoice_id = i.id AND t.deleted_at IS NULL), 0))::bigint AS pence
    ) o
    WHERE i.id = ANY (ids) AND o.pence < 0
  ), settled AS (
    DELETE FROM refunds_due r WHERE r.invoice_id = ANY (ids) AND r.invoice_id NOT IN (SELECT over.invoice_id FROM over)
  )
  INSERT INTO refunds_due (invoice_id, booking_id, overpaid_pence)
  SELECT over.invoice_id, over.booking_id, over.overpaid_pence FROM over ORDER BY over.invoice_id
  ON CONFLICT (invoice_id) DO UPDATE SET overpaid_pence = EXCLUDED.overpaid_pence;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION refunds_due_after_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM refunds_due_refresh(ARRAY(SELECT DISTINCT n.invoice_id FROM new_rows n));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM refunds_due_refresh(ARRAY(SELECT n.invoice_id FROM new_rows n UNION SELECT o.invoice_id FROM old_rows o));
  ELSE
    PERFORM refunds_due_refresh(ARRAY(SELECT DISTINCT o.invoice_id FROM old_rows o));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER refunds_due_transactions_insert AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refunds_due_after_rows();--> statement-breakpoint
CREATE TRIGGER refunds_due_transactions_update AFTER UPDATE ON transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refunds_due_after_rows();--> statement-breakpoint
CREATE TRIGGER refunds_due_invoice_items_insert AFTER INSERT ON invoice_items REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refunds_due_after_rows();--> statement-breakpoint
CREATE TRIGGER refunds_due_invoice_items_update AFTER UPDATE ON invoice_items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refunds_due_after_rows();--> statement-breakpoint
CREATE TRIGGER refunds_due_invoice_items_delete AFTER DELETE ON invoice_items REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refunds_due_after_rows();--> statement-breakpoint
CREATE TRIGGER refunds_due_invoice_addons_insert AFTER INSERT ON invoice_addons REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refunds_due_after_rows();--> statement-breakpoint
CREATE TRIGGER refunds_due_invoice_addons_delete AFTER DELETE ON invoice_addons REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refunds_due_after_rows();
