-- The retention job is the only way rows leave the history: a DELETE is let through only inside
-- a transaction that has said so (SET LOCAL tripdesk.audit_retention = 'purge'), and only for
-- events more than a year old. UPDATE and TRUNCATE stay refused, always.
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('tripdesk.audit_retention', true) = 'purge' AND OLD.at < now() - interval '365 days' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
