DROP INDEX "audit_events_trip_idx";--> statement-breakpoint
DROP INDEX "audit_events_action_idx";--> statement-breakpoint
CREATE INDEX "audit_events_trip_own_idx" ON "audit_events" USING btree ("trip_id","at","id") WHERE "audit_events"."booking_id" is null and "audit_events"."trip_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action" text_pattern_ops,"at","id");