import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { hideTravellerLabels } from '../../../contract/team-constants.ts';
import type { z } from 'zod';
import {
  type CancelBookingValues,
  type CancelTripValues,
  type Cancelled,
  type CancelPreview,
  type ChangeRules,
  type MyChanges,
  type TripChangeRules,
  type RefundsOwed,
  type refundsOwedQuery,
  type saveChangeRulesSchema,
  DEFAULT_BANDS,
  DEFAULT_MOVE_FEE_PENCE,
  DEFAULT_TRANSFER_FEE_PENCE,
  REFUND_DUE_DAYS,
  TRANSFER_NOTICE_DAYS,
  type TransferBookingValues,
  type TripCancelled,
  type TripCancelPreview,
  type Transferred,
  type TransferPreview,
} from '../../../contract/changes.ts';
import { minimumDeadline } from '../../../contract/change-constants.ts';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { formatPence, penceToPounds } from '../../../contract/money.ts';
import type { Db, Tx } from '../../../db/client.ts';
import {
  bookingAddons,
  bookings,
  changeRules,
  invoices,
  refundsOwed,
  scheduleRows,
  trips,
} from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import type { Operator } from '../../common/operator.ts';
import { portalUrlOf } from '../../common/portal-links.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';
import { emailDate, renderTemplate, templateOf } from '../../mail/templates.ts';
import { travellerContext, travellerOf } from '../../mail/traveller.ts';
import { InvoiceService } from '../invoices/service.ts';
import { trimLeaverShareIn } from '../groups/invoice.ts';
import { redactCopies } from '../retention/redact.ts';
import { endUserFor } from '../users/end-user.ts';
import { bandFor, daysBetween, feeOf, labelIn } from './fees.ts';
import { invoicesByMoney, invoiceFee, oweRefund } from './money.ts';
import { Moves } from './move.ts';
import { Funding } from './funding.ts';
import { Requests } from './requests.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';

export type ChangesDeps = {
  db: Db;
  operator: Operator;
  mailer: Mailer;
  clock: Pick<Clock, 'now'>;
  /** the fundraising targets a change of funding leads to */
  fundraising: FundraisingDefaults;
};

type Rules = { bands: ChangeRules['bands']; transferFeePence: number; moveFeePence: number; saved: boolean };

/** What cancelling a booking does, worked out once and then either shown or done. */
type CancelPlan = {
  preview: CancelPreview;
  booking: { id: number; tripId: number; ref: string; status: string; userId: number | null };
  tripName: string;
  feePence: number;
  paidPence: number;
  refundOwedPence: number;
  stillOwedPence: number;
  deleteInvoiceIds: number[];
  waiveRowIds: number[];
  /** a school group's shares as the pupil leaves: each cut to the school's part of the fee (issue 37) */
  schoolShares: Array<{ id: number; ref: string; keepPence: number; receivedPence: number; unpaid: boolean }>;
  /** the fee the parents bear (all of it, but for a pupil whose school pays a share) */
  parentsFeePence: number;
};

const p = penceToPounds;

/** The old traveller's details a transfer erases from the booking, by what the preview calls them. */
const ERASED_ON_TRANSFER = [
  ['passport number', 'passportNumber'],
  ['passport dates', 'passportExpiryDate'],
  ['passport image', 'passportImageFile'],
  ['nationality', 'nationality'],
  ['date of birth', 'dateOfBirth'],
  ['medical conditions', 'medicalConditions'],
  ['medical details', 'medicalDetail'],
  ['medication', 'medication'],
  ['dietary needs', 'dietary'],
  ['insurance', 'insurancePolicyNumber'],
  ['next of kin', 'nokName'],
  ['address', 'address1'],
] as const;
/** What a transfer does, in words: whose details are replaced, which are erased (`held`), the fee. */
const transferSummary = (name: string, held: readonly string[], feePence: number) =>
  `The booking keeps its reference, payments and history; ${name}'s details are replaced and ${held.length ? `their ${held.join(', ')} erased` : 'nothing else of theirs is held'}. ${feePence > 0 ? `A transfer fee of ${formatPence(feePence)} is invoiced.` : 'No transfer fee.'}`;

/** Every column of the old traveller's own, emptied by a transfer. */
const CLEARED_ON_TRANSFER = {
  passportNumber: null,
  passportIssueDate: null,
  passportExpiryDate: null,
  passportImageFile: null,
  nationality: null,
  gender: null,
  dateOfBirth: null,
  medicalConditions: false,
  medicalDetail: null,
  medication: null,
  dietary: null,
  insuranceCompany: null,
  insurancePolicyNumber: null,
  insuranceTelephone: null,
  nokName: null,
  nokRelationship: null,
  nokEmail: null,
  nokTelephone: null,
  nokAddress: null,
  address1: null,
  address2: null,
  address3: null,
  address4: null,
  postCode: null,
} satisfies Partial<typeof bookings.$inferInsert>;

/**
 * Changes after booking (issue 35): the office's fee scale, and cancelling a booking by it. Every
 * action is previewed by the same function that then does it, inside the action's transaction.
 */
export class ChangesService {
  private readonly invoices: InvoiceService;
  /** moves to another departure (move.ts) */
  readonly moves: Moves;
  /** funding and charity changed after booking (funding.ts) */
  readonly funding: Funding;
  /** travellers' asks to cancel or change (requests.ts) */
  readonly requests: Requests;

  constructor(private readonly d: ChangesDeps) {
    this.invoices = new InvoiceService(d.db, d.operator, d.mailer);
    this.funding = new Funding(d);
    this.requests = new Requests(d);
    this.moves = new Moves(d, this.invoices, async (db, tripId) => (await this.rulesFor(db, tripId)).moveFeePence);
  }

  private today() {
    return ukToday(nowOf(this.d.clock));
  }

  /** The trip's own rules when it has them, else the office's, else the defaults. */
  async rulesFor(db: Db | Tx, tripId: number | null): Promise<Rules> {
    const rows = await db
      .select()
      .from(changeRules)
      .where(
        tripId === null ? isNull(changeRules.tripId) : sql`coalesce(${changeRules.tripId}, ${tripId}) = ${tripId}`,
      );
    const row = rows.find((r) => r.tripId === tripId) ?? rows.find((r) => r.tripId === null);
    return row
      ? { bands: row.bands, transferFeePence: row.transferFeePence, moveFeePence: row.moveFeePence, saved: true }
      : {
          bands: DEFAULT_BANDS,
          transferFeePence: DEFAULT_TRANSFER_FEE_PENCE,
          moveFeePence: DEFAULT_MOVE_FEE_PENCE,
          saved: false,
        };
  }

  async officeRules(): Promise<ChangeRules> {
    const r = await this.rulesFor(this.d.db, null);
    return { bands: r.bands, transfer_fee: p(r.transferFeePence), move_fee: p(r.moveFeePence), saved: r.saved };
  }

  /** The rules a trip's changes are charged by, and whether they are its own or the office's. */
  async tripRules(tripId: number, db: Db | Tx = this.d.db): Promise<TripChangeRules> {
    const [trip] = await db.select({ id: trips.id }).from(trips).where(eq(trips.id, tripId));
    if (!trip) throw notFound('Trip not found');
    const r = await this.rulesFor(db, tripId);
    const [own] = await db.select({ id: changeRules.id }).from(changeRules).where(eq(changeRules.tripId, tripId));
    return {
      bands: r.bands,
      transfer_fee: p(r.transferFeePence),
      move_fee: p(r.moveFeePence),
      saved: r.saved,
      own: own !== undefined,
    };
  }

  async saveOfficeRules(v: z.output<typeof saveChangeRulesSchema>, userId: number): Promise<ChangeRules> {
    await this.saveRules(null, v, userId);
    return this.officeRules();
  }

  async saveTripRules(tripId: number, v: z.output<typeof saveChangeRulesSchema>, userId: number) {
    await this.saveRules(tripId, v, userId);
    return this.tripRules(tripId);
  }

  /** The office's scale and fees (tripId null), or a trip's own, with the event that records them. */
  private async saveRules(tripId: number | null, v: z.output<typeof saveChangeRulesSchema>, userId: number) {
    const bands = [...v.bands].sort(
      (a, b) => (a.funding_type ?? '').localeCompare(b.funding_type ?? '') || b.from_days - a.from_days,
    );
    await this.d.db.transaction(async (tx) => {
      const trip = tripId === null ? null : await this.lockTrip(tx, tripId);
      const before = await this.rulesFor(tx, tripId);
      const now = nowOf(this.d.clock);
      const [existing] = await tx
        .select({ id: changeRules.id })
        .from(changeRules)
        .where(tripId === null ? isNull(changeRules.tripId) : eq(changeRules.tripId, tripId));
      const values = {
        bands,
        transferFeePence: v.transfer_fee,
        moveFeePence: v.move_fee,
        updatedAt: now,
        updatedBy: userId,
      };
      if (existing) await tx.update(changeRules).set(values).where(eq(changeRules.id, existing.id));
      else await tx.insert(changeRules).values({ tripId, ...values });
      const whose = trip ? `${trip.name}'s own` : "the office's";
      await audit(tx, {
        action: trip ? 'trip.changes_saved' : 'settings.changes_saved',
        subject: trip ? { type: 'trip', id: trip.id } : { type: 'settings', id: 0 },
        ...(trip ? { tripId: trip.id } : {}),
        summary: `set ${whose} cancellation scale (${bands.length} bands), transfer fee ${formatPence(v.transfer_fee)} and move fee ${formatPence(v.move_fee)}`,
        details: {
          before: { bands: before.bands, transfer_fee: p(before.transferFeePence), move_fee: p(before.moveFeePence) },
          after: { bands, transfer_fee: p(v.transfer_fee), move_fee: p(v.move_fee) },
        },
      });
    });
  }

  /** The trip goes back to the office's scale and fees. */
  async clearTripRules(tripId: number): Promise<TripChangeRules> {
    await this.d.db.transaction(async (tx) => {
      const trip = await this.lockTrip(tx, tripId);
      const gone = await tx.delete(changeRules).where(eq(changeRules.tripId, tripId)).returning({
        bands: changeRules.bands,
        transfer: changeRules.transferFeePence,
        move: changeRules.moveFeePence,
      });
      if (!gone.length) return;
      await audit(tx, {
        action: 'trip.changes_cleared',
        subject: { type: 'trip', id: tripId },
        tripId,
        summary: `set ${trip.name} back to the office's cancellation scale and fees`,
        details: {
          before: { bands: gone[0]!.bands, transfer_fee: p(gone[0]!.transfer), move_fee: p(gone[0]!.move) },
        },
      });
    });
    return this.tripRules(tripId);
  }

  private async lockTrip(tx: Tx, tripId: number) {
    const [trip] = await tx
      .select({ id: trips.id, name: trips.name, deletedAt: trips.deletedAt })
      .from(trips)
      .where(eq(trips.id, tripId))
      // not FOR UPDATE: a booking being made holds its trip's key share, then asks for this (decision 030)
      .for('no key update');
    if (!trip || trip.deletedAt) throw notFound('Trip not found');
    return trip;
  }

  /** The one function behind both the preview and the cancellation. */
  private async planCancel(tx: Db | Tx, bookingId: number, feeWaived: boolean, lock: boolean): Promise<CancelPlan> {
    const q = tx
      .select({
        id: bookings.id,
        ref: bookings.ref,
        status: bookings.status,
        tripId: bookings.tripId,
        userId: bookings.userId,
        fundingType: bookings.fundingType,
        tripName: trips.name,
        departure: trips.departureDate,
        costPence: trips.costPence,
        depositPence: trips.depositPence,
      })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, bookingId));
    // the invoices held still while the figures are worked out and applied: locked before the booking,
    // in the order a payment takes them (its invoice, then the booking as money owed is kept)
    if (lock)
      await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.bookingId, bookingId)).for('update');
    const [b] = lock ? await q.for('update', { of: bookings }) : await q;
    if (!b) throw notFound('Booking not found');
    const today = this.today();
    const rules = await this.rulesFor(tx, b.tripId);
    const [addons] = await tx
      .select({ pence: sql<number>`coalesce(sum(${bookingAddons.pricePence}), 0)::int`.mapWith(Number) })
      .from(bookingAddons)
      .where(eq(bookingAddons.bookingId, b.id));
    const days = daysBetween(today, b.departure);
    const band = bandFor(rules.bands, b.fundingType, days);
    const scaleFee = feeOf(band, {
      tripCostPence: b.costPence,
      depositPence: b.depositPence,
      addonsPence: addons?.pence ?? 0,
    });
    const feePence = feeWaived ? 0 : scaleFee;

    const split = await invoicesByMoney(tx, b.id);
    // a pupil of a school group whose school pays a share (issue 37): the fee is borne by the school
    // and the parents in the shares they pay of the cost; the school's money is never counted for,
    // or owed back to, the parents: its share becomes its part of the fee, what it paid beyond that
    // a credit on its group invoice
    const shares = [...split.unpaid, ...split.withMoney].filter((l) => l.groupId !== null);
    const sharePence = Math.min(
      b.costPence,
      shares.reduce((a, l) => a + l.summary.totalPence, 0),
    );
    const schoolFeePence = b.costPence > 0 ? Math.round((feePence * sharePence) / b.costPence) : 0;
    const parentsFeePence = feePence - schoolFeePence;
    const schoolShares = shares
      .map((l, i) => ({
        id: l.reply.id,
        ref: l.reply.invoice_ref,
        // the school's part of the fee, on its first share (a pupil has one)
        keepPence: i === 0 ? schoolFeePence : 0,
        receivedPence: l.summary.receivedPence,
        unpaid: split.unpaid.includes(l),
      }))
      .filter((sh) => !(sh.unpaid && sh.keepPence === 0));
    const toDelete = split.unpaid.filter((l) => !schoolShares.some((sh) => sh.id === l.reply.id)).map((l) => l.reply);
    const kept = split.withMoney.map((l) => l.reply);
    const paidPence = split.withMoney
      .filter((l) => l.groupId === null)
      .reduce((a, l) => a + l.summary.receivedPence, 0);
    const schoolPaidPence = shares.reduce((a, l) => a + l.summary.receivedPence, 0);
    const rows = await tx
      .select({
        id: scheduleRows.id,
        label: scheduleRows.label,
        dueDate: scheduleRows.dueDate,
        amountPence: scheduleRows.amountPence,
      })
      .from(scheduleRows)
      .where(
        and(
          eq(scheduleRows.bookingId, b.id),
          eq(scheduleRows.waived, false),
          // not yet invoiced, or invoiced by an unpaid invoice that goes
          toDelete.length
            ? or(
                isNull(scheduleRows.invoiceId),
                inArray(
                  scheduleRows.invoiceId,
                  toDelete.map((i) => i.id),
                ),
              )
            : isNull(scheduleRows.invoiceId),
        ),
      )
      .orderBy(asc(scheduleRows.position));
    const refundOwedPence = Math.max(0, paidPence - parentsFeePence);
    const stillOwedPence = Math.max(0, parentsFeePence - paidPence);
    const schoolPart =
      shares.length === 0
        ? ''
        : ` The school bears ${formatPence(schoolFeePence)} of the fee: its share becomes that${
            schoolPaidPence > schoolFeePence
              ? `, and the ${formatPence(schoolPaidPence - schoolFeePence)} it paid beyond it is its credit on the group invoice`
              : schoolPaidPence < schoolFeePence
                ? `, ${formatPence(schoolFeePence - schoolPaidPence)} of it still to pay on the group invoice`
                : ''
          }.`;
    const refused = b.status === 'cancelled' ? 'This booking is already cancelled.' : null;
    const summary = refused
      ? refused
      : `${feeWaived ? `No fee: waived (the scale would keep ${formatPence(scaleFee)})` : `The fee is ${formatPence(feePence)}${band ? ` (${labelIn(rules.bands, band)})` : ''}`}. ${formatPence(paidPence)} has been paid: ${
          refundOwedPence > 0
            ? `${formatPence(refundOwedPence)} is owed back by ${emailDate(addDays(today, REFUND_DUE_DAYS))}`
            : stillOwedPence > 0
              ? `a cancellation invoice for ${formatPence(stillOwedPence)} is raised`
              : 'nothing is owed either way'
        }.${schoolPart}`;
    return {
      booking: { id: b.id, tripId: b.tripId, ref: b.ref, status: b.status, userId: b.userId },
      tripName: b.tripName,
      feePence,
      paidPence,
      refundOwedPence,
      stillOwedPence,
      deleteInvoiceIds: toDelete.map((i) => i.id),
      waiveRowIds: rows.map((r) => r.id),
      schoolShares,
      parentsFeePence,
      preview: {
        booking_id: b.id,
        ref: b.ref,
        cancellable: refused === null,
        refused,
        days_before_departure: days,
        band: band ? { ...band, label: labelIn(rules.bands, band) } : null,
        trip_cost: p(b.costPence),
        deposit: p(b.depositPence),
        scale_fee: p(scaleFee),
        fee_waived: feeWaived,
        fee: p(feePence),
        paid: p(paidPence),
        refund_owed: p(refundOwedPence),
        refund_due_on: refundOwedPence > 0 ? addDays(today, REFUND_DUE_DAYS) : null,
        still_owed: p(stillOwedPence),
        invoices_deleted: toDelete.map((i) => ({ id: i.id, ref: i.invoice_ref, total: i.total })),
        invoices_kept: kept.map((i) => ({
          id: i.id,
          ref: i.invoice_ref,
          total: i.total,
          paid: i.payment_received,
          outstanding: i.outstanding,
        })),
        rows_waived: rows.map((r) => ({ id: r.id, label: r.label, due_date: r.dueDate, amount: p(r.amountPence) })),
        summary,
      },
    };
  }

  async cancelPreview(bookingId: number, feeWaived: boolean): Promise<CancelPreview> {
    return (await this.planCancel(this.d.db, bookingId, feeWaived, false)).preview;
  }

  /**
   * Cancels a booking by the scale, in one transaction: unpaid invoices deleted, instalments not yet
   * invoiced waived, the fee left to pay invoiced or what was paid beyond it owed back within 14 days,
   * and one event with the figures. The traveller is emailed afterwards when asked.
   */
  async cancel(bookingId: number, v: CancelBookingValues, userId: number): Promise<Cancelled> {
    const done = await this.d.db.transaction(async (tx) => {
      const plan = await this.planCancel(tx, bookingId, v.fee_waived, true);
      if (!plan.preview.cancellable) throw new HttpError(409, plan.preview.refused!);
      return this.applyCancel(tx, plan, v, userId);
    });
    const emailed = v.notify ? await this.emailCancelled(done.plan, v).catch(() => false) : false;
    return {
      ...done.plan.preview,
      cancellable: false,
      refused: null,
      message: `Booking ${done.plan.booking.ref} is cancelled.${emailed ? ' The traveller has been emailed.' : v.notify ? ' The email to the traveller could not be sent.' : ''}`,
      cancellation_invoice_id: done.invoiceId,
      refund_owed_id: done.owedId,
      emailed,
    };
  }

  /** Does what a cancellation's plan says, in the caller's transaction, with its event. */
  private async applyCancel(tx: Tx, plan: CancelPlan, v: CancelBookingValues, userId: number) {
    const bookingId = plan.booking.id;
    const today = this.today();
    const now = nowOf(this.d.clock);
    for (const id of plan.deleteInvoiceIds) await this.invoices.deleteIn(tx, id);
    const sharesCut: string[] = [];
    for (const share of plan.schoolShares)
      if (await trimLeaverShareIn(tx, share.id, share.keepPence)) sharesCut.push(share.ref);
    if (plan.waiveRowIds.length)
      await tx
        .update(scheduleRows)
        .set({ waived: true, waivedReason: 'The booking was cancelled.', updatedAt: now })
        .where(inArray(scheduleRows.id, plan.waiveRowIds));
    await tx
      .update(bookings)
      .set({ status: 'cancelled', holdExpiresAt: null, updatedAt: now })
      .where(eq(bookings.id, bookingId));
    // a traveller's open asks are answered by the cancellation
    await this.requests.closeOpenOf(tx, bookingId, 'done', 'The booking was cancelled.', userId);
    const invoiceId =
      plan.stillOwedPence > 0
        ? await invoiceFee(this.invoices, tx, {
            bookingId,
            tripId: plan.booking.tripId,
            type: 'cancellation',
            description: `Cancellation of booking ${plan.booking.ref}`,
            item:
              plan.paidPence > 0
                ? `Cancellation fee ${formatPence(plan.parentsFeePence)}, less ${formatPence(plan.paidPence)} paid`
                : 'Cancellation fee',
            pence: plan.stillOwedPence,
            today,
            userId,
          })
        : null;
    const owedId =
      plan.refundOwedPence > 0
        ? await oweRefund(tx, {
            bookingId,
            pence: plan.refundOwedPence,
            reason: `Cancellation of ${plan.booking.ref}: ${formatPence(plan.paidPence)} paid, ${formatPence(plan.feePence)} kept`,
            today,
            userId,
          })
        : null;
    await audit(tx, {
      action: 'booking.cancelled',
      subject: { type: 'booking', id: bookingId },
      bookingId,
      tripId: plan.booking.tripId,
      summary: `cancelled booking ${plan.booking.ref}: ${plan.preview.summary}`,
      details: {
        reason: v.reason,
        fee_waived: v.fee_waived,
        waived_reason: v.waived_reason,
        band: plan.preview.band?.label ?? null,
        days_before_departure: plan.preview.days_before_departure,
        fee: plan.preview.fee,
        scale_fee: plan.preview.scale_fee,
        paid: plan.preview.paid,
        refund_owed: plan.preview.refund_owed,
        still_owed: plan.preview.still_owed,
        invoices_deleted: plan.preview.invoices_deleted.map((i) => i.ref),
        ...(sharesCut.length ? { school_shares_cut_to_its_fee: sharesCut } : {}),
        rows_waived: plan.waiveRowIds.length,
        cancellation_invoice_id: invoiceId,
        refund_owed_id: owedId,
      },
      changes: { status: [plan.booking.status, 'cancelled'] },
    });
    return { plan, invoiceId, owedId };
  }

  private async emailCancelled(plan: CancelPlan, v: CancelBookingValues): Promise<boolean> {
    const b = await travellerOf(this.d.db, plan.booking.id);
    if (!b?.email) return false;
    const template = await templateOf(this.d.db, 'booking_cancelled');
    const mail = await renderTemplate(template, {
      ...travellerContext(b),
      booking: { ref: b.ref, status: 'cancelled' },
      cancellation: {
        reason: v.reason,
        fee: formatPence(plan.feePence),
        paid: formatPence(plan.paidPence),
        refund_owed: formatPence(plan.refundOwedPence),
        refund_due_on: plan.preview.refund_due_on ? emailDate(plan.preview.refund_due_on) : '',
        still_owed: formatPence(plan.stillOwedPence),
        fee_waived: v.fee_waived,
      },
      portal: {
        url: portalUrlOf({ id: b.id, userId: b.userId }, this.d.operator.portalLinks, nowOf(this.d.clock)),
      },
      operator: { name: this.d.operator.name },
    });
    await this.d.mailer.send({ to: { name: `${b.firstName} ${b.lastName}`, address: b.email }, ...mail });
    await audit(this.d.db, {
      action: 'booking.cancelled_email',
      subject: { type: 'booking', id: b.id },
      bookingId: b.id,
      tripId: plan.booking.tripId,
      summary: `emailed ${b.email} that booking ${b.ref} is cancelled`,
      details: { ref: b.ref },
    });
    return true;
  }

  /** What passing this booking to another traveller does; the one function behind the preview and the transfer. */
  private async planTransfer(tx: Db | Tx, bookingId: number, feeWaived: boolean, lock: boolean, hide = false) {
    const q = tx
      .select({ booking: bookings, departure: trips.departureDate })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, bookingId));
    const [row] = lock ? await q.for('update', { of: bookings }) : await q;
    if (!row) throw notFound('Booking not found');
    const b = row.booking;
    const rules = await this.rulesFor(tx, b.tripId);
    const days = daysBetween(this.today(), row.departure);
    const feePence = feeWaived ? 0 : rules.transferFeePence;
    const refused =
      b.status === 'cancelled'
        ? 'This booking is cancelled: it cannot be passed to another traveller.'
        : days < 0
          ? 'The trip has departed: the booking cannot be passed to another traveller.'
          : null;
    const found = ERASED_ON_TRANSFER.filter(([, column]) => {
      const v = b[column];
      return v !== null && v !== false && v !== '';
    }).map(([label]): string => label);
    // for a team without traveller data, which of those are held is not said either
    const held = hide ? hideTravellerLabels(found) : found;
    const preview: TransferPreview = {
      booking_id: b.id,
      ref: b.ref,
      transferable: refused === null,
      refused,
      days_before_departure: days,
      needs_override: refused === null && days < TRANSFER_NOTICE_DAYS,
      fee_waived: feeWaived,
      fee: p(feePence),
      from: { name: `${b.firstName} ${b.lastName}`, email: b.email },
      erased: held,
      summary: refused ?? transferSummary(`${b.firstName} ${b.lastName}`, held, feePence),
    };
    return { preview, booking: b, feePence };
  }

  async transferPreview(bookingId: number, feeWaived: boolean, hideTravellerData = false): Promise<TransferPreview> {
    return (await this.planTransfer(this.d.db, bookingId, feeWaived, false, hideTravellerData)).preview;
  }

  /**
   * Passes a booking to another traveller (reg 9): the booking keeps its reference, money and
   * history; the traveller's details become the new traveller's (an End User found or made by
   * email), the old traveller's passport, medical, next-of-kin and personal details are erased
   * from it and from the copies its history keeps, and the transfer fee is invoiced. Within 7 days
   * of departure only with an Administrator's reason. Both travellers are emailed afterwards.
   */
  async transfer(
    bookingId: number,
    v: TransferBookingValues,
    userId: number,
    hideTravellerData = false,
  ): Promise<Transferred> {
    const done = await this.d.db.transaction(async (tx) => {
      const plan = await this.planTransfer(tx, bookingId, v.fee_waived, true);
      if (!plan.preview.transferable) throw new HttpError(409, plan.preview.refused!);
      if (plan.preview.needs_override && !v.override_reason)
        throw validationError({
          override_reason: [
            `The trip departs in ${plan.preview.days_before_departure} days: say why the place may pass so late.`,
          ],
        });
      const old = plan.booking;
      if (old.email.toLowerCase() === v.email.toLowerCase())
        throw validationError({ email: ['The new traveller’s email is the same as the present one’s.'] });
      const now = nowOf(this.d.clock);
      const account = await endUserFor(tx, v);
      const newUserId = account.id;
      // the old traveller's special-category details, as held, for the copies the history keeps
      const heldValues = Object.fromEntries(
        Object.keys(CLEARED_ON_TRANSFER).map((column) => [column, old[column as keyof typeof old]]),
      );
      await tx
        .update(bookings)
        .set({
          userId: newUserId,
          title: v.title,
          firstName: v.first_name,
          lastName: v.last_name,
          preferredName: v.preferred_name,
          email: v.email,
          mobile: v.mobile,
          asOnPassport: false,
          formComplete: false,
          ...CLEARED_ON_TRANSFER,
          updatedAt: now,
        })
        .where(eq(bookings.id, bookingId));
      await redactCopies(tx, bookingId, heldValues);
      const fromName = `${old.firstName} ${old.lastName}`;
      const toName = `${v.first_name} ${v.last_name}`;
      const today = this.today();
      const invoiceId =
        plan.feePence > 0
          ? await invoiceFee(this.invoices, tx, {
              bookingId,
              tripId: old.tripId,
              type: 'other',
              description: `Transfer of booking ${old.ref} to ${toName}`,
              item: 'Transfer fee',
              pence: plan.feePence,
              today,
              userId,
            })
          : null;
      await audit(tx, {
        action: 'booking.transferred',
        subject: { type: 'booking', id: bookingId },
        bookingId,
        tripId: old.tripId,
        summary: `passed booking ${old.ref} from ${fromName} to ${toName}${plan.feePence > 0 ? ` (transfer fee ${formatPence(plan.feePence)})` : ', no fee'}`,
        details: {
          from: fromName,
          to: toName,
          new_user: account.created,
          fee: p(plan.feePence),
          fee_waived: v.fee_waived,
          override_reason: v.override_reason,
          days_before_departure: plan.preview.days_before_departure,
          erased: plan.preview.erased,
          fee_invoice_id: invoiceId,
        },
        changes: {
          first_name: [old.firstName, v.first_name],
          last_name: [old.lastName, v.last_name],
          email: [old.email, v.email],
        },
      });
      return {
        plan,
        invoiceId,
        newUserId,
        from: {
          name: fromName,
          email: old.email,
          title: old.title,
          first: old.firstName,
          last: old.lastName,
          preferred: old.preferredName,
        },
      };
    });
    let emailed = 0;
    if (v.notify) {
      const trip = await this.d.db
        .select({ name: trips.name, departure: trips.departureDate })
        .from(trips)
        .where(eq(trips.id, done.plan.booking.tripId));
      const send = async (
        to: {
          name: string;
          email: string;
          title: string | null;
          first: string;
          last: string;
          preferred: string | null;
        },
        toYou: boolean,
      ) => {
        const template = await templateOf(this.d.db, 'booking_transferred');
        const mail = await renderTemplate(template, {
          traveller: { title: to.title, first_name: to.first, last_name: to.last, preferred_name: to.preferred },
          booking: { ref: done.plan.booking.ref },
          trip: { name: trip[0]!.name, departure: emailDate(trip[0]!.departure) },
          transfer: {
            from_name: done.from.name,
            to_name: `${v.first_name} ${v.last_name}`,
            fee: formatPence(done.plan.feePence),
            to_you: toYou,
          },
          portal: {
            url: toYou
              ? portalUrlOf({ id: bookingId, userId: done.newUserId }, this.d.operator.portalLinks, nowOf(this.d.clock))
              : '',
          },
          operator: { name: this.d.operator.name },
        });
        await this.d.mailer.send({ to: { name: to.name, address: to.email }, ...mail });
        await audit(this.d.db, {
          action: 'booking.transferred_email',
          subject: { type: 'booking', id: bookingId },
          bookingId,
          summary: `emailed ${to.email} that booking ${done.plan.booking.ref} has passed to ${v.first_name} ${v.last_name}`,
          details: { ref: done.plan.booking.ref, to_new_traveller: toYou },
        });
        emailed += 1;
      };
      await send(done.from, false).catch(() => undefined);
      await send(
        {
          name: `${v.first_name} ${v.last_name}`,
          email: v.email,
          title: v.title,
          first: v.first_name,
          last: v.last_name,
          preferred: v.preferred_name,
        },
        true,
      ).catch(() => undefined);
    }
    const preview = done.plan.preview;
    const erased = hideTravellerData ? hideTravellerLabels(preview.erased) : preview.erased;
    return {
      ...preview,
      erased,
      summary: transferSummary(preview.from.name, erased, done.plan.feePence),
      transferable: true,
      refused: null,
      message: `Booking ${done.plan.booking.ref} has passed to ${v.first_name} ${v.last_name}.${v.notify ? (emailed === 2 ? ' Both travellers have been emailed.' : ' Not every email could be sent.') : ''}`,
      fee_invoice_id: done.invoiceId,
      emailed,
    };
  }

  /** The traveller's own view: what cancelling today would cost (the staff preview's figures), and their asks. */
  async forTraveller(bookingId: number, mayAsk: boolean): Promise<MyChanges> {
    const { preview } = await this.planCancel(this.d.db, bookingId, false, false);
    return {
      may_ask: mayAsk,
      cancel: {
        days_before_departure: preview.days_before_departure,
        band: preview.band?.label ?? null,
        fee: preview.fee,
        paid: preview.paid,
        refund_owed: preview.refund_owed,
        still_owed: preview.still_owed,
      },
      requests: (await this.requests.ofBooking(bookingId)).map((r) => ({
        id: r.id,
        kind: r.kind,
        message: r.message,
        state: r.state,
        created_at: r.created_at,
        closed_at: r.closed_at,
        closed_note: r.closed_note,
      })),
    };
  }

  /** What the operator cancelling a departure does; the one function behind its preview and the action. */
  private async planTripCancel(tx: Db | Tx, tripId: number, lock: boolean) {
    const q = tx.select().from(trips).where(eq(trips.id, tripId));
    const [trip] = lock ? await q.for('no key update') : await q;
    if (!trip || trip.deletedAt) throw notFound('Trip not found');
    const today = this.today();
    const live = await tx
      .select({ id: bookings.id, firstName: bookings.firstName, lastName: bookings.lastName })
      .from(bookings)
      .where(and(eq(bookings.tripId, tripId), ne(bookings.status, 'cancelled')))
      .orderBy(asc(bookings.id));
    const plans: CancelPlan[] = [];
    for (const b of live) plans.push(await this.planCancel(tx, b.id, true, lock));
    const days = daysBetween(today, trip.departureDate);
    const owedPence = plans.reduce((sum, pl) => sum + pl.refundOwedPence, 0);
    const deadline = trip.minimum === null ? null : minimumDeadline(trip.departureDate, trip.returnDate);
    const refused =
      trip.status === 'cancelled'
        ? 'This departure is already cancelled.'
        : days < 0
          ? 'This trip has departed: it cannot be cancelled.'
          : null;
    const preview: TripCancelPreview = {
      trip_id: trip.id,
      name: trip.name,
      departure_date: trip.departureDate,
      cancellable: refused === null,
      refused,
      days_before_departure: days,
      minimum: trip.minimum,
      booked: live.length,
      below_minimum: trip.minimum !== null && live.length < trip.minimum,
      minimum_deadline: deadline,
      bookings: plans.map((pl, i) => ({
        booking_id: pl.booking.id,
        ref: pl.booking.ref,
        traveller: `${live[i]!.firstName} ${live[i]!.lastName}`,
        paid: p(pl.paidPence),
        refund_owed: p(pl.refundOwedPence),
        invoices_deleted: pl.deleteInvoiceIds.length,
      })),
      refund_owed: p(owedPence),
      refund_due_on: owedPence > 0 ? addDays(today, REFUND_DUE_DAYS) : null,
      summary:
        refused ??
        `${live.length === 1 ? 'The 1 booking' : `All ${live.length} bookings`} of ${trip.name} ${live.length === 1 ? 'is' : 'are'} cancelled with no fee${owedPence > 0 ? `, and ${formatPence(owedPence)} paid is owed back by ${emailDate(addDays(today, REFUND_DUE_DAYS))}` : ''}. The trip becomes cancelled.`,
    };
    return { trip, plans, preview };
  }

  async tripCancelPreview(tripId: number): Promise<TripCancelPreview> {
    return (await this.planTripCancel(this.d.db, tripId, false)).preview;
  }

  /**
   * The operator cancels a departure (reg 13, or any reason of its own): in one transaction every
   * live booking is cancelled with no fee, all that was paid owed back within 14 days, and the trip
   * becomes cancelled. Each traveller is emailed afterwards when asked.
   */
  async cancelTrip(tripId: number, v: CancelTripValues, userId: number): Promise<TripCancelled> {
    const why = v.extraordinary
      ? `Unavoidable and extraordinary circumstances: ${v.reason}`
      : `The operator cancelled the departure: ${v.reason}`;
    const each: CancelBookingValues = { reason: why, fee_waived: true, waived_reason: why, notify: v.notify };
    const done = await this.d.db.transaction(async (tx) => {
      const { trip, plans, preview } = await this.planTripCancel(tx, tripId, true);
      if (!preview.cancellable) throw new HttpError(409, preview.refused!);
      for (const plan of plans) await this.applyCancel(tx, plan, each, userId);
      await tx
        .update(trips)
        .set({ status: 'cancelled', updatedAt: nowOf(this.d.clock) })
        .where(eq(trips.id, tripId));
      await audit(tx, {
        action: 'trip.cancelled',
        subject: { type: 'trip', id: tripId },
        tripId,
        summary: `cancelled the departure ${trip.name}: ${preview.summary}`,
        details: {
          reason: v.reason,
          extraordinary: v.extraordinary,
          bookings: preview.bookings.map((b) => b.ref),
          refund_owed: preview.refund_owed,
          minimum: preview.minimum,
          booked: preview.booked,
        },
        changes: { status: [trip.status, 'cancelled'] },
      });
      return { plans, preview };
    });
    let emailed = 0;
    if (v.notify)
      for (const plan of done.plans) if (await this.emailCancelled(plan, each).catch(() => false)) emailed += 1;
    const n = done.plans.length;
    return {
      ...done.preview,
      cancellable: false,
      refused: null,
      message: `${done.preview.name} is cancelled${n ? `, with its ${n === 1 ? 'booking' : `${n} bookings`}` : ''}.${v.notify && n ? (emailed === n ? ' Every traveller has been emailed.' : ` ${emailed} of ${n} travellers could be emailed.`) : ''}`,
      emailed,
    };
  }

  /** Refunds owed, the soonest due first; open ones carry their days left (negative when late). */
  async refundsOwed(q: z.output<typeof refundsOwedQuery>): Promise<RefundsOwed> {
    const today = this.today();
    const where = and(
      q.state ? eq(refundsOwed.state, q.state) : undefined,
      q.overdue ? and(eq(refundsOwed.state, 'open'), sql`${refundsOwed.dueOn} < ${today}`) : undefined,
      q.booking_id ? eq(refundsOwed.bookingId, q.booking_id) : undefined,
    );
    const rows = await this.d.db
      .select({
        id: refundsOwed.id,
        bookingId: refundsOwed.bookingId,
        ref: bookings.ref,
        firstName: bookings.firstName,
        lastName: bookings.lastName,
        tripName: trips.name,
        amountPence: refundsOwed.amountPence,
        reason: refundsOwed.reason,
        dueOn: refundsOwed.dueOn,
        state: refundsOwed.state,
        settledAt: refundsOwed.settledAt,
        createdAt: refundsOwed.createdAt,
      })
      .from(refundsOwed)
      .innerJoin(bookings, eq(bookings.id, refundsOwed.bookingId))
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(where)
      .orderBy(sql`${refundsOwed.state} = 'settled'`, asc(refundsOwed.dueOn), asc(refundsOwed.id))
      .limit(500);
    const [totals] = await this.d.db
      .select({
        open: sql<number>`coalesce(sum(${refundsOwed.amountPence}), 0)::bigint`.mapWith(Number),
        overdue: sql<number>`count(*) filter (where ${refundsOwed.dueOn} < ${today})::int`.mapWith(Number),
      })
      .from(refundsOwed)
      .where(eq(refundsOwed.state, 'open'));
    return {
      data: rows.map((r) => {
        const daysLeft = daysBetween(today, r.dueOn);
        return {
          id: r.id,
          booking_id: r.bookingId,
          booking_ref: r.ref,
          traveller: `${r.firstName} ${r.lastName}`,
          trip_name: r.tripName,
          amount: p(r.amountPence),
          reason: r.reason,
          due_on: r.dueOn,
          days_left: daysLeft,
          overdue: r.state === 'open' && daysLeft < 0,
          state: r.state as 'open' | 'settled',
          settled_at: r.settledAt?.toISOString() ?? null,
          created_at: r.createdAt.toISOString(),
        };
      }),
      total_open: p(totals?.open ?? 0),
      overdue: totals?.overdue ?? 0,
    };
  }
}
