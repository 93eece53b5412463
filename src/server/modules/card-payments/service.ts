import { createHash } from 'node:crypto';
import { stillPayable } from '../../../contract/invoice-constants.ts';
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { ukToday } from '../../../contract/dates.ts';
import {
  CARD_PAYMENTS_OFF,
  PAY_PAGE_MESSAGES,
  type CheckoutOutcome,
  type PayLinkReply,
  type PayPage,
  type PayPageReason,
} from '../../../contract/card-payments.ts';
import { formatPence, formatPounds, penceToPounds } from '../../../contract/money.ts';
import type { Db, Tx } from '../../../db/client.ts';
import {
  bookingNotes,
  bookings,
  cardCheckouts,
  invoices,
  paymentReceipts,
  stripeEvents,
  transactions,
  trips,
} from '../../../db/schema/index.ts';
import { asCardProvider, audit, type AuditEvent } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import type { Operator } from '../../common/operator.ts';
import { isGroupPayToken, payLinkOf, readGroupPayLink, readPayLink } from '../../common/pay-links.ts';
import { portalUrlOf } from '../../common/portal-links.ts';
import { HttpError, notFound } from '../../errors.ts';
import { escapeHtml } from '../../html.ts';
import { emailOffice } from '../../mail/office.ts';
import { sendOnce } from '../../mail/send-once.ts';
import { emailDate } from '../../mail/templates.ts';
import { loadInvoices } from '../invoices/load.ts';
import { groupInvoiceOf, refundSharesIn, splitToShares } from '../groups/invoice.ts';
import { TransactionService } from '../invoices/transactions.ts';
import type { Config } from '../../config.ts';
import { createStripe, Stripe } from './stripe.ts';
import { CHECKOUT_SESSION_HELD_SECONDS, confirmHeldBooking } from '../online-booking/service.ts';
import { bookingSetupsFrom, type BookingSetups } from '../online-booking/setups.ts';

export type CardPaymentDeps = {
  db: Db;
  /** none: card payments are not set up */
  stripe: Stripe | undefined;
  webhookSecret: string | undefined;
  operator: Operator;
  mailer: Mailer;
  clock: Pick<Clock, 'now'>;
  /** where the office hears of disputes */
  officeEmail: string | undefined;
  /** an online booking's deposit invoice still to raise when its pay link is opened (decision 030) */
  setups?: BookingSetups;
};

/** The service as the configuration sets it up: without STRIPE_SECRET_KEY, card payments are off. */
export function cardPaymentsFrom(d: {
  db: Db;
  config: Config;
  operator: Operator;
  mailer: Mailer;
  clock: Pick<Clock, 'now'>;
}): CardPaymentService {
  const { config } = d;
  return new CardPaymentService({
    db: d.db,
    stripe: config.stripe ? createStripe(config.stripe) : undefined,
    webhookSecret: config.stripe?.webhookSecret,
    operator: d.operator,
    mailer: d.mailer,
    clock: d.clock,
    officeEmail: config.officeEmail,
    setups: bookingSetupsFrom(d),
  });
}

/** A pay link that cannot be used, answered with why (410, or 404 for one that is not ours). */
export class PayLinkRefused extends HttpError {
  constructor(readonly reason: PayPageReason) {
    super(reason === 'invalid' || reason === 'off' ? 404 : 410, PAY_PAGE_MESSAGES[reason]);
  }
}

/**
 * A call to Stripe: when Stripe cannot be reached or refuses, a 502 that says so (Stripe's own
 * message stays in the log), never a 500. Stripe sends a webhook again after a 502.
 */
async function askStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      throw Object.assign(
        new HttpError(502, 'The card payment service cannot be reached just now. Please try again in a minute.'),
        { cause: { stripe: { type: error.type, code: error.code ?? null, status: error.statusCode ?? null } } },
      );
    }
    throw error;
  }
}

/** A session asked for with its payment intent, whose time is when the payer paid. */
const PAID_AT = { expand: ['payment_intent'] };
const paidAtOf = (session: Stripe.Checkout.Session): Date | null =>
  session.payment_intent && typeof session.payment_intent === 'object' && session.payment_intent.created
    ? new Date(session.payment_intent.created * 1000)
    : null;

/** The id of an object Stripe may give expanded or as its id. */
const idOf = (value: string | { id: string } | null | undefined): string | undefined =>
  typeof value === 'string' ? value : value?.id;

/** Reconciliation asks Stripe about sessions still open this long after they were made. */
export const RECONCILE_AFTER_MS = 3_600_000;
/** … until two days after they were made. */
export const RECONCILE_FOR_MS = 2 * 86_400_000;

type Applied = { outcome: string; receiptFor?: number };

/**
 * Card payments through Stripe Checkout: pay links, the sessions made from them, and the money
 * Stripe reports (by webhook, by the payer's return, or by reconciliation), recorded once each
 * through the same rules and in the same transaction as a payment staff record.
 */
export class CardPaymentService {
  private readonly transactions: TransactionService;

  constructor(private readonly deps: CardPaymentDeps) {
    this.transactions = new TransactionService(deps.db);
  }

  /** Staff: the invoice's pay link, to copy into an email of their own. */
  async payLink(invoiceId: number): Promise<PayLinkReply> {
    const settings = this.deps.operator.payLinks;
    if (!this.deps.stripe || !settings) throw new HttpError(409, CARD_PAYMENTS_OFF);
    const state = await this.invoiceState(invoiceId);
    if (!state) throw notFound('Invoice not found.');
    if (state.cancelled) throw new HttpError(422, 'This booking is cancelled: its invoices cannot be paid by card.');
    if (state.outstandingPence <= 0)
      throw new HttpError(422, 'Nothing is outstanding on this invoice, so it has no pay link.');
    if (state.groupId !== null)
      throw new HttpError(
        422,
        'This is a school’s share of its group invoice: the school pays it with the group invoice’s own pay link.',
      );
    const link = payLinkOf(invoiceId, settings, nowOf(this.deps.clock));
    // a link is signed, not stored: the History says who was given one, and until when
    await audit(this.deps.db, {
      action: 'invoice.pay_link',
      subject: { type: 'invoice', id: invoiceId },
      bookingId: state.bookingId,
      tripId: state.tripId,
      summary: `made a pay link for invoice ${state.ref}, working until ${ukToday(link.expiresAt)}`,
      details: { ref: state.ref, expires_at: link.expiresAt.toISOString() },
    });
    return { url: link.url, expires_at: link.expiresAt.toISOString() };
  }

  /** The pay page: the operator, the trip, the invoice's reference, the traveller's first name and what is outstanding. */
  async payPage(token: string): Promise<PayPage> {
    if (isGroupPayToken(token)) {
      const g = await this.groupPayable(token);
      return {
        operator: this.deps.operator.name,
        trip: { name: g.invoice.trip.name, departure: g.invoice.trip.departure },
        invoice_ref: g.invoice.ref,
        first_name: g.invoice.school,
        school: g.invoice.school,
        outstanding: g.invoice.outstanding,
      };
    }
    const { state } = await this.payable(token);
    return {
      operator: this.deps.operator.name,
      trip: { name: state.tripName, departure: state.departure },
      invoice_ref: state.ref,
      first_name: state.firstName,
      outstanding: penceToPounds(state.outstandingPence),
    };
  }

  /** "Pay £X by card": a Checkout Session for what is outstanding now; the payer goes to its page. */
  async startCheckout(token: string): Promise<{ url: string }> {
    if (isGroupPayToken(token)) return this.startGroupCheckout(token);
    const { state } = await this.payable(token);
    const now = nowOf(this.deps.clock);
    // a place held for this deposit is let go when its hold and this grace run out: the page must close by then
    const [held] = await this.deps.db
      .select({ until: bookings.holdExpiresAt })
      .from(bookings)
      .where(eq(bookings.id, state.bookingId));
    // a hold that has run out opens no page: the place is being let go (or already was)
    if (held?.until && held.until <= now) throw new PayLinkRefused('hold_ended');
    return this.openCheckout(token, {
      // from the minute, as the idempotency key is: a double press within it asks for the same session
      expiresAt: held?.until
        ? (Math.floor(now.getTime() / 60_000) + 1) * 60 + CHECKOUT_SESSION_HELD_SECONDS
        : undefined,
      amountPence: state.outstandingPence,
      product: `${state.tripName}: invoice ${state.ref}`,
      ref: state.ref,
      metadata: { invoice_id: String(state.invoiceId), booking_id: String(state.bookingId), invoice_ref: state.ref },
      key: `${state.invoiceId}`,
      owner: { invoiceId: state.invoiceId, bookingId: state.bookingId, groupId: null },
      opened: {
        subject: { type: 'invoice', id: state.invoiceId },
        bookingId: state.bookingId,
        tripId: state.tripId,
        summary: `opened Stripe's payment page for ${formatPence(state.outstandingPence)} on invoice ${state.ref}`,
      },
    });
  }

  /** A school paying its group invoice (issue 37): one session for all it owes, split to its pupils' shares when paid. */
  private async startGroupCheckout(token: string): Promise<{ url: string }> {
    const { groupId, invoice, outstandingPence } = await this.groupPayable(token);
    return this.openCheckout(token, {
      amountPence: outstandingPence,
      product: `${invoice.trip.name}: invoice ${invoice.ref} (${invoice.school})`,
      ref: invoice.ref,
      metadata: { group_id: String(groupId), invoice_ref: invoice.ref },
      key: `group-${groupId}`,
      owner: { invoiceId: null, bookingId: null, groupId },
      opened: {
        subject: { type: 'group', id: groupId },
        tripId: invoice.trip.id,
        summary: `opened Stripe's payment page for ${formatPence(outstandingPence)} on the group invoice ${invoice.ref} of ${invoice.school}`,
      },
    });
  }

  /**
   * Stripe's Checkout Session for one pay link's amount, and the attempt recorded with its event
   * (once: a double press within the minute opens the same session).
   */
  private async openCheckout(
    token: string,
    o: {
      expiresAt?: number;
      amountPence: number;
      product: string;
      ref: string;
      metadata: Record<string, string>;
      /** what the idempotency key names the payer by */
      key: string;
      owner: { invoiceId: number | null; bookingId: number | null; groupId: number | null };
      opened: Pick<AuditEvent, 'subject' | 'bookingId' | 'tripId' | 'summary'>;
    },
  ): Promise<{ url: string }> {
    const stripe = this.deps.stripe;
    const settings = this.deps.operator.payLinks;
    if (!stripe || !settings) throw new PayLinkRefused('off');
    const now = nowOf(this.deps.clock);
    const back = `${settings.publicUrl}/pay/${token}`;
    const session = await askStripe(() =>
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          ...(o.expiresAt ? { expires_at: o.expiresAt } : {}),
          line_items: [
            {
              quantity: 1,
              price_data: { currency: 'gbp', unit_amount: o.amountPence, product_data: { name: o.product } },
            },
          ],
          client_reference_id: o.ref,
          metadata: o.metadata,
          payment_intent_data: { metadata: o.metadata, description: `${this.deps.operator.name}: invoice ${o.ref}` },
          success_url: `${back}?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${back}?cancelled=1`,
        },
        // a double press within the minute opens the same session; a new amount or another link (its
        // return address differs, which Stripe refuses under one key), a new one
        {
          idempotencyKey: `tripdesk-pay-${o.key}-${o.amountPence}-${Math.floor(now.getTime() / 60_000)}-${createHash('sha256').update(token).digest('hex').slice(0, 16)}`,
        },
      ),
    );
    if (!session.url) throw new HttpError(502, 'The card payment page could not be opened. Please try again.');
    await this.deps.db.transaction(async (tx) => {
      const [made] = await tx
        .insert(cardCheckouts)
        .values({ id: session.id, ...o.owner, amountPence: o.amountPence, createdAt: now })
        .onConflictDoNothing()
        .returning({ id: cardCheckouts.id });
      // the same session again (a double press) is the same attempt
      if (!made) return;
      await audit(tx, {
        action: 'card.checkout_opened',
        ...o.opened,
        details: { session: session.id, amount: penceToPounds(o.amountPence), ref: o.ref },
      });
    });
    return { url: session.url };
  }

  /**
   * Back from Stripe: asks Stripe about the session (the return address alone proves nothing)
   * and records a payment it reports that no webhook has yet.
   */
  async checkoutOutcome(token: string, sessionId: string): Promise<CheckoutOutcome> {
    const group = isGroupPayToken(token);
    const owner = group ? this.readGroupToken(token).groupId : this.readToken(token).invoiceId;
    const stripe = this.deps.stripe;
    if (!stripe) throw new PayLinkRefused('off');
    const [row] = await this.deps.db.select().from(cardCheckouts).where(eq(cardCheckouts.id, sessionId));
    // a session of another link's is none of this one's business
    if (!row || (group ? row.groupId : row.invoiceId) !== owner) throw new PayLinkRefused('invalid');
    const session = await askStripe(() => stripe.checkout.sessions.retrieve(sessionId, PAID_AT));
    const amount = penceToPounds(session.amount_total ?? row.amountPence);
    if (session.payment_status === 'paid') {
      const applied = await asCardProvider('web', () =>
        this.applyInTransaction((tx) => this.applySession(tx, session, paidAtOf(session) ?? nowOf(this.deps.clock))),
      );
      await this.afterApplied(applied);
      return {
        state: 'paid',
        amount,
        message: `Thank you: your payment of ${formatPounds(amount)} has been received.`,
      };
    }
    if (session.status === 'complete')
      return {
        state: 'processing',
        amount,
        message: `Your payment of ${formatPounds(amount)} is being processed. We will email you a receipt when it arrives.`,
      };
    if (session.status === 'expired') {
      await this.deps.db
        .update(cardCheckouts)
        .set({ status: 'expired' })
        .where(and(eq(cardCheckouts.id, sessionId), eq(cardCheckouts.status, 'open')));
      return {
        state: 'expired',
        amount,
        message: 'This payment was not completed and has expired. Nothing has been taken.',
      };
    }
    return { state: 'open', amount, message: 'This payment has not been made yet. Nothing has been taken.' };
  }

  /**
   * A webhook: verified on its raw body with the endpoint's secret (400 and nothing changed when
   * it fails), then applied once by its event id. Every verified event is acknowledged, the
   * ones Tripdesk has no use for too.
   */
  async receiveWebhook(
    raw: Buffer,
    signature: string | undefined,
  ): Promise<{ received: true; outcome: string; event: string; type: string }> {
    const stripe = this.deps.stripe;
    if (!stripe || !this.deps.webhookSecret) throw new HttpError(404, CARD_PAYMENTS_OFF);
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(raw, signature ?? '', this.deps.webhookSecret);
    } catch {
      throw new HttpError(400, 'The Stripe-Signature header is missing, stale or does not match this body.');
    }
    const outcome = await asCardProvider('webhook', () => this.applyEvent(event));
    return { received: true, outcome, event: event.id, type: event.type };
  }

  /** Applies one verified event, once, however many times or to however many servers it is delivered. */
  async applyEvent(event: Stripe.Event): Promise<string> {
    const [seen] = await this.deps.db
      .select({ outcome: stripeEvents.outcome })
      .from(stripeEvents)
      .where(eq(stripeEvents.id, event.id));
    if (seen) return `already applied (${seen.outcome})`;
    // what needs asking of Stripe is asked before the transaction, which then only writes
    const refunds = event.type === 'charge.refunded' ? await askStripe(() => this.refundsOf(event.data.object)) : [];
    const takenAt = new Date(event.created * 1000);
    const applied = await this.applyInTransaction(async (tx): Promise<Applied> => {
      const [fresh] = await tx
        .insert(stripeEvents)
        .values({ id: event.id, type: event.type, outcome: 'applying' })
        .onConflictDoNothing()
        .returning({ id: stripeEvents.id });
      if (!fresh) return { outcome: 'already applied' };
      let result: Applied;
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
          result = await this.applySession(tx, event.data.object, takenAt);
          break;
        case 'checkout.session.expired':
          await tx
            .update(cardCheckouts)
            .set({ status: 'expired' })
            .where(and(eq(cardCheckouts.id, event.data.object.id), eq(cardCheckouts.status, 'open')));
          result = { outcome: 'session expired' };
          break;
        case 'charge.refunded':
          result = await this.applyRefunds(tx, idOf(event.data.object.payment_intent), refunds, takenAt);
          break;
        case 'charge.refund.updated':
          // a refund that was pending when its charge.refunded came, now succeeded (or failed: nothing)
          result = await this.applyRefunds(tx, idOf(event.data.object.payment_intent), [event.data.object], takenAt);
          break;
        case 'charge.dispute.created':
          result = await this.noteDispute(tx, event.data.object);
          break;
        default:
          result = { outcome: `ignored: Tripdesk has no use for ${event.type}` };
      }
      await tx.update(stripeEvents).set({ outcome: result.outcome }).where(eq(stripeEvents.id, event.id));
      return result;
    });
    await this.afterApplied(applied);
    if (event.type === 'charge.dispute.created' && applied.outcome.startsWith('dispute noted'))
      await this.tellOfficeOfDispute(event.data.object);
    return applied.outcome;
  }

  /**
   * The hourly reconciliation: every session still open an hour after it was made is asked
   * about; what was paid is recorded (a webhook that never came), what expired is closed.
   */
  async reconcile(stopping?: AbortSignal): Promise<{ looked: number; recorded: number; expired: number }> {
    const stripe = this.deps.stripe;
    if (!stripe) return { looked: 0, recorded: 0, expired: 0 };
    const now = nowOf(this.deps.clock).getTime();
    const before = new Date(now - RECONCILE_AFTER_MS);
    // a session lasts a day at most: one still open after two has been asked about many times
    const since = new Date(now - RECONCILE_FOR_MS);
    const open = await this.deps.db
      .select({ id: cardCheckouts.id })
      .from(cardCheckouts)
      .where(
        and(
          eq(cardCheckouts.status, 'open'),
          lte(cardCheckouts.createdAt, before),
          gte(cardCheckouts.createdAt, since),
        ),
      )
      .orderBy(asc(cardCheckouts.createdAt))
      .limit(500);
    let recorded = 0;
    let expired = 0;
    for (const { id } of open) {
      if (stopping?.aborted) break;
      // one session Stripe cannot answer for does not hold up the others
      const session = await stripe.checkout.sessions.retrieve(id, PAID_AT).catch(() => null);
      if (!session) continue;
      if (session.payment_status === 'paid') {
        // dated the day Stripe took it, which may be before the hour this job runs in
        const applied = await asCardProvider('system', () =>
          this.applyInTransaction((tx) => this.applySession(tx, session, paidAtOf(session) ?? nowOf(this.deps.clock))),
        );
        if (applied.receiptFor) recorded += 1;
        await this.afterApplied(applied);
      } else if (session.status === 'expired') {
        await this.deps.db
          .update(cardCheckouts)
          .set({ status: 'expired' })
          .where(and(eq(cardCheckouts.id, id), eq(cardCheckouts.status, 'open')));
        expired += 1;
      }
    }
    return { looked: open.length, recorded, expired };
  }

  // ---- applying what Stripe reports ----

  private applyInTransaction(fn: (tx: Tx) => Promise<Applied>): Promise<Applied> {
    return this.deps.db.transaction(fn);
  }

  /** A paid session: its payment recorded once, whichever of webhook, return page or reconciliation comes first. */
  private async applySession(tx: Tx, session: Stripe.Checkout.Session, takenAt: Date): Promise<Applied> {
    if (session.payment_status !== 'paid') return { outcome: 'not paid yet' };
    let [row] = await tx.select().from(cardCheckouts).where(eq(cardCheckouts.id, session.id)).for('update');
    const groupId = Number(session.metadata?.group_id);
    if (!row && Number.isSafeInteger(groupId) && groupId > 0 && session.amount_total && session.currency === 'gbp') {
      // a school's session made by another server that had not written its row: its metadata names the group
      await tx
        .insert(cardCheckouts)
        .values({ id: session.id, groupId, invoiceId: null, bookingId: null, amountPence: session.amount_total })
        .onConflictDoNothing();
      [row] = await tx.select().from(cardCheckouts).where(eq(cardCheckouts.id, session.id)).for('update');
    }
    if (!row) {
      // a session made by another server that had not written its row, or by hand in Stripe: its metadata names the invoice
      const invoiceId = Number(session.metadata?.invoice_id);
      if (!Number.isSafeInteger(invoiceId) || invoiceId <= 0)
        return { outcome: 'ignored: the session names no invoice of ours' };
      if (!session.amount_total || session.currency !== 'gbp')
        return { outcome: 'ignored: the session is not a payment in pounds' };
      const [invoice] = await tx
        .select({ bookingId: invoices.bookingId })
        .from(invoices)
        .where(eq(invoices.id, invoiceId));
      if (!invoice) return { outcome: `ignored: invoice ${invoiceId} is not ours` };
      await tx
        .insert(cardCheckouts)
        .values({ id: session.id, invoiceId, bookingId: invoice.bookingId, amountPence: session.amount_total })
        .onConflictDoNothing();
      [row] = await tx.select().from(cardCheckouts).where(eq(cardCheckouts.id, session.id)).for('update');
    }
    if (!row) return { outcome: 'ignored: the session could not be kept' };
    if (row.transactionId !== null || row.status === 'complete') return { outcome: 'already recorded' };
    if (row.groupId !== null)
      return this.applyGroupSession(
        tx,
        { id: row.id, groupId: row.groupId, amountPence: row.amountPence },
        session,
        takenAt,
      );
    // a checkout is a group's or a booking's (card_checkouts_payer_check)
    const bookingId = row.bookingId!;
    const paymentIntent =
      typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? session.id);
    const amountPence = session.amount_total ?? row.amountPence;
    const recorded =
      row.invoiceId === null
        ? null
        : await this.transactions.recordFromProvider(tx, {
            invoiceId: row.invoiceId,
            type: 'payment',
            amountPence,
            processor: 'STRIPE',
            date: ukToday(takenAt),
            notes: `Paid by card through Stripe (${paymentIntent})`,
            providerRef: paymentIntent,
            typedAfter: row.createdAt,
          });
    await tx
      .update(cardCheckouts)
      .set({
        status: 'complete',
        paymentIntent,
        transactionId: recorded?.id ?? null,
        appliedAt: nowOf(this.deps.clock),
      })
      .where(eq(cardCheckouts.id, row.id));
    if (!recorded) {
      await this.systemNote(
        tx,
        bookingId,
        `A card payment of ${formatPence(amountPence)} (Stripe ${paymentIntent}) came in for an invoice that has since been deleted. Please record it against the right invoice, or refund it in Stripe.`,
      );
      return { outcome: 'paid, but the invoice is deleted: noted on the booking' };
    }
    // an online booking held for this deposit is now confirmed
    if (recorded.outcome !== 'known') await confirmHeldBooking(tx, bookingId, ukToday(takenAt));
    if (recorded.outcome === 'recorded') return { outcome: 'payment recorded', receiptFor: recorded.id };
    return { outcome: recorded.outcome === 'matched' ? 'matched to a payment recorded by hand' : 'already recorded' };
  }

  /** A school's paid session: split to its group's shares once (money beyond them kept on the last share); no receipt to a parent. */
  private async applyGroupSession(
    tx: Tx,
    row: { id: string; groupId: number; amountPence: number },
    session: Stripe.Checkout.Session,
    takenAt: Date,
  ): Promise<Applied> {
    const paymentIntent =
      typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? session.id);
    const [known] = await tx
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.type, 'payment'), eq(transactions.providerRef, paymentIntent)))
      .orderBy(asc(transactions.id))
      .limit(1);
    const parts = known
      ? []
      : await splitToShares(tx, row.groupId, session.amount_total ?? row.amountPence, {
          processor: 'STRIPE',
          date: ukToday(takenAt),
          notes: `paid by card through Stripe (${paymentIntent})`,
          providerRef: paymentIntent,
          createdBy: null,
          over: 'keep',
        });
    await tx
      .update(cardCheckouts)
      .set({
        status: 'complete',
        paymentIntent,
        transactionId: known?.id ?? parts[0]?.transaction_id ?? null,
        appliedAt: nowOf(this.deps.clock),
      })
      .where(eq(cardCheckouts.id, row.id));
    if (known) return { outcome: 'already recorded' };
    return {
      outcome: parts.length
        ? `group payment recorded, split to ${parts.length} pupil${parts.length === 1 ? '' : 's'}`
        : 'paid, but the group has no shares: noted in the History',
    };
  }

  /** The refunds of a charge, as its event carries them or, when it does not, as Stripe lists them. */
  private async refundsOf(charge: Stripe.Charge): Promise<Stripe.Refund[]> {
    if (charge.refunds?.data && !charge.refunds.has_more) return charge.refunds.data;
    const list = await this.deps.stripe!.refunds.list({ charge: charge.id, limit: 100 });
    return list.data;
  }

  /** A refund made in Stripe's dashboard: recorded on the invoice its payment was recorded on. */
  private async applyRefunds(
    tx: Tx,
    paymentIntent: string | undefined,
    refunds: Stripe.Refund[],
    takenAt: Date,
  ): Promise<Applied> {
    if (!paymentIntent) return { outcome: 'ignored: the charge has no payment intent' };
    const [payment] = await tx
      .select({ invoiceId: transactions.invoiceId, createdAt: transactions.createdAt, groupId: invoices.groupId })
      .from(transactions)
      .innerJoin(invoices, eq(invoices.id, transactions.invoiceId))
      .where(and(eq(transactions.type, 'payment'), eq(transactions.providerRef, paymentIntent)))
      .orderBy(asc(transactions.id))
      .limit(1);
    if (!payment) return { outcome: 'ignored: no payment of ours for this charge' };
    let count = 0;
    if (payment.groupId !== null) {
      // a school's payment, split to its pupils' shares: its refund is split back
      for (const refund of refunds) {
        if (refund.status !== 'succeeded') continue;
        const parts = await refundSharesIn(tx, paymentIntent, {
          id: refund.id,
          amountPence: refund.amount,
          date: ukToday(refund.created ? new Date(refund.created * 1000) : takenAt),
        });
        if (parts) count += 1;
      }
      return { outcome: count ? `${count} refund${count === 1 ? '' : 's'} recorded` : 'refunds already recorded' };
    }
    for (const refund of refunds) {
      // a refund still pending may yet fail: it is recorded when Stripe says it succeeded
      if (refund.status !== 'succeeded') continue;
      const done = await this.transactions.recordFromProvider(tx, {
        invoiceId: payment.invoiceId,
        type: 'refund',
        amountPence: refund.amount,
        processor: 'STRIPE',
        date: ukToday(refund.created ? new Date(refund.created * 1000) : takenAt),
        notes: `Refunded by card through Stripe (${refund.id})`,
        providerRef: refund.id,
        typedAfter: payment.createdAt,
      });
      if (done?.outcome === 'recorded' || done?.outcome === 'matched') count += 1;
    }
    return { outcome: count ? `${count} refund${count === 1 ? '' : 's'} recorded` : 'refunds already recorded' };
  }

  /** A dispute: a note on the booking (the office is emailed once the note is in). */
  private async noteDispute(tx: Tx, dispute: Stripe.Dispute): Promise<Applied> {
    const paymentIntent =
      typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
    const [payment] = paymentIntent
      ? await tx
          .select({ bookingId: transactions.bookingId })
          .from(transactions)
          .where(and(eq(transactions.type, 'payment'), eq(transactions.providerRef, paymentIntent)))
          .limit(1)
      : [];
    if (!payment) return { outcome: 'ignored: no payment of ours for this dispute' };
    await this.systemNote(
      tx,
      payment.bookingId,
      `The card payment ${paymentIntent} is disputed: ${formatPence(dispute.amount)}, reason “${dispute.reason}” (Stripe ${dispute.id}). Answer it in Stripe's dashboard before its deadline.`,
    );
    return { outcome: 'dispute noted on the booking' };
  }

  private async systemNote(tx: Tx, bookingId: number, text: string): Promise<void> {
    const [booking] = await tx
      .select({ ref: bookings.ref, tripId: bookings.tripId })
      .from(bookings)
      .where(eq(bookings.id, bookingId));
    if (!booking) return;
    const html = `<p>${escapeHtml(text)}</p>`;
    const [note] = await tx
      .insert(bookingNotes)
      .values({ bookingId, noteText: html })
      .returning({ id: bookingNotes.id });
    await audit(tx, {
      action: 'note.created',
      subject: { type: 'note', id: note!.id },
      bookingId,
      tripId: booking.tripId,
      summary: `added a note to the booking ${booking.ref}`,
      details: { excerpt: text.slice(0, 200) },
    });
  }

  private async tellOfficeOfDispute(dispute: Stripe.Dispute): Promise<void> {
    await emailOffice(this.deps.db, this.deps.mailer, this.deps.officeEmail, {
      subject: `A card payment is disputed: ${formatPence(dispute.amount)}`,
      text: `A payer has disputed a card payment of ${formatPence(dispute.amount)} (reason: ${dispute.reason}; Stripe ${dispute.id}). A note is on the booking. Answer the dispute in Stripe's dashboard before its deadline.\n\nTripdesk`,
      about: 'of a disputed card payment',
      event: { subject: { type: 'dispute', id: dispute.id } },
    });
  }

  /** After a payment is recorded and committed: the traveller's receipt. */
  private async afterApplied(applied: Applied): Promise<void> {
    if (!applied.receiptFor) return;
    try {
      await this.sendReceipt(applied.receiptFor);
    } catch (error) {
      // the payment is recorded and committed: a receipt that could not be made does not undo it,
      // nor make Stripe send the event again (it would find it applied); the History says so
      await audit(this.deps.db, {
        action: 'email.failed',
        subject: { type: 'transaction', id: applied.receiptFor },
        summary: `could not email the receipt of a card payment: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}`,
        details: { template: 'payment_receipt', outcome: 'not made', message_id: null },
      }).catch(() => undefined);
    }
  }

  /** The receipt of a card payment, to the booking's traveller, once. */
  async sendReceipt(transactionId: number): Promise<void> {
    const [row] = await this.deps.db
      .select({ t: transactions, booking: bookings, trip: { name: trips.name, departure: trips.departureDate } })
      .from(transactions)
      .innerJoin(bookings, eq(bookings.id, transactions.bookingId))
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(transactions.id, transactionId));
    if (!row) return;
    const [invoice] = await loadInvoices(this.deps.db, eq(invoices.id, row.t.invoiceId));
    if (!invoice) return;
    const { booking } = row;
    const email = booking.email;
    await sendOnce(this.deps.db, this.deps.mailer, {
      template: 'payment_receipt',
      context: {
        traveller: {
          title: booking.title,
          first_name: booking.firstName,
          last_name: booking.lastName,
          preferred_name: booking.preferredName,
        },
        booking: { ref: booking.ref },
        trip: { name: row.trip.name, departure: emailDate(row.trip.departure) },
        invoice: receiptInvoice(invoice.reply),
        payment: {
          amount: formatPence(row.t.amountPence),
          date: emailDate(row.t.date),
          reference: row.t.providerRef ?? '',
        },
        portal: { url: portalUrlOf(booking, this.deps.operator.portalLinks, nowOf(this.deps.clock)) },
        operator: { name: this.deps.operator.name },
      },
      to: { name: `${booking.firstName} ${booking.lastName}`, address: email },
      about: { subject: { type: 'transaction', id: transactionId }, bookingId: booking.id, tripId: booking.tripId },
      named: (subject) => `the receipt "${subject}" to ${email}`,
      claim: async () => {
        const [claim] = await this.deps.db
          .insert(paymentReceipts)
          .values({ transactionId, email: email.toLowerCase(), outcome: 'sending' })
          .onConflictDoNothing()
          .returning({ id: paymentReceipts.id });
        return claim?.id;
      },
      settle: async (tx, id, failure) => {
        await tx
          .update(paymentReceipts)
          .set(failure === null ? { outcome: 'sent' } : { outcome: 'failed', error: failure })
          .where(eq(paymentReceipts.id, id));
      },
    });
  }

  // ---- pay links ----

  private readToken(token: string) {
    const settings = this.deps.operator.payLinks;
    if (!this.deps.stripe || !settings) throw new PayLinkRefused('off');
    const reading = readPayLink(token, settings.secret, nowOf(this.deps.clock));
    if (!reading) throw new PayLinkRefused('invalid');
    return reading;
  }

  private readGroupToken(token: string) {
    const settings = this.deps.operator.payLinks;
    if (!this.deps.stripe || !settings) throw new PayLinkRefused('off');
    const reading = readGroupPayLink(token, settings.secret, nowOf(this.deps.clock));
    if (!reading) throw new PayLinkRefused('invalid');
    return reading;
  }

  /** The group invoice a school's link names, refused when it may not be paid now, with why. */
  private async groupPayable(token: string) {
    const reading = this.readGroupToken(token);
    const invoice = await groupInvoiceOf(this.deps.db, reading.groupId, { pdfUrl: '' }).catch(() => null);
    if (!invoice) throw new PayLinkRefused('withdrawn');
    const [trip] = await this.deps.db.select({ status: trips.status }).from(trips).where(eq(trips.id, invoice.trip.id));
    if (trip?.status === 'cancelled') throw new PayLinkRefused('cancelled');
    const outstandingPence = Math.round(invoice.outstanding * 100);
    if (outstandingPence <= 0) throw new PayLinkRefused('paid');
    if (reading.expired) throw new PayLinkRefused('expired');
    return { groupId: reading.groupId, invoice, outstandingPence };
  }

  /** The invoice a link names, refused when it may not be paid now, with why. */
  private async payable(token: string) {
    const reading = this.readToken(token);
    let state = await this.invoiceState(reading.invoiceId);
    // an online booking that replied before its deposit invoice was raised (decision 030): raised now
    if (!state && this.deps.setups) {
      await this.deps.setups.finishForInvoice(reading.invoiceId);
      state = await this.invoiceState(reading.invoiceId);
    }
    // a school's share is paid with its group invoice's link, never one of its own
    if (!state || state.groupId !== null) throw new PayLinkRefused('withdrawn');
    if (state.cancelled) throw new PayLinkRefused('cancelled');
    if (state.outstandingPence <= 0) throw new PayLinkRefused('paid');
    if (reading.expired) throw new PayLinkRefused('expired');
    return { state, stripe: this.deps.stripe!, settings: this.deps.operator.payLinks! };
  }

  private async invoiceState(invoiceId: number) {
    const [loaded] = await loadInvoices(this.deps.db, eq(invoices.id, invoiceId));
    if (!loaded) return null;
    const [row] = await this.deps.db
      .select({
        status: bookings.status,
        firstName: bookings.firstName,
        tripId: trips.id,
        tripName: trips.name,
        departure: trips.departureDate,
      })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, loaded.reply.booking_id));
    if (!row) return null;
    return {
      invoiceId,
      bookingId: loaded.reply.booking_id,
      ref: loaded.reply.invoice_ref,
      outstandingPence: loaded.summary.outstandingPence,
      groupId: loaded.groupId,
      // a cancelled booking's invoices are closed, but its cancellation fee may be paid
      cancelled: !stillPayable(row.status, loaded.reply.type),
      firstName: row.firstName,
      tripId: row.tripId,
      tripName: row.tripName,
      departure: row.departure,
    };
  }
}

function receiptInvoice(invoice: { invoice_ref: string; total: number; outstanding: number; due_date: string }) {
  return {
    ref: invoice.invoice_ref,
    total: formatPounds(invoice.total),
    outstanding: formatPounds(invoice.outstanding),
    due_date: emailDate(invoice.due_date),
  };
}
