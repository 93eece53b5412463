import { and, asc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import {
  type MoveBookingValues,
  type Moved,
  type MovePreview,
  type MoveTrips,
  REFUND_DUE_DAYS,
} from '../../../contract/changes.ts';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { formatPence, penceToPounds as p } from '../../../contract/money.ts';
import type { Db, Tx } from '../../../db/client.ts';
import {
  bookingAddons,
  bookings,
  invoiceAddons,
  invoices,
  scheduleRows,
  tripAddons,
  trips,
} from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf } from '../../clock.ts';
import { portalUrlOf } from '../../common/portal-links.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';
import { emailDate, renderTemplate, templateOf } from '../../mail/templates.ts';
import { travellerContext, travellerOf } from '../../mail/traveller.ts';
import type { InvoiceService } from '../invoices/service.ts';
import { placesOf } from '../online-booking/places.ts';
import { ScheduleService } from '../schedules/service.ts';
import { daysBetween } from './fees.ts';
import { invoiceFee, invoicesByMoney, oweRefund } from './money.ts';
import type { ChangesDeps } from './service.ts';

/** The invoice types that bill the trip itself and its add-ons (not a fee). */
const PRICE_TYPES = new Set(['deposit', 'balance', 'addon']);

const TRIP_KINDS: Record<string, string> = {
  charity: 'a charity challenge',
  open: 'an open challenge',
  school: 'a school trip',
};

type MovePlan = {
  preview: MovePreview;
  booking: { id: number; ref: string; tripId: number; createdAt: Date; status: string };
  toTripId: number;
  feePence: number;
  refundOwedPence: number;
  deleteInvoiceIds: number[];
  removeRowIds: number[];
  newRows: Array<{ label: string; dueDate: string; amountPence: number }>;
  /** the booking's add-on on the old trip → the same add-on (by name) on the new one */
  addonMoves: Array<{ from: number; to: number }>;
  droppedAddonIds: number[];
  /** the position the new rows start after */
  lastKeptPosition: number;
};

/**
 * A move to another departure (issue 35): to an open trip of the same type with a place. Its
 * payments follow it; the invoices with nothing paid go; the schedule is made again from the new
 * trip's plan less what the invoices that stay have billed for the trip; billed beyond the new
 * cost is owed back within 14 days; the move fee is invoiced; add-ons the new trip does not have
 * (by name) are dropped. Preview and move come from one function.
 */
export class Moves {
  private readonly schedules: ScheduleService;

  constructor(
    private readonly d: ChangesDeps,
    private readonly invoices: InvoiceService,
    private readonly moveFeeFor: (db: Db | Tx, tripId: number) => Promise<number>,
  ) {
    this.schedules = new ScheduleService(d.db, d.clock);
  }

  private today() {
    return ukToday(nowOf(this.d.clock));
  }

  /** The departures this booking may move to: open trips of its type, not yet departed, with their places. */
  async trips(bookingId: number): Promise<MoveTrips> {
    const [b] = await this.d.db
      .select({ tripId: bookings.tripId, type: trips.type })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, bookingId));
    if (!b) throw notFound('Booking not found');
    const rows = await this.d.db
      .select({ id: trips.id, name: trips.name, departure: trips.departureDate, costPence: trips.costPence })
      .from(trips)
      .where(
        and(
          eq(trips.type, b.type),
          eq(trips.status, 'open'),
          isNull(trips.deletedAt),
          isNull(trips.archivedAt),
          ne(trips.id, b.tripId),
          gt(trips.departureDate, this.today()),
        ),
      )
      .orderBy(asc(trips.departureDate), asc(trips.name))
      .limit(200);
    const now = nowOf(this.d.clock);
    const data = [];
    for (const r of rows) {
      const places = await placesOf(this.d.db, r.id, now);
      data.push({
        trip_id: r.id,
        name: r.name,
        departure_date: r.departure,
        cost: p(r.costPence),
        places_left: places.left,
      });
    }
    return { data };
  }

  private async plan(
    tx: Db | Tx,
    bookingId: number,
    toTripId: number,
    feeWaived: boolean,
    lock: boolean,
  ): Promise<MovePlan> {
    const q = tx
      .select({
        id: bookings.id,
        ref: bookings.ref,
        status: bookings.status,
        tripId: bookings.tripId,
        groupId: bookings.groupId,
        createdAt: bookings.createdAt,
        name: trips.name,
        type: trips.type,
        departure: trips.departureDate,
        costPence: trips.costPence,
      })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, bookingId));
    // as a cancellation: the invoices, then the booking; then the new trip, as a booking of it does
    if (lock)
      await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.bookingId, bookingId)).for('update');
    const [b] = lock ? await q.for('update', { of: bookings }) : await q;
    if (!b) throw notFound('Booking not found');
    const tq = tx.select().from(trips).where(eq(trips.id, toTripId));
    const [to] = lock ? await tq.for('no key update') : await tq;
    if (!to || to.deletedAt) throw validationError({ trip_id: ['The selected trip is invalid.'] });
    const today = this.today();
    const now = nowOf(this.d.clock);
    const places = await placesOf(tx, to.id, now);
    const days = daysBetween(today, to.departureDate);

    // the money: invoices with nothing ever recorded go; those with money stay and count as billed
    const split = await invoicesByMoney(tx, b.id);
    const toDelete = split.unpaid;
    const kept = split.withMoney.filter((l) => PRICE_TYPES.has(l.reply.type));
    const keptIds = kept.map((l) => l.reply.id);

    // the add-ons, matched to the new trip's by name
    const held = await tx
      .select({ addonId: bookingAddons.addonId, name: tripAddons.name, pricePence: bookingAddons.pricePence })
      .from(bookingAddons)
      .innerJoin(tripAddons, eq(tripAddons.id, bookingAddons.addonId))
      .where(eq(bookingAddons.bookingId, b.id))
      .orderBy(asc(tripAddons.name));
    const offered = await tx
      .select({ id: tripAddons.id, name: tripAddons.name })
      .from(tripAddons)
      .where(eq(tripAddons.tripId, to.id));
    const byName = new Map(offered.map((o) => [o.name.trim().toLowerCase(), o.id]));
    const addonMoves: MovePlan['addonMoves'] = [];
    const dropped: typeof held = [];
    for (const a of held) {
      const match = byName.get(a.name.trim().toLowerCase());
      if (match === undefined) dropped.push(a);
      else addonMoves.push({ from: a.addonId, to: match });
    }
    // what the kept invoices billed for add-ons the booking keeps is not a payment towards the trip
    const keptAddonIds = addonMoves.map((m) => m.from);
    const [addonBilled] =
      keptIds.length && keptAddonIds.length
        ? await tx
            .select({ pence: sql<number>`coalesce(sum(${invoiceAddons.pricePence}), 0)::int`.mapWith(Number) })
            .from(invoiceAddons)
            .where(and(inArray(invoiceAddons.invoiceId, keptIds), inArray(invoiceAddons.addonId, keptAddonIds)))
        : [{ pence: 0 }];
    const billedPence = kept.reduce((s, l) => s + l.summary.totalPence, 0) - (addonBilled?.pence ?? 0);
    const paidPence = kept.reduce((s, l) => s + l.summary.receivedPence, 0);
    const keptOutstanding = kept.reduce((s, l) => s + l.summary.outstandingPence, 0);
    const excessPence = Math.max(0, billedPence - to.costPence);

    // the new schedule: the new trip's plan, the first instalments taken by what is billed already
    const rows = await tx
      .select({
        id: scheduleRows.id,
        label: scheduleRows.label,
        dueDate: scheduleRows.dueDate,
        amountPence: scheduleRows.amountPence,
        position: scheduleRows.position,
        invoiceId: scheduleRows.invoiceId,
      })
      .from(scheduleRows)
      .where(eq(scheduleRows.bookingId, b.id))
      .orderBy(asc(scheduleRows.position));
    const deletedIds = new Set(toDelete.map((l) => l.reply.id));
    const removed = rows.filter((r) => r.invoiceId === null || deletedIds.has(r.invoiceId));
    const lastKeptPosition = Math.max(0, ...rows.filter((r) => !removed.includes(r)).map((r) => r.position));
    const planned = await this.schedules.preview(to.id, ukToday(b.createdAt), tx);
    let credit = billedPence;
    const newRows: MovePlan['newRows'] = [];
    for (const r of planned) {
      const take = Math.min(credit, r.amountPence);
      credit -= take;
      if (r.amountPence - take > 0)
        newRows.push({ label: r.label, dueDate: r.dueDate, amountPence: r.amountPence - take });
    }

    const feePence = feeWaived ? 0 : await this.moveFeeFor(tx, to.id);
    const refused =
      b.status === 'cancelled'
        ? 'This booking is cancelled: it cannot move to another departure.'
        : b.groupId !== null
          ? 'This pupil is in a school group, whose places, payer and invoice belong to this departure: cancel their place here and add them to a group of the other departure.'
          : to.id === b.tripId
            ? 'The booking is already on this departure.'
            : daysBetween(today, b.departure) < 0
              ? 'The trip has departed: the booking cannot move.'
              : to.type !== b.type
                ? `A booking moves to a trip of the same type: ${to.name} is ${TRIP_KINDS[to.type] ?? to.type}, this booking ${TRIP_KINDS[b.type] ?? b.type}.`
                : to.status !== 'open'
                  ? `${to.name} is ${to.status} and is not taking bookings.`
                  : days <= 0
                    ? `${to.name} has departed.`
                    : places.left === 0
                      ? `${to.name} has no place left.`
                      : excessPence > 0 && keptOutstanding > 0
                        ? `The new departure costs less than has been billed, and ${formatPence(keptOutstanding)} is still unpaid on the invoices billed: record or refund what is owed on them first.`
                        : null;
    const difference = to.costPence - b.costPence;
    const summary =
      refused ??
      `${b.ref} moves from ${b.name} to ${to.name} (${difference === 0 ? 'the same price' : difference > 0 ? `${formatPence(difference)} more` : `${formatPence(-difference)} less`}). ${
        excessPence > 0
          ? `${formatPence(excessPence)} billed beyond the new cost is owed back by ${addDays(today, REFUND_DUE_DAYS)}.`
          : newRows.length
            ? `The schedule is made again from ${to.name}'s plan less the ${formatPence(billedPence)} billed: ${newRows.map((r) => `${r.label} ${formatPence(r.amountPence)}`).join(', ')}.`
            : 'Nothing more is to pay for the trip.'
      } ${feePence > 0 ? `A move fee of ${formatPence(feePence)} is invoiced.` : 'No move fee.'}${dropped.length ? ` ${to.name} has no ${dropped.map((a) => a.name).join(', ')}: dropped.` : ''}`;
    return {
      booking: { id: b.id, ref: b.ref, tripId: b.tripId, createdAt: b.createdAt, status: b.status },
      toTripId: to.id,
      feePence,
      refundOwedPence: excessPence,
      deleteInvoiceIds: toDelete.map((l) => l.reply.id),
      removeRowIds: removed.map((r) => r.id),
      newRows,
      addonMoves,
      droppedAddonIds: dropped.map((a) => a.addonId),
      lastKeptPosition,
      preview: {
        booking_id: b.id,
        ref: b.ref,
        movable: refused === null,
        refused,
        from: { trip_id: b.tripId, name: b.name, departure_date: b.departure, cost: p(b.costPence) },
        to: {
          trip_id: to.id,
          name: to.name,
          departure_date: to.departureDate,
          cost: p(to.costPence),
          places_left: places.left,
        },
        days_before_departure: days,
        fee_waived: feeWaived,
        fee: p(feePence),
        price_difference: p(difference),
        billed: p(billedPence),
        paid: p(paidPence),
        refund_owed: p(excessPence),
        refund_due_on: excessPence > 0 ? addDays(today, REFUND_DUE_DAYS) : null,
        addons_kept: held.filter((a) => !dropped.includes(a)).map((a) => ({ name: a.name, price: p(a.pricePence) })),
        addons_dropped: dropped.map((a) => ({ name: a.name, price: p(a.pricePence) })),
        invoices_deleted: toDelete.map((l) => ({ id: l.reply.id, ref: l.reply.invoice_ref, total: l.reply.total })),
        rows_removed: removed.map((r) => ({
          id: r.id,
          label: r.label,
          due_date: r.dueDate,
          amount: p(r.amountPence),
        })),
        rows_new: newRows.map((r) => ({ label: r.label, due_date: r.dueDate, amount: p(r.amountPence) })),
        summary,
      },
    };
  }

  async preview(bookingId: number, toTripId: number, feeWaived: boolean): Promise<MovePreview> {
    return (await this.plan(this.d.db, bookingId, toTripId, feeWaived, false)).preview;
  }

  /** Moves the booking, in one transaction, exactly as its preview says; one event in each trip's history. */
  async move(bookingId: number, v: MoveBookingValues, userId: number): Promise<Moved> {
    const done = await this.d.db.transaction(async (tx) => {
      const plan = await this.plan(tx, bookingId, v.trip_id, v.fee_waived, true);
      if (!plan.preview.movable) throw new HttpError(409, plan.preview.refused!);
      const today = this.today();
      const now = nowOf(this.d.clock);
      const b = plan.booking;
      for (const id of plan.deleteInvoiceIds) await this.invoices.deleteIn(tx, id);
      if (plan.removeRowIds.length) await tx.delete(scheduleRows).where(inArray(scheduleRows.id, plan.removeRowIds));
      if (plan.droppedAddonIds.length)
        await tx
          .delete(bookingAddons)
          .where(and(eq(bookingAddons.bookingId, b.id), inArray(bookingAddons.addonId, plan.droppedAddonIds)));
      for (const m of plan.addonMoves)
        await tx
          .update(bookingAddons)
          .set({ addonId: m.to })
          .where(and(eq(bookingAddons.bookingId, b.id), eq(bookingAddons.addonId, m.from)));
      await tx.update(bookings).set({ tripId: plan.toTripId, updatedAt: now }).where(eq(bookings.id, b.id));
      if (plan.newRows.length)
        await tx.insert(scheduleRows).values(
          plan.newRows.map((r, i) => ({
            bookingId: b.id,
            position: plan.lastKeptPosition + i + 1,
            label: r.label,
            dueDate: r.dueDate,
            amountPence: r.amountPence,
            // the deposit was billed already when anything stays billed
            invoiceType: plan.lastKeptPosition === 0 && i === 0 ? 'deposit' : 'balance',
            createdAt: now,
            updatedAt: now,
          })),
        );
      const feeInvoiceId =
        plan.feePence > 0
          ? await invoiceFee(this.invoices, tx, {
              bookingId: b.id,
              tripId: plan.toTripId,
              type: 'other',
              description: `Move of booking ${b.ref} to ${plan.preview.to.name}`,
              item: 'Move fee',
              pence: plan.feePence,
              today,
              userId,
            })
          : null;
      const owedId =
        plan.refundOwedPence > 0
          ? await oweRefund(tx, {
              bookingId: b.id,
              pence: plan.refundOwedPence,
              reason: `Move of ${b.ref} to ${plan.preview.to.name}: billed beyond its cost`,
              today,
              userId,
            })
          : null;
      const details = {
        reason: v.reason,
        from_trip: plan.preview.from,
        to_trip: plan.preview.to,
        fee: plan.preview.fee,
        fee_waived: v.fee_waived,
        price_difference: plan.preview.price_difference,
        billed: plan.preview.billed,
        refund_owed: plan.preview.refund_owed,
        addons_dropped: plan.preview.addons_dropped.map((a) => a.name),
        invoices_deleted: plan.preview.invoices_deleted.map((i) => i.ref),
        rows_new: plan.preview.rows_new,
        fee_invoice_id: feeInvoiceId,
        refund_owed_id: owedId,
      };
      const summary = `moved booking ${b.ref} from ${plan.preview.from.name} to ${plan.preview.to.name}: ${plan.preview.summary}`;
      for (const [action, tripId] of [
        ['booking.moved', b.tripId],
        ['booking.moved_in', plan.toTripId],
      ] as const)
        await audit(tx, {
          action,
          subject: { type: 'booking', id: b.id },
          bookingId: b.id,
          tripId,
          summary,
          details,
          changes: { trip: [plan.preview.from.name, plan.preview.to.name] },
        });
      return { plan, feeInvoiceId, owedId };
    });
    const emailed = v.notify ? await this.emailMoved(done.plan).catch(() => false) : false;
    return {
      ...done.plan.preview,
      movable: false,
      refused: null,
      message: `Booking ${done.plan.booking.ref} has moved to ${done.plan.preview.to.name}.${emailed ? ' The traveller has been emailed.' : v.notify ? ' The email to the traveller could not be sent.' : ''}`,
      fee_invoice_id: done.feeInvoiceId,
      refund_owed_id: done.owedId,
      emailed,
    };
  }

  /** Tells the traveller their new departure, what is still to pay and any refund (after the move commits). */
  private async emailMoved(plan: MovePlan): Promise<boolean> {
    const b = await travellerOf(this.d.db, plan.booking.id);
    if (!b?.email) return false;
    const p = plan.preview;
    const mail = await renderTemplate(await templateOf(this.d.db, 'booking_moved'), {
      ...travellerContext(b),
      booking: { ref: b.ref },
      move: {
        from_name: p.from.name,
        from_departure: emailDate(p.from.departure_date),
        fee: formatPence(plan.feePence),
        refund_owed: formatPence(plan.refundOwedPence),
        schedule: plan.newRows
          .map((r) => `${r.label} ${formatPence(r.amountPence)} due ${emailDate(r.dueDate)}`)
          .join('; '),
      },
      portal: { url: portalUrlOf({ id: b.id, userId: b.userId }, this.d.operator.portalLinks, nowOf(this.d.clock)) },
      operator: { name: this.d.operator.name },
    });
    await this.d.mailer.send({ to: { name: `${b.firstName} ${b.lastName}`, address: b.email }, ...mail });
    await audit(this.d.db, {
      action: 'booking.moved_email',
      subject: { type: 'booking', id: b.id },
      bookingId: b.id,
      summary: `emailed ${b.email} that booking ${b.ref} has moved to ${p.to.name}`,
      details: { ref: b.ref },
    });
    return true;
  }
}
