CREATE INDEX "money_owed_days_read_idx" ON "money_owed_days" USING btree ("trip_id","due_date","pence","n");--> statement-breakpoint
CREATE INDEX "booking_trip_counts_read_idx" ON "booking_trip_counts" USING btree ("trip_id","status","funding_type","n");--> statement-breakpoint
CREATE INDEX "booking_trip_weeks_read_idx" ON "booking_trip_weeks" USING btree ("trip_id","week","n");--> statement-breakpoint
CREATE INDEX "money_weeks_read_idx" ON "money_weeks" USING btree ("trip_id","week","received_pence","invoiced_pence");