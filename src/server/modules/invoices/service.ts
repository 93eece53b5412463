import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { groupInvoiceRef } from '../../../contract/groups.ts';
import {
  BALANCE_DUE_DAYS_BEFORE_DEPARTURE,
  DEPOSIT_DUE_DAYS,
  INVOICE_SENT_MESSAGE,
  type Invoice,
  type InvoiceDocument,
  type InvoiceType,
  type createInvoiceSchema,
  type createStandardInvoiceSchema,
} from '../../../contract/invoices.ts';
import type { z } from 'zod';
import { toDdMmYyyy, addDays, ukToday } from '../../../contract/dates.ts';
import { formatPence, formatPounds, penceToPounds } from '../../../contract/money.ts';
import { escapeHtml } from '../../html.ts';
import { type Db, queryRows, type Tx } from '../../../db/client.ts';
import {
  bookingAddons,
  bookings,
  discounts,
  invoiceAddons,
  invoiceItems,
  invoices,
  scheduleRows,
  transactions,
  tripAddons,
  trips,
} from '../../../db/schema/index.ts';
import { audit, type AuditEvent } from '../../audit/audit.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';
import { pgError } from '../../sql.ts';
import type { MailOutcome, Mailer, OutgoingMail } from '../../mail/transport.ts';
import { loadInvoices } from './load.ts';
import { appliedDiscount, balanceDue, billsTripCost, discountRefusal } from './money.ts';
import { invoicePdf } from './pdf.ts';
import type { Operator } from '../../common/operator.ts';
import { payUrlOf } from '../../common/pay-links.ts';
import { portalUrlOf, withoutSignInLinks } from '../../common/portal-links.ts';
import QRCode from 'qrcode';

type StandardValues = z.output<typeof createStandardInvoiceSchema>;
type CustomValues = z.output<typeof createInvoiceSchema>;
export type NewInvoice = {
  bookingId: number;
  tripId: number;
  type: InvoiceType;
  invoiceRef: string | null;
  description: string;
  invoiceDate: string;
  dueDate: string;
  items: Array<{ description: string; amountPence: number }>;
  addons: Array<{ addonId: number; name: string; pricePence: number }>;
  discountCode: string | null;
  /** a use of a discount code already taken (an online booking's deposit, decision 030): applied, not claimed again */
  claimedDiscount?: ClaimedDiscount | null;
  /** the id taken for it beforehand (an online booking's deposit, whose pay link was given first) */
  id?: number;
  /** null: raised by the system (a payment schedule) */
  createdBy: number | null;
};
/** A use of a discount code taken: its id (none when the office has deleted the code since), code and amount. */
export type ClaimedDiscount = { id: number | null; code: string; amountPence: number };

/** The largest INV- number so far (1000 before the first), read from the end of invoices_ref_number_idx. */
export const LAST_INVOICE_NUMBER = sql`(select coalesce(max(substring(invoice_ref from '^INV-([0-9]{1,9})$')::int), 1000) from invoices)`;

export class InvoiceService {
  constructor(
    private readonly db: Db,
    private readonly operator: Operator,
    private readonly mailer: Mailer,
  ) {}

  async list(bookingId: number): Promise<Invoice[]> {
    const [booking] = await this.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId));
    if (!booking) throw validationError({ booking_id: ['The selected booking is invalid.'] });
    return (await loadInvoices(this.db, eq(invoices.bookingId, bookingId))).map((i) => i.reply);
  }

  async get(id: number): Promise<Invoice> {
    const [loaded] = await loadInvoices(this.db, eq(invoices.id, id));
    if (!loaded) throw notFound('Invoice not found.');
    return loaded.reply;
  }

  /** Everything the printed invoice and its PDF show. */
  async document(id: number): Promise<InvoiceDocument> {
    const invoice = await this.get(id);
    const [row] = await this.db
      .select({ b: bookings, trip: { name: trips.name, departure: trips.departureDate, return: trips.returnDate } })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, invoice.booking_id));
    const b = row!.b;
    // a link only for what may be paid now: not for a paid invoice or a cancelled booking
    const [share] = await this.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.id, id), isNotNull(invoices.groupId)));
    // a school's share is paid with its group invoice's link (issue 37)
    const url =
      invoice.outstanding > 0 && b.status !== 'cancelled' && !share
        ? payUrlOf(invoice.id, this.operator.payLinks, new Date())
        : '';
    return {
      invoice,
      operator: { name: this.operator.name, address: this.operator.address },
      pay: url ? { url, qr: await QRCode.toDataURL(url, { margin: 1, width: 180, errorCorrectionLevel: 'M' }) } : null,
      customer: {
        name: [b.title, b.firstName, b.lastName].filter(Boolean).join(' '),
        email: b.email,
        address: [b.address1, b.address2, b.address3, b.address4, b.postCode].filter((l): l is string => Boolean(l)),
      },
      booking: { id: b.id, ref: b.ref },
      trip: row!.trip,
    };
  }

  /**
   * The standard deposit or balance invoice, worked out from the trip and what was billed
   * before. The booking is locked meanwhile, so two at once cannot both bill the same money.
   */
  async createStandard(bookingId: number, v: StandardValues, userId: number): Promise<Invoice> {
    const id = await this.db.transaction(async (tx) => {
      const booking = await lockBooking(tx, bookingId);
      if (!booking) throw notFound('Booking not found.');
      const [trip] = await tx.select().from(trips).where(eq(trips.id, booking.tripId));
      const today = ukToday();
      const earlier = await tx
        .select({ id: invoices.id, type: invoices.type, groupId: invoices.groupId })
        .from(invoices)
        .where(eq(invoices.bookingId, bookingId));
      // a school group's share of a pupil's cost is billed to the school (issue 37): the parents' invoices bill the rest
      const shareIds = earlier.filter((i) => i.groupId !== null).map((i) => i.id);
      const [share] = shareIds.length
        ? await tx
            .select({ pence: sql<string>`coalesce(sum(${invoiceItems.amountPence}), 0)` })
            .from(invoiceItems)
            .where(inArray(invoiceItems.invoiceId, shareIds))
        : [{ pence: '0' }];
      const parentsCostPence = Math.max(0, trip!.costPence - Number(share!.pence));
      if (v.invoice_type === 'deposit') {
        if (earlier.some((i) => i.type === 'deposit'))
          throw new HttpError(422, 'This booking already has a deposit invoice.');
        // a balance bills the whole cost less what was billed before it, the deposit included
        if (earlier.some((i) => i.type === 'balance'))
          throw new HttpError(422, 'This booking already has a balance invoice, which bills the whole trip cost.');
        if (trip!.depositPence <= 0)
          throw new HttpError(422, 'The trip has no deposit set, so there is nothing to invoice.');
        if (parentsCostPence <= 0)
          throw new HttpError(
            422,
            'The school pays this pupil’s whole trip on its group invoice: the parents have no deposit to pay.',
          );
        const id = await this.insert(tx, {
          bookingId,
          tripId: trip!.id,
          type: 'deposit',
          invoiceRef: null,
          description: `Deposit for ${trip!.name}`,
          invoiceDate: today,
          dueDate: addDays(today, DEPOSIT_DUE_DAYS),
          items: [{ description: 'Trip deposit', amountPence: Math.min(trip!.depositPence, parentsCostPence) }],
          addons: [],
          discountCode: v.discount_code,
          createdBy: userId,
        });
        await linkToSchedule(tx, bookingId, 'deposit', id);
        return id;
      }
      const billedIds = earlier
        .filter((i) => billsTripCost(i.type as InvoiceType) || i.groupId !== null)
        .map((i) => i.id);
      const [billed] = billedIds.length
        ? await tx
            .select({ pence: sql<string>`coalesce(sum(${invoiceItems.amountPence}), 0)` })
            .from(invoiceItems)
            .where(inArray(invoiceItems.invoiceId, billedIds))
        : [{ pence: '0' }];
      const addons = await uninvoicedAddons(tx, bookingId);
      const due = balanceDue({
        costPence: trip!.costPence,
        travelBasisDiscountPence: booking.travelBasisDiscountPence,
        earlierBilledPence: Number(billed!.pence),
        uninvoicedAddonsPence: addons.map((a) => a.pricePence),
      });
      if (due.totalPence <= 0)
        throw new HttpError(
          422,
          'Nothing is left to invoice on this booking: the trip cost and its add-ons have been billed.',
        );
      const departureDue = addDays(trip!.departureDate, -BALANCE_DUE_DAYS_BEFORE_DEPARTURE);
      const balanceId = await this.insert(tx, {
        bookingId,
        tripId: trip!.id,
        type: 'balance',
        invoiceRef: null,
        description: `Balance for ${trip!.name}`,
        invoiceDate: today,
        dueDate: departureDue > today ? departureDue : today,
        items: due.tripPence > 0 ? [{ description: 'Trip balance', amountPence: due.tripPence }] : [],
        addons,
        discountCode: v.discount_code,
        createdBy: userId,
      });
      // the schedule's next instalment is this invoice; later ones find nothing left to bill
      await linkToSchedule(tx, bookingId, 'balance', balanceId);
      return balanceId;
    });
    return this.get(id);
  }

  /**
   * The invoice of a schedule's instalment, raised by the system at lead time: the
   * instalment's amount, never more than is left of the trip cost (what staff billed by hand
   * counts); the last instalment also bills the add-ons not yet invoiced. The booking is locked
   * and the row takes the invoice's id (unique), so an instalment is never billed twice. An
   * instalment with nothing left to bill is waived, saying so. Returns the new invoice's id.
   */
  async raiseScheduled(rowId: number, today: string): Promise<number | null> {
    return this.db.transaction((tx) => this.raiseScheduledIn(tx, rowId, today));
  }

  /**
   * raiseScheduled in the caller's transaction; an online booking's first instalment may carry a
   * discount code (or a use of one taken at booking), and an id taken for it beforehand.
   */
  async raiseScheduledIn(
    tx: Tx,
    rowId: number,
    today: string,
    discount: string | ClaimedDiscount | null = null,
    id?: number,
  ): Promise<number | null> {
    const [peek] = await tx
      .select({ bookingId: scheduleRows.bookingId })
      .from(scheduleRows)
      .where(eq(scheduleRows.id, rowId));
    if (!peek) return null;
    const booking = await lockBooking(tx, peek.bookingId);
    const [row] = await tx.select().from(scheduleRows).where(eq(scheduleRows.id, rowId)).for('update');
    if (!booking || !row || row.invoiceId !== null || row.waived) return null;
    const [b] = await tx
      .select({ status: bookings.status, ref: bookings.ref })
      .from(bookings)
      .where(eq(bookings.id, booking.id));
    if (b!.status === 'cancelled') return null;
    const [trip] = await tx.select().from(trips).where(eq(trips.id, booking.tripId));
    const earlier = await tx
      .select({ id: invoices.id, type: invoices.type })
      .from(invoices)
      .where(eq(invoices.bookingId, booking.id));
    const billedIds = earlier.filter((i) => billsTripCost(i.type as InvoiceType)).map((i) => i.id);
    const [billed] = billedIds.length
      ? await tx
          .select({ pence: sql<string>`coalesce(sum(${invoiceItems.amountPence}), 0)` })
          .from(invoiceItems)
          .where(inArray(invoiceItems.invoiceId, billedIds))
      : [{ pence: '0' }];
    const left = trip!.costPence - booking.travelBasisDiscountPence - Number(billed!.pence);
    const later = await tx
      .select({ id: scheduleRows.id })
      .from(scheduleRows)
      .where(
        and(
          eq(scheduleRows.bookingId, booking.id),
          sql`${scheduleRows.position} > ${row.position}`,
          sql`${scheduleRows.invoiceId} is null`,
          eq(scheduleRows.waived, false),
        ),
      )
      .limit(1);
    const addons = later.length ? [] : await uninvoicedAddons(tx, booking.id);
    const amountPence = Math.max(0, Math.min(row.amountPence, left));
    if (amountPence === 0 && addons.length === 0) {
      await tx
        .update(scheduleRows)
        .set({
          waived: true,
          waivedReason: 'Nothing was left to bill: earlier invoices cover the trip cost.',
          updatedAt: new Date(),
        })
        .where(eq(scheduleRows.id, rowId));
      await audit(tx, {
        action: 'schedule.row_changed',
        subject: { type: 'schedule_row', id: rowId },
        bookingId: booking.id,
        tripId: booking.tripId,
        changes: { waived: [false, true] },
        summary: `waived the instalment ${row.label} of ${b!.ref}: earlier invoices already bill the trip cost`,
      });
      return null;
    }
    const raised = await this.insert(tx, {
      bookingId: booking.id,
      tripId: booking.tripId,
      type: row.invoiceType as InvoiceType,
      invoiceRef: null,
      description: `${row.label} for ${trip!.name}`,
      invoiceDate: today,
      dueDate: row.dueDate > today ? row.dueDate : today,
      items: amountPence > 0 ? [{ description: row.label, amountPence }] : [],
      addons,
      discountCode: typeof discount === 'string' ? discount : null,
      claimedDiscount: discount !== null && typeof discount === 'object' ? discount : null,
      ...(id === undefined ? {} : { id }),
      createdBy: null,
    });
    await tx.update(scheduleRows).set({ invoiceId: raised, updatedAt: new Date() }).where(eq(scheduleRows.id, rowId));
    return raised;
  }

  /** A custom invoice from the New Invoice dialog. */
  async createCustom(v: CustomValues, userId: number): Promise<Invoice> {
    const id = await this.db.transaction(async (tx) => {
      const booking = await lockBooking(tx, v.booking_id);
      if (!booking) throw validationError({ booking_id: ['The selected booking is invalid.'] });
      const open = await uninvoicedAddons(tx, v.booking_id);
      const chosen = v.addons.map((addonId) => open.find((a) => a.addonId === addonId));
      if (chosen.some((a) => !a))
        throw validationError({ addons: ['An add-on chosen is not on this booking or has already been invoiced.'] });
      return this.insert(tx, {
        bookingId: v.booking_id,
        tripId: booking.tripId,
        type: v.type,
        invoiceRef: v.invoice_ref,
        description: v.description,
        invoiceDate: v.invoice_date,
        dueDate: v.due_date,
        items: v.items.map((i) => ({ description: i.description, amountPence: i.amount })),
        addons: chosen as NonNullable<(typeof chosen)[number]>[],
        discountCode: v.discount_code,
        createdBy: userId,
      });
    });
    return this.get(id);
  }

  /** An invoice another action makes in its own transaction (a cancellation's fee), with its event. */
  raiseIn(tx: Tx, n: NewInvoice): Promise<number> {
    return this.insert(tx, n);
  }

  private async insert(tx: Tx, n: NewInvoice): Promise<number> {
    const subtotal = n.items.reduce((a, i) => a + i.amountPence, 0) + n.addons.reduce((a, i) => a + i.pricePence, 0);
    const discount = n.discountCode
      ? await claimDiscount(tx, n.discountCode, { invoiceType: n.type, tripId: n.tripId, today: ukToday() })
      : (n.claimedDiscount ?? null);
    const values = {
      ...(n.id === undefined ? {} : { id: n.id }),
      bookingId: n.bookingId,
      type: n.type,
      description: n.description,
      invoiceDate: n.invoiceDate,
      dueDate: n.dueDate,
      discountId: discount?.id ?? null,
      discountCode: discount?.code ?? null,
      discountPence: discount ? appliedDiscount(discount.amountPence, subtotal) : 0,
      createdBy: n.createdBy,
    };
    let row: { id: number; invoiceRef: string } | undefined;
    if (n.invoiceRef !== null) {
      try {
        [row] = await tx.transaction((sp) =>
          sp
            .insert(invoices)
            .values({ ...values, invoiceRef: n.invoiceRef! })
            .returning({ id: invoices.id, invoiceRef: invoices.invoiceRef }),
        );
      } catch (error) {
        if (isRefTaken(error))
          throw validationError({ invoice_ref: ['This reference is already used by another invoice.'] });
        throw error;
      }
    } else {
      // INV-1001, INV-1002…: the next number; a simultaneous invoice elsewhere may take it first, so try the next
      for (let attempt = 0; !row; attempt++) {
        const [next] = await queryRows<{ n: number }>(
          tx,
          sql`select ${LAST_INVOICE_NUMBER} + 1 + ${attempt}::int as n`,
        );
        try {
          [row] = await tx.transaction((sp) =>
            sp
              .insert(invoices)
              .values({ ...values, invoiceRef: `INV-${next!.n}` })
              .returning({ id: invoices.id, invoiceRef: invoices.invoiceRef }),
          );
        } catch (error) {
          if (!isRefTaken(error) || attempt >= 20) throw error;
        }
      }
    }
    const id = row!.id;
    if (n.items.length)
      await tx.insert(invoiceItems).values(
        n.items.map((i, sortOrder) => ({
          invoiceId: id,
          description: i.description,
          amountPence: i.amountPence,
          sortOrder,
        })),
      );
    if (n.addons.length) {
      await tx
        .insert(invoiceAddons)
        .values(n.addons.map((a) => ({ invoiceId: id, addonId: a.addonId, name: a.name, pricePence: a.pricePence })));
      await tx
        .update(bookingAddons)
        .set({ invoiced: true })
        .where(
          and(
            eq(bookingAddons.bookingId, n.bookingId),
            inArray(
              bookingAddons.addonId,
              n.addons.map((a) => a.addonId),
            ),
          ),
        );
    }
    const totalPence = subtotal - values.discountPence;
    await audit(tx, {
      action: 'invoice.created',
      subject: { type: 'invoice', id },
      bookingId: n.bookingId,
      tripId: n.tripId,
      summary: `raised the ${n.type} invoice ${row!.invoiceRef} for ${formatPence(totalPence)}`,
      details: {
        ref: row!.invoiceRef,
        type: n.type,
        total: penceToPounds(totalPence),
        items: n.items.map((i) => ({ description: i.description, amount: penceToPounds(i.amountPence) })),
        addons: n.addons.map((a) => ({ id: a.addonId, name: a.name, price: penceToPounds(a.pricePence) })),
        discount_code: values.discountCode,
        discount: penceToPounds(values.discountPence),
      },
    });
    return id;
  }

  /**
   * Only an invoice with no payment or refund ever recorded (even a deleted one) may go: its
   * add-ons can be billed again and its discount gets its use back.
   */
  async delete(id: number): Promise<void> {
    await this.db.transaction((tx) => this.deleteIn(tx, id));
  }

  /** delete in the caller's transaction (an online booking's hold that ran out takes its unpaid invoice with it). */
  async deleteIn(tx: Tx, id: number): Promise<void> {
    const [found] = await tx.select({ bookingId: invoices.bookingId }).from(invoices).where(eq(invoices.id, id));
    if (!found) throw notFound('Invoice not found.');
    // the booking first, as raising an invoice does: a balance raised meanwhile sees this one gone or not at all
    const booking = await lockBooking(tx, found.bookingId);
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
    if (!invoice) throw notFound('Invoice not found.');
    const [used] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(transactions)
      .where(eq(transactions.invoiceId, id));
    if (used!.n > 0)
      throw new HttpError(422, 'This invoice has payments or refunds recorded against it, so it cannot be deleted.');
    const billed = await tx
      .select({ addonId: invoiceAddons.addonId })
      .from(invoiceAddons)
      .where(eq(invoiceAddons.invoiceId, id));
    if (billed.length) {
      await tx
        .update(bookingAddons)
        .set({ invoiced: false })
        .where(
          and(
            eq(bookingAddons.bookingId, invoice.bookingId),
            inArray(
              bookingAddons.addonId,
              billed.map((b) => b.addonId),
            ),
          ),
        );
    }
    if (invoice.discountId !== null) await giveBackDiscount(tx, invoice.discountId);
    // what it billed, read before it goes
    const [loaded] = await loadInvoices(tx, eq(invoices.id, id));
    await tx.delete(invoices).where(eq(invoices.id, id));
    await audit(tx, {
      action: 'invoice.deleted',
      subject: { type: 'invoice', id },
      bookingId: invoice.bookingId,
      tripId: booking!.tripId,
      summary: `deleted the ${invoice.type} invoice ${invoice.invoiceRef} (${formatPounds(loaded!.reply.total)})`,
      details: {
        ref: invoice.invoiceRef,
        type: invoice.type,
        total: loaded!.reply.total,
        items: loaded!.reply.items,
        addons: loaded!.reply.addons,
        discount_code: invoice.discountCode,
      },
    });
  }

  /**
   * Emails the customer the invoice as a PDF, and records when. The email leaves outside any
   * transaction, so its outcome is recorded after the attempt: a refused send as email.failed
   * (and the 502), a sent one as email.sent with invoice.sent, in the transaction that marks
   * the invoice sent.
   */
  async send(bookingId: number, invoiceId: number): Promise<{ message: string; sent_at: string }> {
    const doc = await this.document(invoiceId);
    if (doc.booking.id !== bookingId) throw notFound('Invoice not found.');
    // a school group's share is the school's to pay, not the traveller's (issue 37)
    const [share] = await this.db
      .select({ groupId: invoices.groupId })
      .from(invoices)
      .where(and(eq(invoices.id, invoiceId), isNotNull(invoices.groupId)));
    if (share)
      throw new HttpError(
        422,
        `This is the school’s share of the group invoice ${groupInvoiceRef(share.groupId!)}: it is not sent to the traveller. Send the school its group invoice from the trip’s School groups.`,
      );
    const pdf = await invoicePdf(doc);
    const { invoice, customer, operator } = doc;
    const [booking] = await this.db
      .select({ tripId: bookings.tripId, userId: bookings.userId })
      .from(bookings)
      .where(eq(bookings.id, bookingId));
    const portalUrl = portalUrlOf(
      { id: bookingId, userId: booking?.userId ?? null },
      this.operator.portalLinks,
      new Date(),
    );
    const mail: OutgoingMail = {
      to: { name: customer.name, address: customer.email },
      subject: `Invoice ${invoice.invoice_ref} from ${operator.name}`,
      text: [
        `Dear ${customer.name},`,
        '',
        `Please find attached invoice ${invoice.invoice_ref} (${invoice.description}) for booking ${doc.booking.ref}.`,
        `Total: ${formatPounds(invoice.total)}. Outstanding: ${formatPounds(invoice.outstanding)}, due by ${toDdMmYyyy(invoice.due_date)}.`,
        ...(doc.pay ? ['', `Pay by card: ${doc.pay.url}`] : []),
        ...(portalUrl ? ['', `Your booking, its invoices and payments: ${portalUrl}`] : []),
        '',
        operator.name,
      ].join('\n'),
      html:
        `<p>Dear ${escapeHtml(customer.name)},</p>` +
        `<p>Please find attached invoice <strong>${escapeHtml(invoice.invoice_ref)}</strong> (${escapeHtml(invoice.description)}) for booking ${escapeHtml(doc.booking.ref)}.</p>` +
        `<p>Total: ${formatPounds(invoice.total)}<br>Outstanding: <strong>${formatPounds(invoice.outstanding)}</strong>, due by ${toDdMmYyyy(invoice.due_date)}.</p>` +
        (doc.pay
          ? `<p><a href="${escapeHtml(doc.pay.url)}">Pay ${formatPounds(invoice.outstanding)} by card</a></p>`
          : '') +
        (portalUrl ? `<p><a href="${escapeHtml(portalUrl)}">Your booking, its invoices and payments</a></p>` : '') +
        `<p>${escapeHtml(operator.name)}</p>`,
      attachments: [{ filename: `${invoice.invoice_ref}.pdf`, content: pdf, contentType: 'application/pdf' }],
    };
    const about = { subject: { type: 'invoice', id: invoiceId }, bookingId, tripId: booking?.tripId ?? null };
    const email = emailDetails(mail);

    let sent: MailOutcome;
    try {
      sent = await this.mailer.send(mail);
    } catch (error) {
      // only what went wrong, never the message (the SMTP reply quotes the customer's address)
      const { code, responseCode, command } = error as { code?: string; responseCode?: number; command?: string };
      const failure: HttpError & { cause: unknown } = Object.assign(
        new HttpError(502, 'The invoice could not be emailed: the mail server did not take it. Please try again.'),
        {
          cause: { mail: { code, responseCode, command } } as unknown,
        },
      );
      const why = [responseCode, code].filter((v) => v !== undefined && v !== null).join(' ');
      try {
        await audit(this.db, {
          action: 'email.failed',
          ...about,
          summary: `could not email invoice ${invoice.invoice_ref} to ${customer.email}: the mail server did not take it${why ? ` (${why})` : ''}`,
          details: {
            ...email,
            outcome: 'refused',
            message_id: null,
            error: { code: code ?? null, response_code: responseCode ?? null, command: command ?? null },
          },
        });
      } catch (auditError) {
        // the customer's 502 still stands; the log has both failures
        failure.cause = { mail: { code, responseCode, command }, audit: auditError };
      }
      throw failure;
    }

    const sentEvent: AuditEvent = {
      action: 'email.sent',
      ...about,
      summary:
        sent.outcome === 'written_to_eml'
          ? `wrote the email "${mail.subject}" to ${customer.email} as an .eml file (no mail server is set up)`
          : `emailed "${mail.subject}" to ${customer.email}`,
      details: { ...email, outcome: sent.outcome, message_id: sent.messageId },
    };
    let sentAt: Date | null;
    try {
      sentAt = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .update(invoices)
          .set({ sentAt: new Date() })
          .where(eq(invoices.id, invoiceId))
          .returning({ sentAt: invoices.sentAt });
        await audit(tx, sentEvent);
        // an invoice deleted while its email was on the way: the email is history, the invoice is gone
        if (row) {
          await audit(tx, {
            action: 'invoice.sent',
            ...about,
            summary: `emailed invoice ${invoice.invoice_ref} to ${customer.name} (${customer.email})`,
            details: {
              ref: invoice.invoice_ref,
              to: customer.email,
              message_id: sent.messageId,
              outcome: sent.outcome,
            },
          });
        }
        return row?.sentAt ?? null;
      });
    } catch (error) {
      // the email has left whatever failed here: the history keeps that at least
      await audit(this.db, sentEvent).catch(() => undefined);
      throw error;
    }
    if (!sentAt) throw notFound('Invoice not found.');
    return { message: INVOICE_SENT_MESSAGE, sent_at: sentAt.toISOString() };
  }
}

/** What the history keeps of an email: to whom, the subject, the text as sent and the names of its attachments. */
function emailDetails(mail: OutgoingMail) {
  return {
    to: mail.to.address,
    subject: mail.subject,
    text: withoutSignInLinks(mail.text),
    attachments: (mail.attachments ?? []).map((a) => a.filename),
  };
}

function isRefTaken(error: unknown) {
  const e = pgError(error);
  return e.code === '23505' && e.constraint === 'invoices_invoice_ref_unique';
}

/** A standard invoice raised by hand is the booking's next instalment of that kind, if its schedule has one not yet invoiced. */
async function linkToSchedule(tx: Tx, bookingId: number, type: 'deposit' | 'balance', invoiceId: number) {
  const [next] = await tx
    .select({ id: scheduleRows.id })
    .from(scheduleRows)
    .where(
      and(
        eq(scheduleRows.bookingId, bookingId),
        eq(scheduleRows.invoiceType, type),
        sql`${scheduleRows.invoiceId} is null`,
        eq(scheduleRows.waived, false),
      ),
    )
    .orderBy(asc(scheduleRows.position))
    .limit(1);
  if (next) await tx.update(scheduleRows).set({ invoiceId }).where(eq(scheduleRows.id, next.id));
}

async function lockBooking(tx: Tx, id: number) {
  const [row] = await tx
    .select({ id: bookings.id, tripId: bookings.tripId, travelBasisDiscountPence: bookings.travelBasisDiscountPence })
    .from(bookings)
    .where(eq(bookings.id, id))
    .for('update');
  return row;
}

function uninvoicedAddons(tx: Tx, bookingId: number) {
  return tx
    .select({ addonId: bookingAddons.addonId, name: tripAddons.name, pricePence: bookingAddons.pricePence })
    .from(bookingAddons)
    .innerJoin(tripAddons, eq(tripAddons.id, bookingAddons.addonId))
    .where(and(eq(bookingAddons.bookingId, bookingId), eq(bookingAddons.invoiced, false)))
    .orderBy(asc(tripAddons.id));
}

/** A use of a discount code given back (its invoice deleted, or never raised). */
export async function giveBackDiscount(tx: Tx, discountId: number): Promise<void> {
  await tx
    .update(discounts)
    .set({ usageCount: sql`greatest(${discounts.usageCount} - 1, 0)` })
    .where(eq(discounts.id, discountId));
}

/**
 * Takes one use of a discount code for an invoice being raised. The code's row stays locked to
 * the end of the transaction, so of two invoices after its last use exactly one gets it.
 */
export async function claimDiscount(
  tx: Tx,
  code: string,
  at: { invoiceType: InvoiceType; tripId: number; today: string },
): Promise<ClaimedDiscount> {
  const [d] = await tx
    .select({
      id: discounts.id,
      code: discounts.code,
      amountPence: discounts.amountPence,
      invoiceType: discounts.invoiceType,
      tripId: discounts.tripId,
      usageLimit: discounts.usageLimit,
      usageCount: discounts.usageCount,
      validFrom: sql<string | null>`to_char(${discounts.validFrom}, 'YYYY-MM-DD')`,
      validUntil: sql<string | null>`to_char(${discounts.validUntil}, 'YYYY-MM-DD')`,
    })
    .from(discounts)
    .where(sql`lower(${discounts.code}) = lower(${code})`)
    .for('update');
  if (!d) throw validationError({ discount_code: [`There is no discount code ${code}.`] });
  const refusal = discountRefusal(d, at);
  if (refusal) throw validationError({ discount_code: [refusal] });
  const [taken] = await tx
    .update(discounts)
    .set({ usageCount: sql`${discounts.usageCount} + 1`, updatedAt: new Date() })
    .where(and(eq(discounts.id, d.id), sql`${discounts.usageCount} < ${discounts.usageLimit}`))
    .returning({ id: discounts.id });
  if (!taken) throw validationError({ discount_code: [`The discount code ${d.code} has been used up.`] });
  return d;
}
