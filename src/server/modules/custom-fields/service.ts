import { asc, count, eq, sql } from 'drizzle-orm';
import type { CustomField } from '../../../contract/trips.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { bookingCustomFieldAnswers, tripCustomFields, trips } from '../../../db/schema/index.ts';
import { audit, describeChanges, diff } from '../../audit/audit.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';

/** Nothing changed: "saved the trip … without changes" (describeChanges words this case "saved of …"). */

const toField = (r: typeof tripCustomFields.$inferSelect): CustomField => ({
  id: r.id,
  trip_id: r.tripId,
  label: r.label,
  note: r.note,
});

export class CustomFieldService {
  constructor(private readonly db: Db) {}

  private async assertTrip(db: Db | Tx, tripId: number, field = 'trip_id') {
    const [trip] = await db
      .select({ id: trips.id, name: trips.name, deletedAt: trips.deletedAt })
      .from(trips)
      .where(eq(trips.id, tripId));
    if (!trip || trip.deletedAt) throw validationError({ [field]: ['The selected trip is invalid.'] });
    return trip;
  }

  async list(tripId: number): Promise<CustomField[]> {
    await this.assertTrip(this.db, tripId);
    const rows = await this.db
      .select()
      .from(tripCustomFields)
      .where(eq(tripCustomFields.tripId, tripId))
      .orderBy(asc(tripCustomFields.sortOrder), asc(tripCustomFields.id));
    return rows.map(toField);
  }

  async create(v: { trip_id: number; label: string; note: string | null }): Promise<CustomField> {
    return this.db.transaction(async (tx) => {
      const trip = await this.assertTrip(tx, v.trip_id);
      const [row] = await tx
        .insert(tripCustomFields)
        .values({
          tripId: v.trip_id,
          label: v.label,
          note: v.note,
          // new fields go last
          sortOrder: sql`(select coalesce(max(sort_order), -1) + 1 from trip_custom_fields where trip_id = ${v.trip_id})`,
        })
        .returning();
      await audit(tx, {
        action: 'custom_field.created',
        subject: { type: 'custom_field', id: row!.id },
        tripId: row!.tripId,
        summary: `added the custom field ${row!.label} to the trip ${trip.name}`,
        details: { label: row!.label, note: row!.note },
      });
      return toField(row!);
    });
  }

  /** The field, locked, with its trip. A deleted trip keeps its questions and every answer given to them, unchanged. */
  private async liveField(tx: Tx, id: number) {
    const [row] = await tx
      .select({ field: tripCustomFields, tripName: trips.name, deletedAt: trips.deletedAt })
      .from(tripCustomFields)
      .innerJoin(trips, eq(trips.id, tripCustomFields.tripId))
      .where(eq(tripCustomFields.id, id))
      .for('update', { of: tripCustomFields });
    if (!row) throw notFound('Custom field not found.');
    if (row.deletedAt) throw new HttpError(422, 'This trip has been deleted, so it can no longer be changed.');
    return row;
  }

  async update(id: number, v: { label: string; note: string | null }): Promise<CustomField> {
    return this.db.transaction(async (tx) => {
      const { field: before, tripName } = await this.liveField(tx, id);
      const [row] = await tx
        .update(tripCustomFields)
        .set({ label: v.label, note: v.note })
        .where(eq(tripCustomFields.id, id))
        .returning();
      if (!row) throw notFound('Custom field not found.');
      const changes = diff({ label: [before.label, row.label], note: [before.note, row.note] });
      await audit(tx, {
        action: 'custom_field.updated',
        subject: { type: 'custom_field', id },
        tripId: row.tripId,
        changes,
        summary: describeChanges(changes, `the custom field ${row.label} of the trip ${tripName}`),
      });
      return toField(row);
    });
  }

  /** The answers bookings gave to the field go with it (the confirmation says so). */
  async delete(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { field, tripName } = await this.liveField(tx, id);
      const [answers] = await tx
        .select({ n: count() })
        .from(bookingCustomFieldAnswers)
        .where(eq(bookingCustomFieldAnswers.customFieldId, id));
      const deleted = await tx
        .delete(tripCustomFields)
        .where(eq(tripCustomFields.id, id))
        .returning({ id: tripCustomFields.id });
      if (!deleted.length) throw notFound('Custom field not found.');
      await audit(tx, {
        action: 'custom_field.deleted',
        subject: { type: 'custom_field', id },
        tripId: field.tripId,
        summary: `deleted the custom field ${field.label} of the trip ${tripName}`,
        details: { label: field.label, note: field.note, answers_deleted: Number(answers?.n ?? 0) },
      });
    });
  }
}
