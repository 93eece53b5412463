-- An Administrator's team is never taken away by setting it to null: that once put them in Full
-- access (failing open). A new Administrator with no team still joins Full access, as the bootstrap
-- and the seeds expect; one who stays an Administrator keeps a team, or the change is refused.
CREATE OR REPLACE FUNCTION "users_team_of_role"() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF NEW.user_role_id = 1 THEN
    IF NEW.team_id IS NULL THEN
      IF TG_OP = 'UPDATE' AND OLD.user_role_id = 1 THEN
        RAISE EXCEPTION 'An Administrator belongs to a team: choose another team rather than none.'
          USING ERRCODE = 'check_violation', CONSTRAINT = 'users_admin_team';
      END IF;
      NEW.team_id := (SELECT id FROM teams WHERE full_access);
    END IF;
  ELSE
    NEW.team_id := NULL;
  END IF;
  RETURN NEW;
END $$;
