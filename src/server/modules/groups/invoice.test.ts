import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import {
  auditEvents,
  invoices,
  moneyOwed,
  refundsOwed,
  scheduleRows,
  transactions,
  users,
} from '../../../db/schema/index.ts';
import { hashPassword } from '../../../shared/password.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../../tests/support/stripe-stand-in.ts';
import { createTestApp, PASSWORD, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

/**
 * Issue 37: when the school pays all or a share, its group invoice: one line per pupil (an
 * invoice on the pupil's booking), updated as pupils join or leave, payments from the school
 * split to the pupils' bookings; never the parents' to pay, be reminded of or be refunded.
 */
let t: TestApp;
let stripe: StripeStandIn;
let admin: TestClient;
let n = 0;
const today = ukToday();
const COST = 189500;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createTestApp({
    stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.url },
  });
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const webhook = (signed: { payload: string; header: string }) =>
  t.client().request({
    method: 'POST',
    url: '/webhooks/stripe',
    payload: signed.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
    csrf: false,
  });

/** A school trip 120 days away (cost £1,895) with one group and its leader signed in, and `pupils` pupils. */
async function groupWith(pupils: number, opts: { payer: string; school_share?: string }) {
  n += 1;
  const trip = await insertTrip(t.db, {
    name: `Year 9 Berlin ${n}`,
    type: 'school',
    costPence: COST,
    depositPence: 25000,
    departureDate: addDays(today, 120),
    returnDate: addDays(today, 125),
  });
  const email = `head${n}@academy.test`;
  const group = await admin.post(`/api/trips/${trip.id}/groups`, {
    school: `Academy ${n}`,
    leader_name: `Sam Head${n}`,
    leader_email: email,
    places: 30,
    ...opts,
  });
  expect(group.statusCode, group.body).toBe(201);
  await t.db
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.email, email));
  const leader = t.client();
  expect((await leader.login(email, PASSWORD)).statusCode).toBe(204);
  await leader.refreshCsrf('/my');
  const groupId = group.json().id as number;
  const bookingIds: number[] = [];
  for (let i = 1; i <= pupils; i++) {
    const res = await leader.post(`/api/my/groups/${groupId}/pupils`, {
      first_name: `Kid${i}`,
      last_name: ['Adams', 'Brown', 'Clark', 'Davis'][i - 1] ?? `Evans${i}`,
      date_of_birth: `${Number(today.slice(0, 4)) - 14}-03-0${i}`,
      parent_name: `Parent ${i}`,
      parent_email: `parent${n}.${i}@home.test`,
    });
    expect(res.statusCode, res.body).toBe(201);
    bookingIds.push(res.json().added[0].booking_id);
  }
  return { tripId: trip.id, groupId, leader, bookingIds, email };
}

const scheduled = async (bookingId: number) =>
  (await t.db.select().from(scheduleRows).where(eq(scheduleRows.bookingId, bookingId))).reduce(
    (a, r) => a + r.amountPence,
    0,
  );
const shares = (groupId: number) => t.db.select().from(invoices).where(eq(invoices.groupId, groupId));

describe('the group invoice', () => {
  it('has a line for each pupil at the school’s share; the share and the parents’ schedule add up to the cost', async () => {
    const g = await groupWith(3, { payer: 'split', school_share: '500' });
    const res = await admin.get(`/api/groups/${g.groupId}/invoice`);
    expect(res.statusCode, res.body).toBe(200);
    const invoice = res.json();
    expect(invoice).toMatchObject({
      group_id: g.groupId,
      ref: `GRP-${String(g.groupId).padStart(4, '0')}`,
      school: `Academy ${n}`,
      total: 1500,
      paid: 0,
      outstanding: 1500,
      due_date: addDays(addDays(today, 120), -56),
      pdf_url: `/api/groups/${g.groupId}/invoice/pdf`,
    });
    expect(
      invoice.lines.map((l: { pupil: string; amount: number; left: boolean }) => [l.pupil, l.amount, l.left]),
    ).toEqual([
      ['Kid1 Adams', 500, false],
      ['Kid2 Brown', 500, false],
      ['Kid3 Clark', 500, false],
    ]);
    for (const id of g.bookingIds) expect((await scheduled(id)) + 50000).toBe(COST);
    // the leader sees the same invoice, with their own PDF link
    const mine = (await g.leader.get(`/api/my/groups/${g.groupId}`)).json();
    expect(mine.invoice).toMatchObject({
      total: 1500,
      outstanding: 1500,
      pdf_url: `/api/my/groups/${g.groupId}/invoice/pdf`,
    });
    // raised by the leader's adding: each share in the History with the pupil's booking
    const raised = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'invoice.created'), inArray(auditEvents.bookingId, g.bookingIds)));
    expect(raised).toHaveLength(3);
    // the office's standard balance bills the parents the rest, not the school's share again
    const balance = await admin.post(`/api/bookings/${g.bookingIds[0]}/invoices`, { invoice_type: 'balance' });
    expect(balance.statusCode, balance.body).toBe(201);
    expect(balance.json().total).toBe(1395);
  });

  it('is the whole cost when the school pays all: the parents have nothing scheduled; none when the parents pay', async () => {
    const g = await groupWith(2, { payer: 'school' });
    expect((await admin.get(`/api/groups/${g.groupId}/invoice`)).json()).toMatchObject({
      total: 3790,
      outstanding: 3790,
    });
    for (const id of g.bookingIds) expect(await scheduled(id)).toBe(0);
    // the parents have no deposit to pay, and their readiness does not wait for one
    const deposit = await admin.post(`/api/bookings/${g.bookingIds[0]}/invoices`, { invoice_type: 'deposit' });
    expect(deposit.statusCode).toBe(422);
    expect(deposit.json().message).toContain('no deposit to pay');
    const board = (await admin.get(`/api/trips/${g.tripId}/readiness`)).json();
    const row = board.rows.find((r: { booking_id: number }) => r.booking_id === g.bookingIds[0]);
    expect(row.checks.money.state).toBe('green');
    const p = await groupWith(1, { payer: 'parents' });
    const none = await admin.get(`/api/groups/${p.groupId}/invoice`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
    expect((await p.leader.get(`/api/my/groups/${p.groupId}`)).json().invoice).toBeNull();
    expect((await admin.get(`/api/groups/${p.groupId}/invoice/pdf`)).statusCode).toBe(404);
  });

  it('is never the parents’ to pay: not on their page, not in money owed, not in their reminders', async () => {
    const g = await groupWith(1, { payer: 'school' });
    const [share] = await shares(g.groupId);
    // a parent's page has no invoice of the school's, and its PDF is not theirs to see
    const parent = t.client();
    const [parentUser] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, `parent${n}.1@home.test`));
    await t.db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, parentUser!.id));
    expect((await parent.login(`parent${n}.1@home.test`, PASSWORD)).statusCode).toBe(204);
    await parent.refreshCsrf('/my');
    const page = await parent.get(`/api/my/bookings/${g.bookingIds[0]}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().invoices).toEqual([]);
    expect(page.json().bank_transfer).toBeNull();
    expect((await parent.get(`/api/my/bookings/${g.bookingIds[0]}/invoices/${share!.id}/pdf`)).statusCode).toBe(404);
    // not in the money due list, so not in the dashboard's sums or the daily reminders
    expect(await t.db.select().from(moneyOwed).where(eq(moneyOwed.bookingId, g.bookingIds[0]!))).toEqual([]);
    // "send a reminder now" finds nothing the parents owe
    const sent = await admin.post(`/api/bookings/${g.bookingIds[0]}/reminders`);
    expect(sent.statusCode).toBe(422);
    // the office sees it on the booking, as the school's share
    const onBooking = (await admin.get(`/api/invoices?booking_id=${g.bookingIds[0]}`)).json();
    expect(onBooking).toHaveLength(1);
    expect(onBooking[0].description).toContain('the school’s share');
    // nor is it emailed to the parent as their invoice
    const send = await admin.post(`/api/bookings/${g.bookingIds[0]}/invoices/${share!.id}/send`);
    expect(send.statusCode).toBe(422);
    expect(send.json().message).toContain('school’s share');
  });

  it('gives the group invoice as a PDF to the office and to its leader, not to another leader', async () => {
    const g = await groupWith(2, { payer: 'split', school_share: '250' });
    const pdf = await admin.get(`/api/groups/${g.groupId}/invoice/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const mine = await g.leader.get(`/api/my/groups/${g.groupId}/invoice/pdf`);
    expect(mine.statusCode).toBe(200);
    const other = await groupWith(0, { payer: 'school' });
    expect((await other.leader.get(`/api/my/groups/${g.groupId}/invoice/pdf`)).statusCode).toBe(404);
    // the back office's copy is not the leader's to take
    expect((await g.leader.get(`/api/groups/${g.groupId}/invoice`)).statusCode).toBe(403);
  });
});

describe("the school's payment", () => {
  it('is split to the pupils’ shares in order, each a payment on their booking, with one event; the parents’ paid stays theirs', async () => {
    const g = await groupWith(3, { payer: 'split', school_share: '500' });
    const res = await admin.post(`/api/groups/${g.groupId}/payments`, {
      amount: '1,200.00',
      processor: 'BACS',
      date: today,
      notes: 'Remittance 4471',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.split.map((s: { amount: number }) => s.amount)).toEqual([500, 500, 200]);
    expect(body.invoice).toMatchObject({ total: 1500, paid: 1200, outstanding: 300 });
    expect(body.message).toContain('£300.00 is still outstanding');
    const money = await t.db.select().from(transactions).where(inArray(transactions.bookingId, g.bookingIds));
    expect(money.map((m) => m.amountPence).sort()).toEqual([20000, 50000, 50000]);
    expect(money.every((m) => m.processor === 'BACS' && m.notes?.includes('Remittance 4471'))).toBe(true);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'group.payment_recorded'), eq(auditEvents.subjectId, String(g.groupId))));
    expect(event!.summary).toContain('£1,200.00');
    // the leader's pupils show what their parents paid: the school's money is on its invoice
    const mine = (await g.leader.get(`/api/my/groups/${g.groupId}`)).json();
    expect(mine.pupils.map((p: { paid: number }) => p.paid)).toEqual([0, 0, 0]);
    expect(mine.invoice).toMatchObject({ paid: 1200, outstanding: 300 });
    // the rest pays it in full
    const rest = await admin.post(`/api/groups/${g.groupId}/payments`, {
      amount: 300,
      processor: 'CHEQUE',
      date: today,
    });
    expect(rest.json().message).toContain('paid in full');
  });

  it('refuses more than the school owes, a future date, and no amount, and records nothing', async () => {
    const g = await groupWith(2, { payer: 'split', school_share: '100' });
    const before = await t.db.select().from(transactions).where(inArray(transactions.bookingId, g.bookingIds));
    const over = await admin.post(`/api/groups/${g.groupId}/payments`, {
      amount: '200.01',
      processor: 'BACS',
      date: today,
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.amount[0]).toContain('£200.00');
    const future = await admin.post(`/api/groups/${g.groupId}/payments`, {
      amount: 10,
      processor: 'BACS',
      date: addDays(today, 1),
    });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors.date).toBeTruthy();
    const bad = await admin.post(`/api/groups/${g.groupId}/payments`, { amount: 0, processor: 'CASH', date: 'soon' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['amount', 'date', 'processor']);
    expect(
      (await admin.post(`/api/groups/999999/payments`, { amount: 1, processor: 'BACS', date: today })).statusCode,
    ).toBe(404);
    const after = await t.db.select().from(transactions).where(inArray(transactions.bookingId, g.bookingIds));
    expect(after).toEqual(before);
    // a group the parents pay has nothing to pay on
    const p = await groupWith(1, { payer: 'parents' });
    expect(
      (await admin.post(`/api/groups/${p.groupId}/payments`, { amount: 1, processor: 'BACS', date: today })).statusCode,
    ).toBe(422);
  });
});

describe('pupils joining and leaving', () => {
  it('a leaver’s share becomes the school’s part of the fee; what the school paid beyond it is its credit, never the parents’', async () => {
    const g = await groupWith(3, { payer: 'school' });
    // £2,000 from the school: Kid1's share paid (£1,895), £105 on Kid2's
    await admin.post(`/api/groups/${g.groupId}/payments`, { amount: 2000, processor: 'BACS', date: today });
    // Kid3 leaves by the scale, nothing paid: the school pays all, so it bears the whole fee
    const preview = (await admin.get(`/api/bookings/${g.bookingIds[2]}/cancel/preview`)).json();
    const fee = preview.fee as number;
    expect(fee).toBeGreaterThan(0);
    expect(preview.summary).toContain('The school bears');
    const three = await admin.post(`/api/bookings/${g.bookingIds[2]}/cancel`, {
      reason: 'Left the school',
      notify: false,
    });
    expect(three.statusCode, three.body).toBe(200);
    // the parents owe nothing: no cancellation invoice, no refund
    expect(three.json()).toMatchObject({ cancellation_invoice_id: null, refund_owed: 0, still_owed: 0 });
    // Kid1 leaves with the fee waived: the school's £1,895 is its credit, not the parents' refund
    const one = await admin.post(`/api/bookings/${g.bookingIds[0]}/cancel`, {
      reason: 'Moved abroad',
      fee_waived: true,
      waived_reason: 'Family moved abroad',
      notify: false,
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().refund_owed).toBe(0);
    expect(await t.db.select().from(refundsOwed).where(eq(refundsOwed.bookingId, g.bookingIds[0]!))).toEqual([]);
    const invoice = (await admin.get(`/api/groups/${g.groupId}/invoice`)).json();
    expect(
      invoice.lines.map((l: { pupil: string; amount: number; paid: number; left: boolean }) => [
        l.pupil,
        l.amount,
        l.paid,
        l.left,
      ]),
    ).toEqual([
      ['Kid1 Adams', 0, 1895, true],
      ['Kid2 Brown', 1895, 105, false],
      ['Kid3 Clark', fee, 0, true],
    ]);
    expect(invoice).toMatchObject({ outstanding: 1790 + fee, credit: 1895 });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'booking.cancelled'), eq(auditEvents.bookingId, g.bookingIds[0]!)));
    expect((event!.details as Record<string, unknown>).school_shares_cut_to_its_fee).toHaveLength(1);
    // the office gives the school its credit back as a refund on that share: the parents' refunds owed are not touched
    const refund = await admin.post('/api/transactions', {
      booking_id: g.bookingIds[0],
      invoice_id: invoice.lines[0].invoice_id,
      invoice_type: 'other',
      amount: 1895,
      type: 'refund',
      processor: 'BACS',
      date: today,
    });
    expect(refund.statusCode, refund.body).toBeLessThan(300);
    expect((await admin.get(`/api/groups/${g.groupId}/invoice`)).json()).toMatchObject({
      outstanding: 1790 + fee,
      credit: 0,
    });
    // a pupil of a group moves with it, not on their own
    const other = await insertTrip(t.db, {
      type: 'school',
      departureDate: addDays(today, 150),
      returnDate: addDays(today, 155),
    });
    const move = await admin.get(`/api/bookings/${g.bookingIds[1]}/move/preview?trip_id=${other.id}`);
    expect(move.statusCode, move.body).toBe(200);
    expect(move.json().refused).toContain('school group');
  });

  it('leaves a split pupil’s parents their part of the fee only, and a refund to the school never settles the parents’', async () => {
    const g = await groupWith(1, { payer: 'split', school_share: '947.50' });
    const preview = (await admin.get(`/api/bookings/${g.bookingIds[0]}/cancel/preview`)).json();
    const cancelled = await admin.post(`/api/bookings/${g.bookingIds[0]}/cancel`, { reason: 'Left', notify: false });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // the school pays half the cost, so it bears half the fee; the parents are invoiced the other half
    const half = Math.round(preview.fee * 50) / 100;
    expect(cancelled.json().still_owed).toBe(half);
    expect((await admin.get(`/api/groups/${g.groupId}/invoice`)).json()).toMatchObject({ outstanding: half });
  });
});

describe('who pays changes', () => {
  it('makes each pupil’s schedule and share again while nothing is paid, and refuses once money is recorded', async () => {
    const g = await groupWith(2, { payer: 'school' });
    const edit = (payer: string, share?: string) =>
      admin.put(`/api/groups/${g.groupId}`, {
        school: `Academy ${n}`,
        leader_name: 'Sam Head',
        leader_email: g.email,
        places: 30,
        payer,
        ...(share ? { school_share: share } : {}),
      });
    const split = await edit('split', '400');
    expect(split.statusCode, split.body).toBe(200);
    expect((await admin.get(`/api/groups/${g.groupId}/invoice`)).json()).toMatchObject({ total: 800 });
    for (const id of g.bookingIds) expect((await scheduled(id)) + 40000).toBe(COST);
    const parents = await edit('parents');
    expect(parents.statusCode).toBe(200);
    expect(await shares(g.groupId)).toEqual([]);
    for (const id of g.bookingIds) expect(await scheduled(id)).toBe(COST);
    expect((await admin.get(`/api/groups/${g.groupId}/invoice`)).json()).toBeNull();
    // back to the school, then money: who pays stays
    expect((await edit('school')).statusCode).toBe(200);
    await admin.post(`/api/groups/${g.groupId}/payments`, { amount: 50, processor: 'BACS', date: today });
    const refused = await edit('parents');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.payer[0]).toContain('Who pays cannot change now');
    expect((await admin.get(`/api/groups/${g.groupId}`)).json().payer).toBe('school');
    expect(await shares(g.groupId)).toHaveLength(2);
    for (const id of g.bookingIds) expect(await scheduled(id)).toBe(0);
  });
});

describe("the school's pay link", () => {
  it('pays the whole group invoice by card (the stand-in Stripe), split to the shares once; a refund in Stripe is split back', async () => {
    const g = await groupWith(2, { payer: 'split', school_share: '300' });
    const mine = (await g.leader.get(`/api/my/groups/${g.groupId}`)).json();
    expect(mine.invoice.pay_url).toMatch(/\/pay\/grp\./);
    const token = mine.invoice.pay_url.split('/pay/')[1] as string;
    const payer = t.client();
    await payer.refreshCsrf(`/pay/${token}`);
    const page = await payer.get(`/api/public/pay/${token}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({
      invoice_ref: `GRP-${String(g.groupId).padStart(4, '0')}`,
      school: `Academy ${n}`,
      outstanding: 600,
    });
    // a pay link of another group's, or tampered with, pays nothing
    expect((await payer.get(`/api/public/pay/${token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`)).statusCode).toBe(
      404,
    );
    const checkout = await payer.post(`/api/public/pay/${token}/checkout`);
    expect(checkout.statusCode, checkout.body).toBe(200);
    const session = stripe.pay(/\/c\/pay\/(cs_\w+)$/.exec(checkout.json().url)![1]!);
    const paid = await webhook(stripe.signed(stripe.event('checkout.session.completed', session)));
    expect(paid.json()).toMatchObject({ outcome: 'group payment recorded, split to 2 pupils' });
    // told again (another event, and the payer's return): recorded once
    expect((await webhook(stripe.signed(stripe.event('checkout.session.completed', session)))).json().outcome).toBe(
      'already recorded',
    );
    const back = await payer.get(`/api/public/pay/${token}/checkouts/${session.id}`);
    expect(back.json()).toMatchObject({ state: 'paid' });
    const invoice = (await admin.get(`/api/groups/${g.groupId}/invoice`)).json();
    expect(invoice).toMatchObject({ total: 600, paid: 600, outstanding: 0, pay_url: null });
    const money = await t.db
      .select()
      .from(transactions)
      .where(inArray(transactions.bookingId, g.bookingIds))
      .orderBy(transactions.id);
    expect(money.map((m) => [m.amountPence, m.processor, m.providerRef])).toEqual([
      [30000, 'STRIPE', session.payment_intent],
      [30000, 'STRIPE', `${session.payment_intent}#2`],
    ]);
    // paid: the link now says so
    expect((await payer.get(`/api/public/pay/${token}`)).statusCode).toBe(410);
    // £400 refunded in Stripe's dashboard: the last share gives back its £300, the first £100
    const { event } = stripe.refund(session.payment_intent!, 40000);
    expect((await webhook(stripe.signed(event))).json()).toMatchObject({ outcome: '1 refund recorded' });
    expect((await webhook(stripe.signed(stripe.event('charge.refunded', event.data.object)))).json()).toMatchObject({
      outcome: 'refunds already recorded',
    });
    expect((await admin.get(`/api/groups/${g.groupId}/invoice`)).json()).toMatchObject({ paid: 200, outstanding: 400 });
    const refunds = await t.db
      .select()
      .from(transactions)
      .where(and(inArray(transactions.bookingId, g.bookingIds), eq(transactions.type, 'refund')));
    expect(refunds.map((r) => r.amountPence).sort()).toEqual([10000, 30000]);
    // the parents were sent no receipt of the school's money
    const receipts = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'email.sent'), inArray(auditEvents.bookingId, g.bookingIds)));
    expect(receipts.filter((r) => JSON.stringify(r.details).includes('payment_receipt'))).toEqual([]);
  });
});
