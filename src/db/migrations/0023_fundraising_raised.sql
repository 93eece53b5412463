ALTER TABLE "bookings" ADD COLUMN "fundraising_raised_pence" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Each booking's raised total (issue 19), kept in the same transaction as any change to its
-- fundraising entries, so that the booking list's Fundraising filter reads a column rather than
-- summing the entries of every booking it looks at
CREATE FUNCTION fundraising_raised_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE bookings b SET fundraising_raised_pence = coalesce((SELECT sum(e.amount_pence) FROM fundraising_entries e WHERE e.booking_id = b.id AND e.struck_at IS NULL), 0)
  WHERE b.id IN (SELECT booking_id FROM changed_rows);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER fundraising_raised_insert AFTER INSERT ON fundraising_entries REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION fundraising_raised_refresh();
--> statement-breakpoint
CREATE TRIGGER fundraising_raised_update AFTER UPDATE ON fundraising_entries REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION fundraising_raised_refresh();
--> statement-breakpoint
CREATE TRIGGER fundraising_raised_delete AFTER DELETE ON fundraising_entries REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION fundraising_raised_refresh();
--> statement-breakpoint
UPDATE bookings b SET fundraising_raised_pence = s.pence FROM (SELECT booking_id, sum(amount_pence) AS pence FROM fundraising_entries WHERE struck_at IS NULL GROUP BY booking_id) s WHERE s.booking_id = b.id;
