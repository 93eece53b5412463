import { and, asc, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import {
  auditEvents,
  bookingNotes,
  bookings,
  cardCheckouts,
  invoiceAddons,
  invoices,
  moneyOwed,
  refundsDue,
  tripAddons,
  stripeEvents,
  transactions,
} from '../../../db/schema/index.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../../tests/support/stripe-stand-in.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { systemClock, type Clock } from '../../clock.ts';
import { operatorOf } from '../../config.ts';
import { createMailer } from '../../mail/transport.ts';
import { buildApp } from '../../app.ts';
import { cardPaymentsFrom } from './service.ts';
import { buildDigest } from '../schedules/digest.ts';
import { ReminderService } from '../schedules/reminders.ts';
import { sendCardPaymentsReport } from './nightly-report.ts';
import { ukToday } from '../../../contract/dates.ts';

let stripe: StripeStandIn;
let sink: Awaited<ReturnType<typeof smtpSink>>;
let t: TestApp;
let admin: TestClient;
// the app's clock, moved by the tests that need a later day
let shift = 0;
const clock: Clock = { ...systemClock, now: () => Date.now() + shift };

beforeAll(async () => {
  stripe = await startStripeStandIn();
  sink = await smtpSink();
  t = await createTestApp(
    {
      smtpUrl: `smtp://127.0.0.1:${sink.port}`,
      officeEmail: 'office@operator.test',
      stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.url },
      publicUrl: 'https://pay.operator.test',
    },
    { appClock: clock },
  );
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
  await stripe?.close();
});
beforeEach(() => {
  shift = 0;
});

let n = 0;
/** A booking with a deposit invoice of £300 outstanding, and that invoice's pay link. */
async function invoiceToPay(depositPence = 30_000) {
  n += 1;
  const trip = await insertTrip(t.db, {
    name: `Kilimanjaro Climb ${n}`,
    depositPence,
    departureDate: '2031-06-01',
    returnDate: '2031-06-10',
  });
  const booking = await insertBooking(t.db, trip.id, {
    email: `payer${n}@example.test`,
    firstName: 'Ada',
    lastName: `Lovelace${n}`,
    passportNumber: '123456789',
  });
  const invoice = (await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' })).json() as {
    id: number;
    invoice_ref: string;
    outstanding: number;
  };
  const link = await admin.post(`/api/invoices/${invoice.id}/pay-link`);
  expect(link.statusCode, link.body).toBe(200);
  const { url } = link.json() as { url: string };
  const token = url.split('/pay/')[1]!;
  return { trip, booking, invoice, url, token };
}

/** A payer's browser: the pay page's CSRF token, as the page gives it. */
async function payer(token: string) {
  const client = t.client();
  await client.refreshCsrf(`/pay/${token}`);
  return client;
}

const webhook = (signed: { payload: string; header: string }) =>
  t.client().request({
    method: 'POST',
    url: '/webhooks/stripe',
    payload: signed.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
    csrf: false,
  });

const paymentsOn = (invoiceId: number) =>
  t.db.select().from(transactions).where(eq(transactions.invoiceId, invoiceId)).orderBy(asc(transactions.id));
const invoiceOf = async (bookingId: number, invoiceId: number) =>
  (
    (await admin.get(`/api/invoices?booking_id=${bookingId}`)).json() as Array<{
      id: number;
      status: string;
      outstanding: number;
      payment_received: number;
      transactions: Array<Record<string, unknown>>;
    }>
  ).find((i) => i.id === invoiceId)!;

/** Opens a checkout on the link and has the payer pay on Stripe's page; returns the session. */
async function paidSession(token: string) {
  const client = await payer(token);
  const res = await client.post(`/api/public/pay/${token}/checkout`);
  expect(res.statusCode, res.body).toBe(200);
  const sessionId = /\/c\/pay\/(cs_\w+)$/.exec((res.json() as { url: string }).url)![1]!;
  return { client, session: stripe.pay(sessionId) };
}

describe('pay links', () => {
  it('gives staff a signed link that expires after PAY_LINK_DAYS', async () => {
    const { invoice, url } = await invoiceToPay();
    expect(url).toMatch(/^https:\/\/pay\.operator\.test\/pay\/[0-9a-z]+\.[0-9a-z]+\.[\w-]{32}$/);
    const reply = (await admin.post(`/api/invoices/${invoice.id}/pay-link`)).json() as { expires_at: string };
    const days = (Date.parse(reply.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('shows the payer the operator, trip, departure, invoice reference, first name and amount, and nothing else', async () => {
    const { token, invoice, trip } = await invoiceToPay();
    const res = await t.client().get(`/api/public/pay/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      operator: 'Tripdesk Test Adventures Ltd',
      trip: { name: trip.name, departure: '2031-06-01' },
      invoice_ref: invoice.invoice_ref,
      first_name: 'Ada',
      outstanding: 300,
    });
    expect(res.body).not.toMatch(/Lovelace|payer\d+@|123456789/);
    expect(res.headers['cache-control']).toBe('no-store');
    // the page itself is the traveller's side of the web app, served to anyone
    const page = await t.client().get(`/pay/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('csrf-token');
  });

  it('refuses a tampered, expired, paid, withdrawn or cancelled link with a clear reason', async () => {
    const { token, invoice, booking } = await invoiceToPay();
    const anyone = t.client();
    const tampered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect((await anyone.get(`/api/public/pay/${tampered}`)).json()).toMatchObject({
      reason: 'invalid',
      message: expect.stringContaining('not valid'),
    });
    expect((await anyone.get(`/api/public/pay/${tampered}`)).statusCode).toBe(404);
    // another invoice's id under this signature
    const [id, exp, sig] = token.split('.');
    expect((await anyone.get(`/api/public/pay/${(parseInt(id!, 36) + 1).toString(36)}.${exp}.${sig}`)).statusCode).toBe(
      404,
    );

    shift = 31 * 86_400_000;
    const expired = await anyone.get(`/api/public/pay/${token}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({
      reason: 'expired',
      message: 'This pay link has expired. Please ask us for a new one.',
      operator: 'Tripdesk Test Adventures Ltd',
    });
    shift = 0;

    await t.db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, booking.id));
    expect((await anyone.get(`/api/public/pay/${token}`)).json()).toMatchObject({ reason: 'cancelled' });
    expect((await (await payer(token)).post(`/api/public/pay/${token}/checkout`)).statusCode).toBe(410);
    await t.db.update(bookings).set({ status: 'provisional' }).where(eq(bookings.id, booking.id));

    expect((await admin.delete(`/api/invoices/${invoice.id}`)).statusCode).toBeLessThan(300);
    expect((await anyone.get(`/api/public/pay/${token}`)).json()).toMatchObject({ reason: 'withdrawn' });
  });

  it('keeps the cancellation fee of a cancelled booking payable by card, and closes its other invoices', async () => {
    const { booking, token } = await invoiceToPay();
    const cancelled = await admin.post(`/api/bookings/${booking.id}/cancel`, {
      reason: 'Changed plans',
      notify: false,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const feeId = cancelled.json().cancellation_invoice_id as number;
    expect(feeId).toEqual(expect.any(Number));
    // the deposit invoice went (nothing was paid on it); the fee's own link works
    expect((await t.client().get(`/api/public/pay/${token}`)).json()).toMatchObject({ reason: 'withdrawn' });
    const link = await admin.post(`/api/invoices/${feeId}/pay-link`);
    expect(link.statusCode, link.body).toBe(200);
    const feeToken = (link.json() as { url: string }).url.split('/pay/')[1]!;
    const page = await t.client().get(`/api/public/pay/${feeToken}`);
    expect(page.statusCode, page.body).toBe(200);
  });

  it('is in the invoice email, on the printable invoice with its QR code, and in the reminders', async () => {
    const { invoice, booking } = await invoiceToPay();
    const doc = (await admin.get(`/api/invoices/${invoice.id}`)).json() as {
      pay: { url: string; qr: string } | null;
      operator: Record<string, unknown>;
    };
    expect(doc.pay!.url).toMatch(/^https:\/\/pay\.operator\.test\/pay\//);
    expect(doc.pay!.qr).toMatch(/^data:image\/png;base64,/);
    // the operator as printed: nothing of how its links are signed
    expect(Object.keys(doc.operator).sort()).toEqual(['address', 'name']);
    const mails = sink.received.length;
    expect((await admin.post(`/api/bookings/${booking.id}/invoices/${invoice.id}/send`)).statusCode).toBe(200);
    expect(
      sink.received
        .slice(mails)
        .at(-1)!
        .raw.replace(/=\r?\n/g, ''),
    ).toContain('Pay by card: https://pay.operator.test/pay/');
    const pdf = await admin.get(`/api/invoices/${invoice.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), { mergePages: true });
    expect(text).toContain('Pay by card');
    // each printing signs a link of its own (wrapped at a slash when long)
    expect(text.replace(/\s+/g, '')).toMatch(
      /Paybycardhttps:\/\/pay\.operator\.test\/pay\/[0-9a-z]+\.[0-9a-z]+\.[\w-]{32}Scan/,
    );
    // the QR code: one image on the page, the PNG it was made from
    expect(pdf.rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image/);
    const preview = await admin.post('/api/email-templates/reminder_due/preview', { booking_id: booking.id });
    expect((preview.json() as { text: string }).text).toMatch(/Pay by card: https:\/\/pay\.operator\.test\/pay\/\S+/);
  });

  it('needs the page’s CSRF token to start a payment', async () => {
    const { token } = await invoiceToPay();
    const res = await t.client().request({ method: 'POST', url: `/api/public/pay/${token}/checkout`, csrf: false });
    expect(res.statusCode).toBe(419);
  });
});

describe('paying by card', () => {
  it('makes a Checkout Session for what is outstanding, in pence and gbp, naming the invoice, with an idempotency key', async () => {
    const { token, invoice, booking } = await invoiceToPay(45_050);
    const client = await payer(token);
    const before = stripe.requests.length;
    const res = await client.post(`/api/public/pay/${token}/checkout`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { url: string }).url).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_`));
    const call = stripe.requests.slice(before).find((r) => r.path === '/v1/checkout/sessions')!;
    expect(call.idempotencyKey).toMatch(/^tripdesk-pay-/);
    expect(call.body).toMatchObject({
      mode: 'payment',
      line_items: [{ quantity: '1', price_data: { currency: 'gbp', unit_amount: '45050' } }],
      metadata: { invoice_id: String(invoice.id), booking_id: String(booking.id), invoice_ref: invoice.invoice_ref },
      success_url: `https://pay.operator.test/pay/${token}?session_id={CHECKOUT_SESSION_ID}`,
    });
    // pressed twice within the minute: the same session
    const again = await client.post(`/api/public/pay/${token}/checkout`);
    expect((again.json() as { url: string }).url).toBe((res.json() as { url: string }).url);
  });

  it('records the payment from the signed webhook once: invoice paid, money due cleared, History by Stripe, one receipt', async () => {
    const { token, invoice, booking } = await invoiceToPay();
    const { session } = await paidSession(token);
    const mails = sink.received.length;
    const event = stripe.event('checkout.session.completed', session);
    const res = await webhook(stripe.signed(event));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, outcome: 'payment recorded' });

    const [payment, ...more] = await paymentsOn(invoice.id);
    expect(more).toHaveLength(0);
    expect(payment).toMatchObject({
      type: 'payment',
      processor: 'STRIPE',
      amountPence: 30_000,
      providerRef: session.payment_intent,
      createdBy: null,
    });
    const after = await invoiceOf(booking.id, invoice.id);
    expect(after).toMatchObject({ status: 'Paid', outstanding: 0, payment_received: 300 });
    expect(after.transactions[0]).toMatchObject({
      created_by: 'Stripe',
      processor: 'STRIPE',
      provider_ref: session.payment_intent,
    });
    expect(
      await t.db
        .select()
        .from(moneyOwed)
        .where(and(eq(moneyOwed.kind, 'invoice'), eq(moneyOwed.id, invoice.id))),
    ).toHaveLength(0);
    const [recorded] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, booking.id), eq(auditEvents.action, 'transaction.recorded')));
    expect(recorded).toMatchObject({
      actorName: 'Stripe',
      actorType: 'system',
      source: 'webhook',
      summary: `Stripe recorded a payment of £300.00 (STRIPE) on ${invoice.invoice_ref}`,
    });

    const receipts = sink.received.slice(mails).filter((m) => m.to.includes(`payer${n}@example.test`));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.raw).toMatch(/^Subject: .*Receipt/m);
    expect(receipts[0]!.raw).toContain('This invoice is now paid in full.');

    // delivered again, and a second event of the same session: still one payment, no second receipt
    expect((await webhook(stripe.signed(event))).json()).toMatchObject({
      outcome: expect.stringContaining('already applied'),
    });
    expect(
      (await webhook(stripe.signed(stripe.event('checkout.session.async_payment_succeeded', session)))).json(),
    ).toMatchObject({ outcome: 'already recorded' });
    expect(await paymentsOn(invoice.id)).toHaveLength(1);
    expect(sink.received.slice(mails).filter((m) => m.to.includes(`payer${n}@example.test`))).toHaveLength(1);

    // the paid link now says so, and the invoice is reminded of no more
    expect((await t.client().get(`/api/public/pay/${token}`)).json()).toMatchObject({ reason: 'paid' });
    const reminders = new ReminderService(t.db, createMailer(t.config), operatorOf(t.config), clock);
    expect(await reminders.sendForInvoice(invoice.id, ukToday(new Date()))).toBe('skipped');
  });

  it('applies one event delivered twice at once as one payment', async () => {
    const { token, invoice } = await invoiceToPay();
    const { session } = await paidSession(token);
    const signed = stripe.signed(stripe.event('checkout.session.completed', session));
    const replies = await Promise.all([webhook(signed), webhook(signed), webhook(signed)]);
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await paymentsOn(invoice.id)).toHaveLength(1);
  });

  it('applies one event delivered to two servers of one database at once as one payment', async () => {
    // a second app server on the same database (on PostgreSQL, its own connections)
    const other = await buildApp({ config: t.config, db: t.db, files: t.files });
    await other.ready();
    try {
      const { token, invoice } = await invoiceToPay();
      const { session } = await paidSession(token);
      const signed = stripe.signed(stripe.event('checkout.session.completed', session));
      const to = (app: typeof other) =>
        app.inject({
          method: 'POST',
          url: '/webhooks/stripe',
          payload: signed.payload,
          headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
        });
      const replies = await Promise.all([to(t.app), to(other), to(t.app), to(other)]);
      expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect(replies.filter((r) => (r.json() as { outcome: string }).outcome === 'payment recorded')).toHaveLength(1);
      expect(await paymentsOn(invoice.id)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('refuses a tampered body, a wrong secret, a stale timestamp and a missing signature with 400, changing nothing', async () => {
    const { token, invoice } = await invoiceToPay();
    const { session } = await paidSession(token);
    const event = stripe.event('checkout.session.completed', session);
    const good = stripe.signed(event);
    const events = (await t.db.select().from(stripeEvents)).length;
    const tampered = {
      payload: good.payload.replace('"amount_total": 30000', '"amount_total": 30'),
      header: good.header,
    };
    expect(tampered.payload).not.toBe(good.payload);
    const refusals = [
      tampered,
      stripe.signed(event, { secret: 'whsec_someone_else' }),
      stripe.signed(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
      { payload: good.payload, header: '' },
    ];
    for (const signed of refusals) {
      const res = await webhook(signed);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'The Stripe-Signature header is missing, stale or does not match this body.',
      });
    }
    expect(await paymentsOn(invoice.id)).toHaveLength(0);
    expect(await t.db.select().from(stripeEvents)).toHaveLength(events);
  });

  it('acknowledges a verified event it has no use for, and one for a session that is not ours', async () => {
    expect(
      (await webhook(stripe.signed(stripe.event('customer.created', { id: 'cus_1', object: 'customer' })))).json(),
    ).toEqual({ received: true, outcome: 'ignored: Tripdesk has no use for customer.created' });
    const stranger = {
      ...stripe.sessions.values().next().value!,
      id: 'cs_test_not_ours',
      metadata: {},
      payment_status: 'paid',
    };
    expect((await webhook(stripe.signed(stripe.event('checkout.session.completed', stranger)))).json()).toMatchObject({
      received: true,
      outcome: 'ignored: the session names no invoice of ours',
    });
  });

  it('records from the return page a payment whose webhook never came, asking Stripe rather than trusting the address', async () => {
    const { token, invoice, booking } = await invoiceToPay();
    const client = await payer(token);
    const started = (await client.post(`/api/public/pay/${token}/checkout`)).json() as { url: string };
    const sessionId = /(cs_\w+)$/.exec(started.url)![1]!;
    // back before paying (or a forged return address): Stripe says not paid, nothing recorded
    expect((await client.get(`/api/public/pay/${token}/checkouts/${sessionId}`)).json()).toMatchObject({
      state: 'open',
      amount: 300,
    });
    expect(await paymentsOn(invoice.id)).toHaveLength(0);
    stripe.pay(sessionId);
    const back = await client.get(`/api/public/pay/${token}/checkouts/${sessionId}`);
    expect(back.json()).toEqual({
      state: 'paid',
      amount: 300,
      message: 'Thank you: your payment of £300.00 has been received.',
    });
    expect(await paymentsOn(invoice.id)).toHaveLength(1);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, booking.id), eq(auditEvents.action, 'transaction.recorded')));
    expect(event).toMatchObject({ actorName: 'Stripe', source: 'web' });
    // the webhook arrives late: nothing doubled; the page asked again says paid still
    expect(
      (
        await webhook(stripe.signed(stripe.event('checkout.session.completed', stripe.sessions.get(sessionId)!)))
      ).json(),
    ).toMatchObject({ outcome: 'already recorded' });
    expect((await client.get(`/api/public/pay/${token}/checkouts/${sessionId}`)).json()).toMatchObject({
      state: 'paid',
    });
    expect(await paymentsOn(invoice.id)).toHaveLength(1);
    // another link's token cannot ask about this session
    const other = await invoiceToPay();
    expect((await client.get(`/api/public/pay/${other.token}/checkouts/${sessionId}`)).statusCode).toBe(404);
  });

  it('keeps a second payment of an invoice already paid, as overpaid', async () => {
    const { token, invoice, booking } = await invoiceToPay();
    const first = await paidSession(token);
    // a second tab opened before the first paid, a minute later
    shift = 120_000;
    const second = await paidSession(token);
    shift = 0;
    expect(second.session.id).not.toBe(first.session.id);
    await webhook(stripe.signed(stripe.event('checkout.session.completed', first.session)));
    expect(
      (await webhook(stripe.signed(stripe.event('checkout.session.completed', second.session)))).json(),
    ).toMatchObject({ outcome: 'payment recorded' });
    expect(await paymentsOn(invoice.id)).toHaveLength(2);
    expect(await invoiceOf(booking.id, invoice.id)).toMatchObject({ payment_received: 600 });

    // shown as a refund due: in the money-due screen's list and in the office's evening digest
    const due = (await admin.get('/api/money-due/refunds')).json() as {
      data: Array<{ invoice_id: number; overpaid: number; booking_ref: string }>;
    };
    expect(due.data.find((r) => r.invoice_id === invoice.id)).toMatchObject({
      overpaid: 300,
      booking_ref: booking.ref,
    });
    const digest = await buildDigest(t.db, new Date().toISOString().slice(0, 10));
    expect(digest.refunds.find((r) => r.invoice === invoice.invoice_ref)).toMatchObject({
      overpaid: '£300.00',
      ref: booking.ref,
    });
    // refunded in Stripe: no longer due
    const { event } = stripe.refund(second.session.payment_intent!, 30_000);
    expect((await webhook(stripe.signed(event))).json()).toMatchObject({ outcome: '1 refund recorded' });
    const after = (await admin.get('/api/money-due/refunds')).json() as { data: Array<{ invoice_id: number }> };
    expect(after.data.find((r) => r.invoice_id === invoice.id)).toBeUndefined();
  });

  it('keeps what is overpaid in step with every change of what the invoice totals', async () => {
    const { token, invoice, trip } = await invoiceToPay();
    const { session } = await paidSession(token);
    await webhook(stripe.signed(stripe.event('checkout.session.completed', session)));
    const overpaid = async () =>
      (await t.db.select().from(refundsDue).where(eq(refundsDue.invoiceId, invoice.id)))[0]?.overpaidPence ?? 0;
    expect(await overpaid()).toBe(0);
    // a discount given after it was paid in full
    await t.db.update(invoices).set({ discountPence: 5_000 }).where(eq(invoices.id, invoice.id));
    expect(await overpaid()).toBe(5_000);
    const [addon] = await t.db
      .insert(tripAddons)
      .values({ tripId: trip.id, name: 'Kit bag', pricePence: 5_000 })
      .returning();
    await t.db
      .insert(invoiceAddons)
      .values({ invoiceId: invoice.id, addonId: addon!.id, name: 'Kit bag', pricePence: 5_000 });
    expect(await overpaid()).toBe(0);
    // the add-on's price on the invoice lowered
    await t.db.update(invoiceAddons).set({ pricePence: 1_000 }).where(eq(invoiceAddons.invoiceId, invoice.id));
    expect(await overpaid()).toBe(4_000);
    // the payment deleted outright
    await t.db.delete(transactions).where(eq(transactions.invoiceId, invoice.id));
    expect(await overpaid()).toBe(0);
  });

  it('records a card payment beside a payment of the same amount typed before the payer opened Stripe (other money)', async () => {
    const { token, invoice, booking } = await invoiceToPay();
    // half by phone first, typed as a card payment
    const phone = await admin.post('/api/transactions', {
      booking_id: booking.id,
      invoice_id: invoice.id,
      invoice_type: 'deposit',
      amount: 150,
      type: 'payment',
      processor: 'STRIPE',
      date: new Date().toISOString().slice(0, 10),
    });
    expect(phone.statusCode, phone.body).toBeLessThan(300);
    // a moment later the traveller pays the other half online
    shift = 5_000;
    const { session } = await paidSession(token);
    expect(session.amount_total).toBe(15_000);
    expect((await webhook(stripe.signed(stripe.event('checkout.session.completed', session)))).json()).toMatchObject({
      outcome: 'payment recorded',
    });
    expect(await invoiceOf(booking.id, invoice.id)).toMatchObject({ status: 'Paid', payment_received: 300 });
  });

  it('opens a session of its own for each of two links of one invoice used in the same minute', async () => {
    const { token, invoice } = await invoiceToPay();
    // made a few seconds later (by another member of staff, or for another email): another token
    shift = 3_000;
    const other = ((await admin.post(`/api/invoices/${invoice.id}/pay-link`)).json() as { url: string }).url.split(
      '/pay/',
    )[1]!;
    expect(other).not.toBe(token);
    const first = await (await payer(token)).post(`/api/public/pay/${token}/checkout`);
    const second = await (await payer(other)).post(`/api/public/pay/${other}/checkout`);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect((first.json() as { url: string }).url).not.toBe((second.json() as { url: string }).url);
  });

  it('matches a payment staff typed by hand to the webhook instead of doubling it', async () => {
    const { token, invoice, booking } = await invoiceToPay();
    const { session } = await paidSession(token);
    const typed = await admin.post('/api/transactions', {
      booking_id: booking.id,
      invoice_id: invoice.id,
      invoice_type: 'deposit',
      amount: 300,
      type: 'payment',
      processor: 'STRIPE',
      date: new Date().toISOString().slice(0, 10),
    });
    expect(typed.statusCode, typed.body).toBeLessThan(300);
    expect((await webhook(stripe.signed(stripe.event('checkout.session.completed', session)))).json()).toMatchObject({
      outcome: 'matched to a payment recorded by hand',
    });
    const [only, ...none] = await paymentsOn(invoice.id);
    expect(none).toHaveLength(0);
    expect(only).toMatchObject({ providerRef: session.payment_intent, createdBy: expect.any(Number) });
  });
});

describe('refunds and disputes from Stripe', () => {
  it('records a refund made in Stripe’s dashboard once, and matches one typed by hand', async () => {
    const { token, invoice, booking } = await invoiceToPay();
    const { session } = await paidSession(token);
    await webhook(stripe.signed(stripe.event('checkout.session.completed', session)));
    const { event } = stripe.refund(session.payment_intent!, 5_000);
    expect((await webhook(stripe.signed(event))).json()).toMatchObject({ outcome: '1 refund recorded' });
    expect((await webhook(stripe.signed(stripe.event('charge.refunded', event.data.object)))).json()).toMatchObject({
      outcome: 'refunds already recorded',
    });
    expect(await invoiceOf(booking.id, invoice.id)).toMatchObject({ payment_received: 250, status: 'Part Paid' });

    // a second refund, typed by staff first, then told of by Stripe
    const typed = await admin.post('/api/transactions', {
      booking_id: booking.id,
      invoice_id: invoice.id,
      invoice_type: 'deposit',
      amount: 20,
      type: 'refund',
      processor: 'STRIPE',
      date: new Date().toISOString().slice(0, 10),
    });
    expect(typed.statusCode, typed.body).toBeLessThan(300);
    const second = stripe.refund(session.payment_intent!, 2_000);
    expect((await webhook(stripe.signed(second.event))).json()).toMatchObject({ outcome: '1 refund recorded' });
    const refunds = (await paymentsOn(invoice.id)).filter((e) => e.type === 'refund');
    expect(refunds.map((r) => [r.amountPence, r.providerRef])).toEqual([
      [5_000, expect.stringMatching(/^re_/)],
      [2_000, second.refund.id],
    ]);
  });

  it('records a refund that was pending only when Stripe says it succeeded', async () => {
    const { token, invoice, booking } = await invoiceToPay();
    const { session } = await paidSession(token);
    await webhook(stripe.signed(stripe.event('checkout.session.completed', session)));
    const { refund, event } = stripe.refund(session.payment_intent!, 4_000, 'pending');
    expect((await webhook(stripe.signed(event))).json()).toMatchObject({ outcome: 'refunds already recorded' });
    expect(await invoiceOf(booking.id, invoice.id)).toMatchObject({ payment_received: 300 });
    const done = { ...refund, status: 'succeeded' };
    expect((await webhook(stripe.signed(stripe.event('charge.refund.updated', done)))).json()).toMatchObject({
      outcome: '1 refund recorded',
    });
    expect(await invoiceOf(booking.id, invoice.id)).toMatchObject({ payment_received: 260 });
    // struck out by staff, then told of again: not recorded a second time
    const [entry] = (await paymentsOn(invoice.id)).filter((e) => e.type === 'refund');
    expect((await admin.delete(`/api/transactions/${entry!.id}`)).statusCode).toBeLessThan(300);
    expect((await webhook(stripe.signed(stripe.event('charge.refund.updated', done)))).json()).toMatchObject({
      outcome: 'refunds already recorded',
    });
    expect((await paymentsOn(invoice.id)).filter((e) => e.type === 'refund' && e.deletedAt === null)).toHaveLength(0);
  });

  it('notes a dispute on the booking and tells the office', async () => {
    const { token, booking } = await invoiceToPay();
    const { session } = await paidSession(token);
    await webhook(stripe.signed(stripe.event('checkout.session.completed', session)));
    const mails = sink.received.length;
    const dispute = {
      id: 'dp_test_1',
      object: 'dispute',
      amount: 30_000,
      reason: 'fraudulent',
      payment_intent: session.payment_intent,
      charge: 'ch_x',
      status: 'needs_response',
    };
    expect((await webhook(stripe.signed(stripe.event('charge.dispute.created', dispute)))).json()).toMatchObject({
      outcome: 'dispute noted on the booking',
    });
    const notes = await t.db.select().from(bookingNotes).where(eq(bookingNotes.bookingId, booking.id));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.noteText).toContain('disputed');
    const office = sink.received.slice(mails).filter((m) => m.to.includes('office@operator.test'));
    expect(office).toHaveLength(1);
  });
});

describe('the card payments report', () => {
  it('lists each card payment and refund of the days with its Stripe id, and goes to the office each morning', async () => {
    const { token, invoice, booking } = await invoiceToPay();
    const { session } = await paidSession(token);
    await webhook(stripe.signed(stripe.event('checkout.session.completed', session)));
    const today = ukToday(new Date());
    const report = (await admin.get(`/api/reports/card-payments?from=${today}&to=${today}`)).json() as {
      rows: Array<Record<string, unknown>>;
      columns: Array<{ key: string }>;
    };
    expect(report.columns.map((c) => c.key)).toEqual([
      'date',
      'booking',
      'traveller',
      'trip',
      'invoice',
      'type',
      'amount',
      'stripe_id',
    ]);
    expect(report.rows.find((r) => r.invoice === invoice.invoice_ref)).toMatchObject({
      booking: booking.ref,
      type: 'Payment',
      amount: 300,
      stripe_id: session.payment_intent,
    });
    // the next morning: yesterday's, as an .xlsx, to OFFICE_EMAIL
    const mails = sink.received.length;
    const tomorrow = Date.now() + 86_400_000;
    const sent = await sendCardPaymentsReport(t.db, createMailer(t.config), 'office@operator.test', {
      now: () => tomorrow,
    });
    expect(sent.sent).toBe(true);
    expect(sent.rows).toBeGreaterThanOrEqual(1);
    const mail = sink.received.slice(mails).find((m) => m.to.includes('office@operator.test'))!;
    expect(mail.raw).toMatch(/card-payments.*\.xlsx/);
    // a day without card payments sends nothing
    expect(
      await sendCardPaymentsReport(t.db, createMailer(t.config), 'office@operator.test', {
        now: () => Date.now() + 400 * 86_400_000,
      }),
    ).toEqual({ sent: false, rows: 0 });
  });
});

describe('reconciliation', () => {
  it('records a session paid an hour ago that no webhook told of, and closes an expired one', async () => {
    const paid = await invoiceToPay();
    const { session } = await paidSession(paid.token);
    const lapsed = await invoiceToPay();
    const started = (await (await payer(lapsed.token)).post(`/api/public/pay/${lapsed.token}/checkout`)).json() as {
      url: string;
    };
    stripe.expire(/(cs_\w+)$/.exec(started.url)![1]!);
    const service = (at: number) =>
      cardPaymentsFrom({
        db: t.db,
        config: t.config,
        operator: operatorOf(t.config),
        mailer: createMailer(t.config),
        clock: { now: () => at },
      });
    // not yet an hour: left to the webhook
    expect(await service(Date.now()).reconcile()).toMatchObject({ looked: 0 });
    const result = await service(Date.now() + 3_700_000).reconcile();
    expect(result.recorded).toBeGreaterThanOrEqual(1);
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(await paymentsOn(paid.invoice.id)).toHaveLength(1);
    const [row] = await t.db.select().from(cardCheckouts).where(eq(cardCheckouts.id, session.id));
    expect(row).toMatchObject({ status: 'complete', paymentIntent: session.payment_intent });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, paid.booking.id), eq(auditEvents.action, 'transaction.recorded')));
    expect(event).toMatchObject({ actorName: 'Stripe', source: 'system' });
  });

  it('dates a payment it finds the day Stripe took it, not the day it asks', async () => {
    const { invoice, token } = await invoiceToPay();
    const started = (await (await payer(token)).post(`/api/public/pay/${token}/checkout`)).json() as { url: string };
    const tookAt = Math.floor(Date.now() / 1000) - 60;
    stripe.pay(/(cs_\w+)$/.exec(started.url)![1]!, tookAt);
    // the job runs a day and an hour later (still within its two days)
    const askedAt = Date.now() + 25 * 3_600_000;
    await cardPaymentsFrom({
      db: t.db,
      config: t.config,
      operator: operatorOf(t.config),
      mailer: createMailer(t.config),
      clock: { now: () => askedAt },
    }).reconcile();
    const [payment] = await paymentsOn(invoice.id);
    expect(payment).toMatchObject({ type: 'payment', processor: 'STRIPE', date: ukToday(new Date(tookAt * 1000)) });
    expect(payment!.date).not.toBe(ukToday(new Date(askedAt)));
  });
});

describe('when Stripe cannot be reached', () => {
  it('says so with a 502, and opens no payment', async () => {
    // nothing listens on the discard port
    const away = await createTestApp({
      stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: 'http://127.0.0.1:9' },
    });
    try {
      const office = await away.signedIn(1);
      const trip = await insertTrip(away.db, { depositPence: 10_000 });
      const booking = await insertBooking(away.db, trip.id, {});
      const invoice = (
        await office.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' })
      ).json() as { id: number };
      const token = ((await office.post(`/api/invoices/${invoice.id}/pay-link`)).json() as { url: string }).url.split(
        '/pay/',
      )[1]!;
      const payer = away.client();
      await payer.refreshCsrf(`/pay/${token}`);
      const res = await payer.post(`/api/public/pay/${token}/checkout`);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        message: 'The card payment service cannot be reached just now. Please try again in a minute.',
      });
      expect(await away.db.select().from(cardCheckouts)).toHaveLength(0);
    } finally {
      await away.close();
    }
  });
});

describe('without Stripe', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
  });
  afterAll(async () => plain?.close());

  it('says card payments are not set up wherever a pay link would be, and takes no webhook', async () => {
    const office = await plain.signedIn(1);
    const trip = await insertTrip(plain.db, { depositPence: 10_000 });
    const booking = await insertBooking(plain.db, trip.id, {});
    const invoice = (await office.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' })).json() as {
      id: number;
    };
    const link = await office.post(`/api/invoices/${invoice.id}/pay-link`);
    expect(link.statusCode).toBe(409);
    expect(link.json()).toEqual({ message: 'Card payments are not set up' });
    expect((await plain.client().get('/api/public/pay/1.abc.abcdefghijklmnopqrstuvwxyz012345')).json()).toMatchObject({
      reason: 'off',
    });
    const hook = await plain.client().request({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      csrf: false,
    });
    expect(hook.statusCode).toBe(404);
    expect(await plain.db.select().from(transactions)).toHaveLength(0);
  });
});
