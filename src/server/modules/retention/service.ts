import { and, eq, sql, type SQL } from 'drizzle-orm';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { ERASED_FIELDS, type ErasedField, type RetentionPreview } from '../../../contract/retention.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import type { FileStore } from '../../../shared/storage/index.ts';
import { bookings } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import { HttpError } from '../../errors.ts';
import { redactCopies } from './redact.ts';

/** Each erased field: whether the booking holds it (SQL), and its value once erased. */
const FIELDS: Record<ErasedField, { held: SQL; column: keyof typeof bookings.$inferInsert; erased: null | false }> = {
  passport_number: { held: sql`passport_number is not null`, column: 'passportNumber', erased: null },
  passport_issue_date: { held: sql`passport_issue_date is not null`, column: 'passportIssueDate', erased: null },
  passport_expiry_date: { held: sql`passport_expiry_date is not null`, column: 'passportExpiryDate', erased: null },
  passport_image: { held: sql`passport_image_file is not null`, column: 'passportImageFile', erased: null },
  nationality: { held: sql`nationality is not null`, column: 'nationality', erased: null },
  medical_conditions: { held: sql`medical_conditions`, column: 'medicalConditions', erased: false },
  medical_detail: { held: sql`medical_detail is not null`, column: 'medicalDetail', erased: null },
  medication: { held: sql`medication is not null`, column: 'medication', erased: null },
  dietary: { held: sql`dietary is not null`, column: 'dietary', erased: null },
  insurance_policy_number: {
    held: sql`insurance_policy_number is not null`,
    column: 'insurancePolicyNumber',
    erased: null,
  },
  nok_name: { held: sql`nok_name is not null`, column: 'nokName', erased: null },
  nok_relationship: { held: sql`nok_relationship is not null`, column: 'nokRelationship', erased: null },
  nok_email: { held: sql`nok_email is not null`, column: 'nokEmail', erased: null },
  nok_telephone: { held: sql`nok_telephone is not null`, column: 'nokTelephone', erased: null },
  nok_address: { held: sql`nok_address is not null`, column: 'nokAddress', erased: null },
};
const ANY_HELD = sql.join(
  ERASED_FIELDS.map((f) => sql`(${FIELDS[f].held})`),
  sql` or `,
);
const HELD_LIST = sql`array_remove(array[${sql.join(
  ERASED_FIELDS.map((f) => sql`case when ${FIELDS[f].held} then ${f} end`),
  sql`, `,
)}]::text[], null)`;

export const BATCH = 200;

type Due = {
  id: number;
  ref: string;
  first_name: string;
  last_name: string;
  trip_name: string;
  returned: string | Date;
  fields: ErasedField[];
  passport_image_file: string | null;
};

/**
 * Erasure after return: RETENTION_DAYS_AFTER_RETURN after a trip is back, its
 * travellers' passport, medical, insurance-number and next-of-kin details are erased, unless a
 * "keep until" day holds them back. The booking, its money and its history stay; each erasure is
 * an event naming the fields, never their values; the passport image's file is removed.
 */
export class RetentionService {
  constructor(
    private readonly db: Db,
    private readonly files: FileStore,
    private readonly days: number,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  private today() {
    return ukToday(nowOf(this.clock));
  }

  /** trips that came back before this day are due */
  returnedBefore(today = this.today()) {
    return addDays(today, -this.days);
  }

  private due(today: string, limit?: number, held = false) {
    const hold = held
      ? sql`b.keep_until is not null and b.keep_until >= ${today}::date`
      : sql`(b.keep_until is null or b.keep_until < ${today}::date)`;
    return queryRows<Due>(
      this.db,
      sql`select b.id, b.ref, b.first_name, b.last_name, t.name as trip_name, t.return_date as returned, ${HELD_LIST} as fields, b.passport_image_file
        from bookings b join trips t on t.id = b.trip_id
        where t.return_date < ${this.returnedBefore(today)}::date and b.personal_data_erased_at is null and ${hold} and (${ANY_HELD})
        order by t.return_date, b.id
        ${limit === undefined ? sql`` : sql`limit ${limit}`}`,
    );
  }

  /** What the next run will erase: the first 100, how many in all, and how many are held back. */
  async preview(): Promise<RetentionPreview> {
    const today = this.today();
    const [counts] = await queryRows<{ total: number; held: number }>(
      this.db,
      sql`select count(*) filter (where b.keep_until is null or b.keep_until < ${today}::date)::int as total,
          count(*) filter (where b.keep_until >= ${today}::date)::int as held
        from bookings b join trips t on t.id = b.trip_id
        where t.return_date < ${this.returnedBefore(today)}::date and b.personal_data_erased_at is null and (${ANY_HELD})`,
    );
    const rows = await this.due(today, 100);
    return {
      retention_days: this.days,
      returned_before: this.returnedBefore(today),
      total: counts!.total,
      held: counts!.held,
      bookings: rows.map((r) => ({
        booking_id: Number(r.id),
        booking_ref: r.ref,
        traveller: `${r.first_name} ${r.last_name}`,
        trip_name: r.trip_name,
        returned: typeof r.returned === 'string' ? r.returned.slice(0, 10) : r.returned.toISOString().slice(0, 10),
        fields: r.fields,
      })),
    };
  }

  /** The nightly run: every due booking, a batch at a time; each in its own transaction with its event. */
  async run(): Promise<{ erased: number }> {
    const today = this.today();
    let erased = 0;
    for (;;) {
      const batch = await this.due(today, BATCH);
      for (const b of batch) if (await this.erase(b, today)) erased += 1;
      if (batch.length < BATCH) break;
    }
    return { erased };
  }

  private async erase(b: Due, today: string): Promise<boolean> {
    const done = await this.db.transaction(async (tx) => {
      // checked again under the row's lock: a hold set, or another worker's run, since it was listed
      const [row] = await tx
        .select({ erasedAt: bookings.personalDataErasedAt, keepUntil: bookings.keepUntil })
        .from(bookings)
        .where(eq(bookings.id, b.id))
        .for('update');
      if (!row || row.erasedAt || (row.keepUntil && row.keepUntil >= today)) return false;
      const erasedAt = nowOf(this.clock);
      const set = Object.fromEntries(b.fields.map((f) => [FIELDS[f].column, FIELDS[f].erased]));
      // the values as they were, for the copies that quote them (emails, chasers' reasons)
      const [held] = await tx
        .select(Object.fromEntries(ERASED_FIELDS.map((f) => [f, bookings[FIELDS[f].column]])))
        .from(bookings)
        .where(eq(bookings.id, b.id));
      await tx
        .update(bookings)
        .set({ ...set, personalDataErasedAt: erasedAt })
        .where(and(eq(bookings.id, b.id)));
      await redactCopies(tx, b.id, held ?? {});
      await audit(tx, {
        action: 'booking.personal_data_erased',
        subject: { type: 'booking', id: b.id },
        bookingId: b.id,
        summary: `erased the passport, medical and next-of-kin details of ${b.ref} (${b.fields.length} field${b.fields.length === 1 ? '' : 's'}), ${this.days} days after the trip's return`,
        details: { fields: b.fields, retention_days: this.days },
      });
      return true;
    });
    // the file goes once the booking no longer names it (a failure here is left to the hourly sweep)
    if (done && b.passport_image_file)
      await this.files.remove('passports', b.passport_image_file).catch(() => undefined);
    return done;
  }

  /** Holds a booking's erasure back until a day (a claim, an incident), or lets it go (null). An event in the history. */
  async keepUntil(
    bookingId: number,
    keepUntil: string | null,
    reason: string | null,
  ): Promise<{ message: string; keep_until: string | null; keep_reason: string | null }> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ ref: bookings.ref, keepUntil: bookings.keepUntil, keepReason: bookings.keepReason })
        .from(bookings)
        .where(eq(bookings.id, bookingId))
        .for('update');
      if (!before) throw new HttpError(404, 'Booking not found');
      const next = { keepUntil, keepReason: keepUntil ? reason : null };
      await tx.update(bookings).set(next).where(eq(bookings.id, bookingId));
      await audit(tx, {
        action: 'booking.erasure_held',
        subject: { type: 'booking', id: bookingId },
        bookingId,
        changes: { keep_until: [before.keepUntil, next.keepUntil], keep_reason: [before.keepReason, next.keepReason] },
        summary: keepUntil
          ? `kept the personal details of ${before.ref} from erasure until ${keepUntil} (${reason})`
          : `let the personal details of ${before.ref} be erased on time again`,
      });
      return {
        message: keepUntil ? `The details are kept until ${keepUntil}.` : 'The details will be erased on time.',
        keep_until: next.keepUntil,
        keep_reason: next.keepReason,
      };
    });
  }
}
