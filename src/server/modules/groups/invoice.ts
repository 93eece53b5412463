import QRCode from 'qrcode';
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { addDays, ukToday } from '../../../contract/dates.ts';
import {
  groupInvoiceRef,
  schoolPaysPence,
  type GroupInvoice,
  type GroupPayment,
  type GroupPaymentValues,
} from '../../../contract/groups.ts';
import {
  BALANCE_DUE_DAYS_BEFORE_DEPARTURE,
  PROCESSOR_LABELS,
  type Processor,
} from '../../../contract/invoice-constants.ts';
import { formatPence, formatPounds, penceToPounds } from '../../../contract/money.ts';
import type { Db, Tx } from '../../../db/client.ts';
import {
  bookings,
  invoiceItems,
  invoices,
  schoolGroups,
  scheduleRows,
  transactions,
  trips,
} from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { groupPayLinkOf, type PayLinkSettings } from '../../common/pay-links.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import type { Operator } from '../../common/operator.ts';
import { notFound, validationError } from '../../errors.ts';
import { loadInvoices } from '../invoices/load.ts';
import { a4, day } from '../invoices/pdf.ts';
import { InvoiceService } from '../invoices/service.ts';
import { insertEntry } from '../invoices/transactions.ts';
import type { ScheduleService } from '../schedules/service.ts';

export type GroupInvoiceDeps = { db: Db; clock: Pick<Clock, 'now'>; operator: Operator; mailer: Mailer };

type GroupRow = { id: number; tripId: number; school: string; payer: string; schoolSharePence: number | null };
type TripRow = { name: string; costPence: number; departureDate: string };

/** When a pupil's share is due: the balance date (8 weeks before departure), or today when that has passed. */
const shareDue = (departure: string, today: string) => {
  const balance = addDays(departure, -BALANCE_DUE_DAYS_BEFORE_DEPARTURE);
  return balance > today ? balance : today;
};

/**
 * A school group's invoice (issue 37). The school's share of each pupil is an invoice of its own
 * on the pupil's booking, marked with the group: raised as the pupil joins, gone (or cut to what
 * was paid) as they leave. The group invoice is their sum, with its own reference; a payment
 * from the school is split to them, oldest first. The shares are never the parents': they are
 * not in money owed, on the parents' page, in their reminders or in a refund owed to them.
 */
export class GroupInvoiceService {
  private readonly invoices: InvoiceService;

  constructor(private readonly d: GroupInvoiceDeps) {
    this.invoices = new InvoiceService(d.db, d.operator, d.mailer);
  }

  private today() {
    return ukToday(nowOf(this.d.clock));
  }

  /** The school's share of one pupil raised on their booking, in the caller's transaction; null when the parents pay it all. */
  async raiseShareIn(
    tx: Tx,
    group: GroupRow,
    trip: TripRow,
    pupil: { bookingId: number; name: string },
    createdBy: number | null,
  ): Promise<number | null> {
    const pence = schoolPaysPence(trip.costPence, group);
    if (pence <= 0) return null;
    const today = this.today();
    const id = await this.invoices.raiseIn(tx, {
      bookingId: pupil.bookingId,
      tripId: group.tripId,
      type: 'other',
      invoiceRef: null,
      description: `${group.school}: the school’s share (${groupInvoiceRef(group.id)})`,
      invoiceDate: today,
      dueDate: shareDue(trip.departureDate, today),
      items: [{ description: `The school’s share of ${pupil.name}’s place on ${trip.name}`, amountPence: pence }],
      addons: [],
      discountCode: null,
      createdBy,
    });
    await tx.update(invoices).set({ groupId: group.id }).where(eq(invoices.id, id));
    return id;
  }

  /**
   * Who pays changed (the office's edit of the group): while no money is recorded for any of its
   * pupils and nothing of the parents' is invoiced, each pupil's schedule and share are made again;
   * after that, who pays stays as it is.
   */
  async repriceIn(tx: Tx, group: GroupRow, schedules: ScheduleService, createdBy: number): Promise<number> {
    const pupils = await tx
      .select({
        id: bookings.id,
        firstName: bookings.firstName,
        lastName: bookings.lastName,
        createdAt: bookings.createdAt,
      })
      .from(bookings)
      .where(and(eq(bookings.groupId, group.id), sql`${bookings.status} in ('provisional', 'confirmed')`))
      .orderBy(asc(bookings.id))
      .for('update');
    if (!pupils.length) return 0;
    const ids = pupils.map((p) => p.id);
    const [money] = await tx
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(transactions)
      .where(inArray(transactions.bookingId, ids));
    const [invoiced] = await tx
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(scheduleRows)
      .where(and(inArray(scheduleRows.bookingId, ids), isNotNull(scheduleRows.invoiceId)));
    if ((money?.n ?? 0) > 0 || (invoiced?.n ?? 0) > 0)
      throw validationError({
        payer: [
          'Who pays cannot change now: money is recorded or invoiced for pupils of this group. Change their invoices one by one instead.',
        ],
      });
    const [trip] = await tx
      .select({ name: trips.name, costPence: trips.costPence, departureDate: trips.departureDate })
      .from(trips)
      .where(eq(trips.id, group.tripId));
    const shares = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.groupId, group.id), inArray(invoices.bookingId, ids)));
    for (const s of shares) await this.invoices.deleteIn(tx, s.id);
    await tx.delete(scheduleRows).where(inArray(scheduleRows.bookingId, ids));
    for (const p of pupils) {
      // made again as it was first made: from the day the pupil joined
      await schedules.createFor(tx, { id: p.id, tripId: group.tripId, bookedOn: ukToday(p.createdAt) });
      await this.raiseShareIn(tx, group, trip!, { bookingId: p.id, name: `${p.firstName} ${p.lastName}` }, createdBy);
    }
    return pupils.length;
  }

  /** The group invoice, or null when the parents pay and the school has no share. */
  forGroup(groupId: number, pdfUrl: string, db: Db | Tx = this.d.db): Promise<GroupInvoice | null> {
    return groupInvoiceOf(db, groupId, {
      pdfUrl,
      pay: { settings: this.d.operator.payLinks, now: nowOf(this.d.clock) },
    });
  }

  /**
   * Money the school paid, split to its pupils' shares, the one due first (then the oldest) first,
   * each part a payment on that share: in one transaction with the shares locked, so two payments
   * at once cannot both take the same money. More than the school owes is refused.
   */
  async recordPayment(groupId: number, v: GroupPaymentValues, userId: number, pdfUrl: string): Promise<GroupPayment> {
    if (v.date > this.today()) throw validationError({ date: ['The date must not be in the future.'] });
    const split = await this.d.db.transaction(async (tx) => {
      const parts = await splitToShares(tx, groupId, v.amount, {
        processor: v.processor,
        date: v.date,
        notes: v.notes,
        providerRef: null,
        createdBy: userId,
        over: 'refuse',
      });
      return parts;
    });
    const invoice = (await this.forGroup(groupId, pdfUrl))!;
    return {
      message: `${formatPence(v.amount)} from ${invoice.school} is recorded on ${invoice.ref}, split to ${split.length} pupil${split.length === 1 ? '' : 's'}. ${invoice.outstanding > 0 ? `${formatPounds(invoice.outstanding)} is still outstanding.` : 'The group invoice is paid in full.'}`,
      split: split.map((p) => ({
        booking_ref: p.booking_ref,
        invoice_ref: p.invoice_ref,
        amount: penceToPounds(p.pence),
      })),
      invoice,
    };
  }

  /** The group invoice as an A4 PDF, billed to the school: one line per pupil. */
  async pdf(groupId: number): Promise<{ pdf: Buffer; ref: string }> {
    const invoice = await this.forGroup(groupId, '');
    if (!invoice) throw notFound('This group has no group invoice: the parents pay.');
    const [g] = await this.d.db
      .select({ leaderName: schoolGroups.leaderName, leaderEmail: schoolGroups.leaderEmail })
      .from(schoolGroups)
      .where(eq(schoolGroups.id, groupId));
    const operator = this.d.operator;
    const { pdf, done, left, width, row, rule } = a4(`Invoice ${invoice.ref}`, operator.name);
    pdf.font('Body-Bold').fontSize(16).text(operator.name, left, 50);
    pdf.font('Body').fontSize(10).text(operator.address.join('\n'));
    pdf.font('Body-Bold').fontSize(22).text('INVOICE', left, 50, { width, align: 'right' });
    pdf.font('Body').fontSize(10);
    pdf.text(`Reference: ${invoice.ref}`, { width, align: 'right' });
    pdf.text(`Date: ${day(this.today())}`, { width, align: 'right' });
    if (invoice.due_date) pdf.text(`Due: ${day(invoice.due_date)}`, { width, align: 'right' });
    pdf.moveDown(3);
    const y = Math.max(pdf.y, 150);
    pdf.font('Body-Bold').text('Bill to', left, y);
    pdf.font('Body').text([invoice.school, `For the attention of ${g!.leaderName}`, g!.leaderEmail].join('\n'), {
      width: width / 2 - 10,
    });
    const billed = pdf.y;
    pdf.font('Body-Bold').text('Trip', left + width / 2, y);
    pdf.font('Body').text(`${invoice.trip.name}\nDeparts ${day(invoice.trip.departure)}`, left + width / 2, undefined, {
      width: width / 2,
    });
    pdf.y = Math.max(billed, pdf.y) + 24;
    pdf.font('Body-Bold').fontSize(12).text(`The school’s share for each pupil`, left);
    pdf.moveDown(0.5);
    row('Pupil', 'Amount', true);
    rule();
    for (const l of invoice.lines)
      row(
        `${l.pupil} (${l.booking_ref})${l.left ? ' — left the group: what was paid is kept' : ''}`,
        formatPounds(l.amount),
      );
    rule();
    row('Total', formatPounds(invoice.total), true);
    row('Payments received', formatPounds(invoice.paid));
    row('Outstanding', formatPounds(invoice.outstanding), true);
    pdf.moveDown(2);
    pdf
      .font('Body')
      .fontSize(10)
      .text(
        invoice.outstanding > 0
          ? `Please pay ${formatPounds(invoice.outstanding)}${invoice.due_date ? ` by ${day(invoice.due_date)}` : ''}, quoting ${invoice.ref}.`
          : 'This invoice is paid in full. Thank you.',
        left,
      );
    if (invoice.pay_url) {
      // the school's pay link, as a link and as a QR code for a phone held up to the page
      const qr = await QRCode.toBuffer(invoice.pay_url, { margin: 1, width: 180, errorCorrectionLevel: 'M' });
      pdf.moveDown();
      const top = pdf.y;
      pdf.image(qr, left, top, { width: 90 });
      pdf
        .font('Body-Bold')
        .fontSize(10)
        .text('Pay by card', left + 105, top + 10);
      pdf
        .font('Body')
        .fillColor('#1a56a6')
        .text(invoice.pay_url, left + 105, undefined, {
          width: width - 105,
          link: invoice.pay_url,
          underline: true,
        });
      pdf.fillColor('black').text('Scan the code with a phone, or open the link.', left + 105);
    }
    pdf.end();
    return { pdf: await done, ref: invoice.ref };
  }
}

/**
 * A pupil leaves (their booking is cancelled): their share becomes the school's part of the
 * cancellation fee (what it paid beyond that is its credit on the group invoice, for the office to
 * refund or set against). In the cancellation's transaction; says whether it changed.
 */
export async function trimLeaverShareIn(tx: Tx, invoiceId: number, keepPence: number): Promise<boolean> {
  const [item] = await tx
    .select({ id: invoiceItems.id, amountPence: invoiceItems.amountPence })
    .from(invoiceItems)
    .where(eq(invoiceItems.invoiceId, invoiceId))
    .orderBy(asc(invoiceItems.sortOrder), asc(invoiceItems.id))
    .limit(1);
  const pence = Math.max(0, keepPence);
  if (!item || pence >= item.amountPence) return false;
  await tx.update(invoiceItems).set({ amountPence: pence }).where(eq(invoiceItems.id, item.id));
  return true;
}

/** A school group's invoice, or null when the parents pay and the school has no share. */
export async function groupInvoiceOf(
  db: Db | Tx,
  groupId: number,
  links: { pdfUrl: string; pay?: { settings: PayLinkSettings | undefined; now: Date } },
): Promise<GroupInvoice | null> {
  const [g] = await db
    .select({
      id: schoolGroups.id,
      school: schoolGroups.school,
      payer: schoolGroups.payer,
      tripId: trips.id,
      tripName: trips.name,
      departure: trips.departureDate,
    })
    .from(schoolGroups)
    .innerJoin(trips, eq(trips.id, schoolGroups.tripId))
    .where(eq(schoolGroups.id, groupId));
  if (!g) throw notFound('Group not found.');
  const loaded = await loadInvoices(db as Db, eq(invoices.groupId, groupId));
  if (g.payer === 'parents' && !loaded.length) return null;
  const pupils = loaded.length
    ? await db
        .select({
          id: bookings.id,
          ref: bookings.ref,
          firstName: bookings.firstName,
          lastName: bookings.lastName,
          status: bookings.status,
        })
        .from(bookings)
        .where(
          inArray(
            bookings.id,
            loaded.map((l) => l.reply.booking_id),
          ),
        )
    : [];
  const byId = new Map(pupils.map((p) => [p.id, p]));
  const lines = loaded
    .map((l) => {
      const p = byId.get(l.reply.booking_id)!;
      return {
        booking_id: p.id,
        booking_ref: p.ref,
        pupil: `${p.firstName} ${p.lastName}`,
        invoice_id: l.reply.id,
        invoice_ref: l.reply.invoice_ref,
        due_date: l.reply.due_date,
        amount: l.reply.total,
        paid: l.reply.payment_received,
        outstanding: l.reply.outstanding,
        left: p.status === 'cancelled',
        sort: `${p.lastName.toLowerCase()}\u0000${p.firstName.toLowerCase()}`,
        pence: l.summary,
      };
    })
    .sort((a, b) => a.sort.localeCompare(b.sort) || a.invoice_id - b.invoice_id);
  const sum = (f: (s: (typeof lines)[number]['pence']) => number) => lines.reduce((a, l) => a + f(l.pence), 0);
  const owing = lines.filter((l) => l.outstanding > 0).map((l) => l.due_date);
  const outstanding = sum((s) => Math.max(0, s.outstandingPence));
  const credit = sum((s) => Math.max(0, -s.outstandingPence));
  return {
    group_id: g.id,
    ref: groupInvoiceRef(g.id),
    school: g.school,
    trip: { id: g.tripId, name: g.tripName, departure: g.departure },
    due_date: owing.length ? owing.sort()[0]! : (lines.map((l) => l.due_date).sort()[0] ?? null),
    total: penceToPounds(sum((s) => s.totalPence)),
    paid: penceToPounds(sum((s) => s.receivedPence)),
    outstanding: penceToPounds(outstanding),
    credit: penceToPounds(credit),
    lines: lines.map(({ sort: _s, pence: _p, due_date: _d, ...line }) => line),
    pdf_url: links.pdfUrl,
    pay_url:
      outstanding > 0 && links.pay?.settings ? groupPayLinkOf(groupId, links.pay.settings, links.pay.now).url : null,
  };
}

export type SharePart = { booking_ref: string; invoice_ref: string; pence: number; transaction_id: number };

/**
 * Money from a school split to its group's shares, the one due first (then the oldest) first,
 * each part a payment on that share, with one `group.payment_recorded` event: in the caller's
 * transaction, the group and its shares locked, so two payments at once cannot take the same
 * money. More than is owed is refused when typed by staff (`over: 'refuse'`); card money that came
 * in is kept (`'keep'`): what is beyond the shares goes on the last one, which shows overpaid.
 */
export async function splitToShares(
  tx: Tx,
  groupId: number,
  amountPence: number,
  e: {
    processor: Processor;
    date: string;
    notes: string | null;
    providerRef: string | null;
    createdBy: number | null;
    over: 'refuse' | 'keep';
  },
): Promise<SharePart[]> {
  const ref = groupInvoiceRef(groupId);
  const [group] = await tx
    .select({ id: schoolGroups.id, tripId: schoolGroups.tripId, school: schoolGroups.school })
    .from(schoolGroups)
    .where(eq(schoolGroups.id, groupId))
    .for('update');
  if (!group) throw notFound('Group not found.');
  const rows = await tx
    .select()
    .from(invoices)
    .where(eq(invoices.groupId, groupId))
    .orderBy(asc(invoices.dueDate), asc(invoices.id))
    .for('update');
  const loaded = rows.length ? await loadInvoices(tx, eq(invoices.groupId, groupId)) : [];
  const pupils = rows.length
    ? await tx
        .select({ id: bookings.id, ref: bookings.ref, status: bookings.status })
        .from(bookings)
        .where(
          inArray(
            bookings.id,
            rows.map((r) => r.bookingId),
          ),
        )
    : [];
  const live = new Set(pupils.filter((p) => p.status !== 'cancelled').map((p) => p.id));
  const liveRows = rows.filter((r) => live.has(r.bookingId));
  // a pupil who left owes only the school's part of their cancellation fee: their share was cut to it
  const owed = new Map(loaded.map((l) => [l.reply.id, Math.max(0, l.summary.outstandingPence)]));
  const total = [...owed.values()].reduce((a, b) => a + b, 0);
  if (e.over === 'refuse' && total <= 0)
    throw validationError({ amount: [`Nothing is outstanding on ${ref}: there is nothing to pay.`] });
  if (e.over === 'refuse' && amountPence > total)
    throw validationError({
      amount: [`The school owes ${formatPence(total)} on ${ref}: a payment may not be more.`],
    });
  const refs = new Map(pupils.map((b) => [b.id, b.ref]));
  const notes = `${group.school}’s payment on ${ref}${e.notes ? `: ${e.notes}` : ''}`;
  const take = new Map<number, number>();
  let left = amountPence;
  for (const invoice of rows) {
    const pence = Math.min(left, owed.get(invoice.id) ?? 0);
    if (pence > 0) take.set(invoice.id, pence);
    left -= pence;
  }
  // card money beyond the shares is kept, on the last share (overpaid, for the office to refund)
  const last = liveRows.at(-1) ?? rows.at(-1);
  if (left > 0 && last) take.set(last.id, (take.get(last.id) ?? 0) + left);
  const parts: SharePart[] = [];
  for (const invoice of rows) {
    const pence = take.get(invoice.id);
    if (!pence) continue;
    const id = await insertEntry(tx, invoice, {
      type: 'payment',
      amountPence: pence,
      processor: e.processor,
      date: e.date,
      notes,
      idempotencyKey: null,
      // one card payment split to several shares: its parts are pi_…, pi_…#2… (a provider id is recorded once)
      providerRef: e.providerRef && parts.length ? `${e.providerRef}#${parts.length + 1}` : e.providerRef,
      createdBy: e.createdBy,
    });
    parts.push({
      booking_ref: refs.get(invoice.bookingId)!,
      invoice_ref: invoice.invoiceRef,
      pence,
      transaction_id: id,
    });
  }
  await audit(tx, {
    action: 'group.payment_recorded',
    subject: { type: 'group', id: groupId },
    tripId: group.tripId,
    summary: `recorded ${group.school}’s payment of ${formatPence(amountPence)} (${PROCESSOR_LABELS[e.processor]}) on ${ref}, split to ${parts.length} pupil${parts.length === 1 ? '' : 's'}`,
    details: {
      ref,
      amount: penceToPounds(amountPence),
      processor: e.processor,
      date: e.date,
      notes: e.notes,
      ...(e.providerRef ? { provider_ref: e.providerRef } : {}),
      split: parts.map((p) => ({
        booking_ref: p.booking_ref,
        invoice_ref: p.invoice_ref,
        amount: penceToPounds(p.pence),
      })),
      ...(parts.length ? {} : { unplaced: 'the group has no shares left to pay: the office must place or refund it' }),
    },
  });
  return parts;
}

/**
 * A refund Stripe made of a school's card payment (split to several shares): split back the
 * other way, the last part first, each share given back no more than it took of that payment;
 * recorded once per refund id (its parts are `re_…`, `re_…#2`…). Says how many parts it recorded.
 */
export async function refundSharesIn(
  tx: Tx,
  paymentIntent: string,
  refund: { id: string; amountPence: number; date: string },
): Promise<number> {
  const [known] = await tx
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(
        eq(transactions.type, 'refund'),
        sql`(${transactions.providerRef} = ${refund.id} or ${transactions.providerRef} like ${`${refund.id}#%`})`,
      ),
    )
    .limit(1);
  if (known) return 0;
  const paid = await tx
    .select({ invoiceId: transactions.invoiceId, pence: transactions.amountPence })
    .from(transactions)
    .where(
      and(
        eq(transactions.type, 'payment'),
        sql`(${transactions.providerRef} = ${paymentIntent} or ${transactions.providerRef} like ${`${paymentIntent}#%`})`,
        isNull(transactions.deletedAt),
      ),
    )
    .orderBy(desc(transactions.id));
  if (!paid.length) return 0;
  let left = refund.amountPence;
  const parts: Array<{ invoiceId: number; pence: number }> = [];
  for (const p of paid) {
    const pence = Math.min(left, p.pence);
    if (pence > 0) parts.push({ invoiceId: p.invoiceId, pence });
    left -= pence;
  }
  // more refunded than this payment put on the shares (it cannot be, by Stripe's rules): on the latest part
  if (left > 0) {
    if (parts[0]) parts[0].pence += left;
    else parts.push({ invoiceId: paid[0]!.invoiceId, pence: left });
  }
  let n = 0;
  for (const part of parts) {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, part.invoiceId)).for('update');
    if (!invoice) continue;
    n += 1;
    await insertEntry(tx, invoice, {
      type: 'refund',
      amountPence: part.pence,
      processor: 'STRIPE',
      date: refund.date,
      notes: `Refunded by card through Stripe (${refund.id})`,
      idempotencyKey: null,
      providerRef: n === 1 ? refund.id : `${refund.id}#${n}`,
      createdBy: null,
    });
  }
  return n;
}
