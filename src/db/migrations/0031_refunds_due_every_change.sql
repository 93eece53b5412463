-- What refunds_due reads also changes when an invoice's discount or an add-on's price on it
-- changes, or a transaction is deleted outright (with its booking): kept in step with those too.
CREATE FUNCTION refunds_due_after_invoices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refunds_due_refresh(ARRAY(
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.discount_pence IS DISTINCT FROM o.discount_pence
  ));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER refunds_due_invoices_update AFTER UPDATE ON invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refunds_due_after_invoices();--> statement-breakpoint
CREATE TRIGGER refunds_due_invoice_addons_update AFTER UPDATE ON invoice_addons REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refunds_due_after_rows();--> statement-breakpoint
CREATE TRIGGER refunds_due_transactions_delete AFTER DELETE ON transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refunds_due_after_rows();
