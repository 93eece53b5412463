-- the history stays append-only, with two exceptions asked for by the transaction itself: the
-- purge of events past their retention (0010), and the erasure of a booking's special-category
-- details, which replaces the erased values in the copies its events keep (an email's text, a
-- reason, a summary, the changes) and changes nothing else of the event
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('tripdesk.audit_retention', true) = 'purge' AND OLD.at < now() - interval '365 days' THEN
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND current_setting('tripdesk.audit_redaction', true) = 'erase'
    AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.actor_type = OLD.actor_type AND NEW.actor_user_id IS NOT DISTINCT FROM OLD.actor_user_id
    AND NEW.actor_name = OLD.actor_name AND NEW.actor_token_id IS NOT DISTINCT FROM OLD.actor_token_id AND NEW.actor_client_id IS NOT DISTINCT FROM OLD.actor_client_id
    AND NEW.source = OLD.source AND NEW.ip_address IS NOT DISTINCT FROM OLD.ip_address AND NEW.action = OLD.action AND NEW.subject_type = OLD.subject_type
    AND NEW.subject_id IS NOT DISTINCT FROM OLD.subject_id AND NEW.booking_id IS NOT DISTINCT FROM OLD.booking_id AND NEW.trip_id IS NOT DISTINCT FROM OLD.trip_id THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
