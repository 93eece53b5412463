-- Every app server keeps the sessions it has just read in memory (decision 036), and forgets one
-- when the database says who may be signed in has changed: a session written or ended, a user
-- changed or deleted (role, charity, team, "sign out everywhere"), a team's permissions changed.
-- The notification is sent when the change commits; the connection that made it hears it before
-- its COMMIT returns, so the server that made a change never answers from what it replaced.
CREATE FUNCTION auth_changed() RETURNS trigger
 LANGUAGE plpgsql
 SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('tripdesk_auth', '*');
  ELSIF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('tripdesk_auth', 's:' || OLD.id);
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('tripdesk_auth', 'u:' || OLD.id);
  ELSE
    PERFORM pg_notify('tripdesk_auth', '*');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_auth_changed AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION auth_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_auth_truncated AFTER TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
--> statement-breakpoint
CREATE TRIGGER users_auth_changed AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION auth_changed();
--> statement-breakpoint
CREATE TRIGGER users_auth_truncated AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
--> statement-breakpoint
CREATE TRIGGER teams_auth_changed AFTER UPDATE OR DELETE ON teams FOR EACH ROW EXECUTE FUNCTION auth_changed();
--> statement-breakpoint
CREATE TRIGGER teams_auth_truncated AFTER TRUNCATE ON teams FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
