import { asc, eq, sql } from 'drizzle-orm';
import type { CustomField } from '../../../contract/trips.ts';
import type { Db } from '../../../db/client.ts';
import { tripCustomFields, trips } from '../../../db/schema/index.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';

const toField = (r: typeof tripCustomFields.$inferSelect): CustomField => ({ id: r.id, trip_id: r.tripId, label: r.label, note: r.note });

export class CustomFieldService {
  constructor(private readonly db: Db) {}

  private async assertTrip(tripId: number, field = 'trip_id') {
    const [trip] = await this.db.select({ id: trips.id, deletedAt: trips.deletedAt }).from(trips).where(eq(trips.id, tripId));
    if (!trip || trip.deletedAt) throw validationError({ [field]: ['The selected trip is invalid.'] });
  }

  async list(tripId: number): Promise<CustomField[]> {
    await this.assertTrip(tripId);
    const rows = await this.db
      .select()
      .from(tripCustomFields)
      .where(eq(tripCustomFields.tripId, tripId))
      .orderBy(asc(tripCustomFields.sortOrder), asc(tripCustomFields.id));
    return rows.map(toField);
  }

  async create(v: { trip_id: number; label: string; note: string | null }): Promise<CustomField> {
    await this.assertTrip(v.trip_id);
    const [row] = await this.db
      .insert(tripCustomFields)
      .values({
        tripId: v.trip_id,
        label: v.label,
        note: v.note,
        // new fields go last
        sortOrder: sql`(select coalesce(max(sort_order), -1) + 1 from trip_custom_fields where trip_id = ${v.trip_id})`,
      })
      .returning();
    return toField(row!);
  }

  /** A deleted trip keeps its questions and every answer given to them, unchanged. */
  private async assertLiveTripOf(id: number) {
    const [row] = await this.db
      .select({ deletedAt: trips.deletedAt })
      .from(tripCustomFields)
      .innerJoin(trips, eq(trips.id, tripCustomFields.tripId))
      .where(eq(tripCustomFields.id, id));
    if (!row) throw notFound('Custom field not found.');
    if (row.deletedAt) throw new HttpError(422, 'This trip has been deleted, so it can no longer be changed.');
  }

  async update(id: number, v: { label: string; note: string | null }): Promise<CustomField> {
    await this.assertLiveTripOf(id);
    const [row] = await this.db.update(tripCustomFields).set({ label: v.label, note: v.note }).where(eq(tripCustomFields.id, id)).returning();
    if (!row) throw notFound('Custom field not found.');
    return toField(row);
  }

  /** The answers bookings gave to the field go with it (the confirmation says so). */
  async delete(id: number): Promise<void> {
    await this.assertLiveTripOf(id);
    const deleted = await this.db.delete(tripCustomFields).where(eq(tripCustomFields.id, id)).returning({ id: tripCustomFields.id });
    if (!deleted.length) throw notFound('Custom field not found.');
  }
}
