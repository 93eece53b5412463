import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { penceToPounds } from '../../../contract/money.ts';
import type { BookingSchedule, PaymentPlan, ScheduleRow } from '../../../contract/schedules.ts';
import type { Db, Tx } from '../../../db/client.ts';
import {
  bookings,
  invoices,
  paymentPlanInstalments,
  scheduleRows,
  schoolGroups,
  trips,
} from '../../../db/schema/index.ts';
import { schoolPaysPence } from '../../../contract/groups.ts';
import { audit, diff, describeChanges } from '../../audit/audit.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import { HttpError, validationError } from '../../errors.ts';
import { loadInvoices } from '../invoices/load.ts';
import { ukToday } from '../../../contract/dates.ts';
import {
  buildSchedule,
  DEFAULT_PLAN,
  type Instalment,
  planRefusal,
  rowState,
  type ScheduledInstalment,
} from './rules.ts';

type TripMoney = {
  id: number;
  name: string;
  costPence: number;
  depositPence: number;
  departure: string;
  remindersOff: boolean;
  remindersOffReason: string | null;
};
const toPlanRow = (r: typeof paymentPlanInstalments.$inferSelect): Instalment => ({
  label: r.label,
  amountKind: r.amountKind as Instalment['amountKind'],
  amountPence: r.amountPence,
  percentHundredths: r.percentHundredths,
  dueKind: r.dueKind as Instalment['dueKind'],
  dueDays: r.dueDays,
  dueDate: r.dueDate,
});

/** "Deposit £350.00 14 days after booking; Balance the rest 56 days before departure" */
function describePlan(plan: Instalment[]): string {
  return plan
    .map((i) => {
      const amount =
        i.amountKind === 'fixed'
          ? `£${penceToPounds(i.amountPence ?? 0).toFixed(2)}`
          : i.amountKind === 'percent'
            ? `${(i.percentHundredths ?? 0) / 100}%`
            : i.amountKind === 'deposit'
              ? 'the deposit'
              : 'the rest';
      const due =
        i.dueKind === 'fixed_date'
          ? `on ${i.dueDate}`
          : i.dueKind === 'after_booking'
            ? `${i.dueDays} days after booking`
            : `${i.dueDays} days before departure`;
      return `${i.label} ${amount} ${due}`;
    })
    .join('; ');
}

/** Payment plans of trips and the schedules of bookings. */
export class ScheduleService {
  constructor(
    private readonly db: Db,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  private today() {
    return ukToday(nowOf(this.clock));
  }

  private async trip(db: Db | Tx, tripId: number, lock = false): Promise<TripMoney> {
    const q = db
      .select({
        id: trips.id,
        name: trips.name,
        costPence: trips.costPence,
        depositPence: trips.depositPence,
        departure: trips.departureDate,
        deletedAt: trips.deletedAt,
        remindersOff: trips.remindersOff,
        remindersOffReason: trips.remindersOffReason,
      })
      .from(trips)
      .where(eq(trips.id, tripId));
    // not FOR UPDATE: a booking being made holds its trip's key share, then asks for this (decision 030)
    const [trip] = lock ? await q.for('no key update') : await q;
    if (!trip || trip.deletedAt) throw new HttpError(404, 'Trip not found');
    return trip;
  }

  private async planOf(db: Db | Tx, tripId: number): Promise<{ plan: Instalment[]; isDefault: boolean }> {
    const rows = await db
      .select()
      .from(paymentPlanInstalments)
      .where(eq(paymentPlanInstalments.tripId, tripId))
      .orderBy(asc(paymentPlanInstalments.position));
    return rows.length ? { plan: rows.map(toPlanRow), isDefault: false } : { plan: DEFAULT_PLAN, isDefault: true };
  }

  async plan(tripId: number, db: Db | Tx = this.db): Promise<PaymentPlan> {
    const trip = await this.trip(db, tripId);
    const { plan, isDefault } = await this.planOf(db, tripId);
    const today = this.today();
    return {
      trip_id: trip.id,
      is_default: isDefault,
      instalments: plan.map((i, n) => ({
        position: n + 1,
        label: i.label,
        amount_kind: i.amountKind,
        amount: i.amountPence === null ? null : penceToPounds(i.amountPence),
        percent: i.percentHundredths === null ? null : i.percentHundredths / 100,
        due_kind: i.dueKind,
        due_days: i.dueDays,
        due_date: i.dueDate,
      })),
      preview: buildSchedule(plan, trip, { bookedOn: today, today }).map((r) => ({
        position: r.position,
        label: r.label,
        due_date: r.dueDate,
        amount: penceToPounds(r.amountPence),
      })),
      cost: penceToPounds(trip.costPence),
      deposit: penceToPounds(trip.depositPence),
      reminders_off: trip.remindersOff,
      reminders_off_reason: trip.remindersOffReason,
    };
  }

  /** Replaces a trip's plan. Bookings already made keep their schedules (each can be rebuilt from the new plan). */
  async savePlan(tripId: number, plan: Instalment[]): Promise<PaymentPlan> {
    const refusal = planRefusal(plan);
    if (refusal) throw validationError(refusal);
    return this.db.transaction(async (tx) => {
      const trip = await this.trip(tx, tripId, true);
      const before = await this.planOf(tx, tripId);
      await tx.delete(paymentPlanInstalments).where(eq(paymentPlanInstalments.tripId, tripId));
      await tx.insert(paymentPlanInstalments).values(plan.map((i, n) => ({ tripId, position: n + 1, ...i })));
      const [was, now] = [describePlan(before.plan), describePlan(plan)];
      await audit(tx, {
        action: 'trip.payment_plan_changed',
        subject: { type: 'trip', id: tripId },
        tripId,
        changes: diff({ payment_plan: [was, now] }),
        summary: `changed the payment plan of ${trip.name}`,
        details: { instalments: plan.length },
      });
      return this.plan(tripId, tx);
    });
  }

  /**
   * The schedule a booking made on that day would have (the public booking page's plan in words);
   * `known`: the trip's money and departure when the caller has just read them.
   */
  async preview(
    tripId: number,
    bookedOn: string,
    db: Db | Tx = this.db,
    known?: { costPence: number; depositPence: number; departure: string },
  ): Promise<ScheduledInstalment[]> {
    const trip = known ?? (await this.trip(db, tripId));
    const { plan } = await this.planOf(db, tripId);
    return buildSchedule(plan, trip, { bookedOn, today: this.today() });
  }

  /**
   * Inserts a booking's schedule from its trip's plan, in the caller's transaction. A pupil of a
   * school group whose school pays all or part has the parents' rest of the cost scheduled (issue 37).
   */
  async createFor(tx: Tx, booking: { id: number; tripId: number; bookedOn: string }): Promise<ScheduledInstalment[]> {
    const trip = await this.trip(tx, booking.tripId);
    const { plan } = await this.planOf(tx, booking.tripId);
    const [group] = await tx
      .select({ payer: schoolGroups.payer, schoolSharePence: schoolGroups.schoolSharePence })
      .from(bookings)
      .innerJoin(schoolGroups, eq(schoolGroups.id, bookings.groupId))
      .where(eq(bookings.id, booking.id));
    const parents = { ...trip, costPence: trip.costPence - schoolPaysPence(trip.costPence, group) };
    const rows = buildSchedule(plan, parents, { bookedOn: booking.bookedOn, today: this.today() });
    if (rows.length) {
      const at = nowOf(this.clock);
      await tx
        .insert(scheduleRows)
        .values(rows.map((r) => ({ bookingId: booking.id, ...r, createdAt: at, updatedAt: at })));
    }
    return rows;
  }

  private async booking(db: Db | Tx, bookingId: number, lock = false) {
    const q = db
      .select({
        id: bookings.id,
        ref: bookings.ref,
        tripId: bookings.tripId,
        status: bookings.status,
        createdAt: bookings.createdAt,
        remindersOff: bookings.remindersOff,
        remindersOffReason: bookings.remindersOffReason,
        tripRemindersOff: trips.remindersOff,
      })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, bookingId));
    const [booking] = lock ? await q.for('update', { of: bookings }) : await q;
    if (!booking) throw new HttpError(404, 'Booking not found');
    return booking;
  }

  async forBooking(bookingId: number, db: Db | Tx = this.db): Promise<BookingSchedule> {
    const booking = await this.booking(db, bookingId);
    const rows = await db
      .select()
      .from(scheduleRows)
      .where(eq(scheduleRows.bookingId, bookingId))
      .orderBy(asc(scheduleRows.position));
    const invoiceIds = rows.map((r) => r.invoiceId).filter((id): id is number => id !== null);
    const loaded = invoiceIds.length ? await loadInvoices(db as Db, inArray(invoices.id, invoiceIds)) : [];
    const byId = new Map(loaded.map((l) => [l.reply.id, l]));
    const today = this.today();
    const out: ScheduleRow[] = rows.map((r) => {
      const invoice = r.invoiceId === null ? null : (byId.get(r.invoiceId) ?? null);
      const state = rowState(
        { waived: r.waived, dueDate: r.dueDate, invoice: invoice ? { paid: invoice.summary.paid } : null },
        today,
      );
      return {
        id: r.id,
        position: r.position,
        label: r.label,
        due_date: r.dueDate,
        amount: penceToPounds(r.amountPence),
        invoice_type: r.invoiceType as 'deposit' | 'balance',
        invoice_id: r.invoiceId,
        invoice_ref: invoice?.reply.invoice_ref ?? null,
        outstanding: state === 'waived' ? 0 : invoice ? invoice.reply.outstanding : penceToPounds(r.amountPence),
        state,
        waived_reason: r.waivedReason,
      };
    });
    return {
      booking_id: booking.id,
      rows: out,
      can_rebuild: booking.status !== 'cancelled' && rows.every((r) => r.invoiceId === null),
      reminders_off: booking.remindersOff,
      reminders_off_reason: booking.remindersOffReason,
      trip_reminders_off: booking.tripRemindersOff,
    };
  }

  /** Makes the schedule again from the trip's plan, while nothing on it is invoiced. */
  async rebuild(bookingId: number): Promise<BookingSchedule> {
    return this.db.transaction(async (tx) => {
      const booking = await this.booking(tx, bookingId, true);
      if (booking.status === 'cancelled') throw new HttpError(422, 'A cancelled booking has no schedule to rebuild.');
      const [invoiced] = await tx
        .select({ id: scheduleRows.id })
        .from(scheduleRows)
        .where(and(eq(scheduleRows.bookingId, bookingId), isNotNull(scheduleRows.invoiceId)))
        .limit(1);
      if (invoiced)
        throw new HttpError(
          422,
          'Part of this schedule has been invoiced, so it cannot be rebuilt: change the instalments one by one instead.',
        );
      const before = await tx
        .select()
        .from(scheduleRows)
        .where(eq(scheduleRows.bookingId, bookingId))
        .orderBy(asc(scheduleRows.position));
      await tx.delete(scheduleRows).where(eq(scheduleRows.bookingId, bookingId));
      const bookedOn = ukToday(booking.createdAt);
      const rows = await this.createFor(tx, { id: bookingId, tripId: booking.tripId, bookedOn });
      const text = (rs: Array<{ label: string; dueDate: string; amountPence: number }>) =>
        rs.map((r) => `${r.label} £${penceToPounds(r.amountPence).toFixed(2)} due ${r.dueDate}`).join('; ');
      await audit(tx, {
        action: 'schedule.rebuilt',
        subject: { type: 'booking', id: bookingId },
        bookingId,
        tripId: booking.tripId,
        changes: diff({ schedule: [text(before) || null, text(rows) || null] }),
        summary: `made the payment schedule of ${booking.ref} again from its trip's plan`,
      });
      return this.forBooking(bookingId, tx);
    });
  }

  /** Moves a row's date, changes its amount, or waives it (with a reason), before it is invoiced. */
  async updateRow(
    rowId: number,
    patch: {
      due_date?: string | undefined;
      amount?: number | undefined;
      waived?: boolean | undefined;
      reason?: string | undefined;
    },
  ): Promise<BookingSchedule> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(scheduleRows).where(eq(scheduleRows.id, rowId)).for('update');
      if (!row) throw new HttpError(404, 'Instalment not found');
      const booking = await this.booking(tx, row.bookingId);
      if (row.invoiceId !== null && (patch.due_date !== undefined || patch.amount !== undefined)) {
        throw validationError({
          [patch.amount !== undefined ? 'amount' : 'due_date']: [
            'This instalment has been invoiced: change its invoice instead.',
          ],
        });
      }
      const next = {
        dueDate: patch.due_date ?? row.dueDate,
        amountPence: patch.amount ?? row.amountPence,
        waived: patch.waived ?? row.waived,
        waivedReason: patch.waived === undefined ? row.waivedReason : patch.waived ? (patch.reason ?? null) : null,
      };
      const changes = diff({
        due_date: [row.dueDate, next.dueDate],
        amount: [penceToPounds(row.amountPence), penceToPounds(next.amountPence)],
        waived: [row.waived, next.waived],
        waived_reason: [row.waivedReason, next.waivedReason],
      });
      if (Object.keys(changes).length) {
        await tx
          .update(scheduleRows)
          .set({ ...next, updatedAt: nowOf(this.clock) })
          .where(eq(scheduleRows.id, rowId));
        await audit(tx, {
          action: 'schedule.row_changed',
          subject: { type: 'schedule_row', id: rowId },
          bookingId: row.bookingId,
          tripId: booking.tripId,
          changes,
          summary: describeChanges(changes, `the instalment ${row.label} of ${booking.ref}`),
          details: patch.reason ? { reason: patch.reason } : null,
        });
      }
      return this.forBooking(row.bookingId, tx);
    });
  }

  /** "Send automatic reminders" on or off, for one booking or every booking of a trip; the reason is recorded. */
  async setReminders(
    what: 'booking' | 'trip',
    id: number,
    v: { send: boolean; reason?: string | undefined },
  ): Promise<{ message: string }> {
    return this.db.transaction(async (tx) => {
      const [row] =
        what === 'booking'
          ? await tx
              .select({
                off: bookings.remindersOff,
                reason: bookings.remindersOffReason,
                name: bookings.ref,
                tripId: bookings.tripId,
              })
              .from(bookings)
              .where(eq(bookings.id, id))
              .for('update')
          : await tx
              .select({ off: trips.remindersOff, reason: trips.remindersOffReason, name: trips.name, tripId: trips.id })
              .from(trips)
              .where(eq(trips.id, id))
              .for('no key update');
      if (!row) throw new HttpError(404, what === 'booking' ? 'Booking not found' : 'Trip not found');
      const next = { remindersOff: !v.send, remindersOffReason: v.send ? null : (v.reason ?? null) };
      const changes = diff({
        send_automatic_reminders: [!row.off, v.send],
        reminders_off_reason: [row.reason, next.remindersOffReason],
      });
      if (Object.keys(changes).length) {
        if (what === 'booking') await tx.update(bookings).set(next).where(eq(bookings.id, id));
        else await tx.update(trips).set(next).where(eq(trips.id, id));
        await audit(tx, {
          action: `${what}.reminders_changed`,
          subject: { type: what, id },
          bookingId: what === 'booking' ? id : null,
          tripId: row.tripId,
          changes,
          summary: `turned automatic reminders ${v.send ? 'on' : 'off'} for ${what === 'booking' ? 'the booking ' : ''}${row.name}${v.send ? '' : ` (${next.remindersOffReason})`}`,
        });
      }
      return { message: v.send ? 'Automatic reminders will be sent.' : 'Automatic reminders are off.' };
    });
  }

  /**
   * Bookings made before plans existed get their schedule from their trip's plan (the default
   * plan, unless staff have set one), with the standard invoices already raised linked to it:
   * the deposit invoice to the first instalment, the balance invoice to the last. A batch at a
   * time, from the booking after `after`; says how many it looked at and the last one's id.
   * Stops between bookings once `stopping` is aborted.
   */
  async backfill(limit = 500, after = 0, stopping?: AbortSignal): Promise<{ looked: number; last: number }> {
    const pending = await this.db
      .select({ id: bookings.id, tripId: bookings.tripId, createdAt: bookings.createdAt })
      .from(bookings)
      .where(
        sql`${bookings.id} > ${after} and ${bookings.status} <> 'cancelled' and not exists (select 1 from ${scheduleRows} where ${scheduleRows.bookingId} = ${bookings.id})`,
      )
      .orderBy(asc(bookings.id))
      .limit(limit);
    let done = 0;
    let looked = 0;
    for (const b of pending) {
      if (stopping?.aborted) break;
      looked++;
      done += await this.db.transaction(async (tx) => {
        const [locked] = await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, b.id)).for('update');
        const [has] = await tx
          .select({ id: scheduleRows.id })
          .from(scheduleRows)
          .where(eq(scheduleRows.bookingId, b.id))
          .limit(1);
        if (!locked || has) return 0;
        const rows = await this.createFor(tx, { id: b.id, tripId: b.tripId, bookedOn: ukToday(b.createdAt) });
        if (!rows.length) return 0;
        const raised = await tx
          .select({ id: invoices.id, type: invoices.type })
          .from(invoices)
          .where(and(eq(invoices.bookingId, b.id), inArray(invoices.type, ['deposit', 'balance'])))
          .orderBy(asc(invoices.id));
        const deposit = raised.find((i) => i.type === 'deposit');
        const balance = raised.find((i) => i.type === 'balance');
        if (deposit)
          await tx
            .update(scheduleRows)
            .set({ invoiceId: deposit.id })
            .where(and(eq(scheduleRows.bookingId, b.id), eq(scheduleRows.position, 1)));
        if (balance && rows.length > 1)
          await tx
            .update(scheduleRows)
            .set({ invoiceId: balance.id })
            .where(and(eq(scheduleRows.bookingId, b.id), eq(scheduleRows.position, rows.length)));
        return 1;
      });
    }
    if (done) {
      await audit(this.db, {
        action: 'schedule.backfilled',
        subject: { type: 'booking', id: null },
        summary: `made the payment schedules of ${done} earlier booking${done === 1 ? '' : 's'} from their trips' plans`,
        details: { bookings: done, first: pending[0]!.id, last: pending[looked - 1]!.id },
      });
    }
    return { looked, last: looked ? pending[looked - 1]!.id : after };
  }
}
