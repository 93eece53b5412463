CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_type" text NOT NULL,
	"actor_user_id" integer,
	"actor_name" text NOT NULL,
	"actor_token_id" text,
	"actor_client_id" text,
	"source" text NOT NULL,
	"ip_address" text,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text,
	"booking_id" bigint,
	"trip_id" integer,
	"changes" jsonb,
	"summary" text NOT NULL,
	"details" jsonb,
	CONSTRAINT "audit_events_actor_type" CHECK ("audit_events"."actor_type" in ('user', 'personal_token', 'oauth_client', 'system', 'anonymous')),
	CONSTRAINT "audit_events_source" CHECK ("audit_events"."source" in ('web', 'api', 'system'))
);
--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_events_booking_idx" ON "audit_events" USING btree ("booking_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_trip_idx" ON "audit_events" USING btree ("trip_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_user_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_subject_idx" ON "audit_events" USING btree ("subject_type","subject_id","at");--> statement-breakpoint
-- the history is append-only, whatever the code does: UPDATE, DELETE and TRUNCATE are refused
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER audit_events_no_update_or_delete BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
