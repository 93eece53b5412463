import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, bookings, paymentReminders } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let t: TestApp;
let admin: TestClient;
let bookingId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  const trip = await insertTrip(t.db, {
    costPence: 100_000,
    depositPence: 10_000,
    departureDate: addDays(ukToday(), 100),
    returnDate: addDays(ukToday(), 110),
  });
  const res = await admin.post('/api/bookings', {
    trip_id: trip.id,
    title: 'Mr',
    first_name: '<script>alert(1)</script>',
    last_name: 'Tables',
    preferred_name: 'Bobby',
    email: 'bobby.tables@example.test',
    as_on_passport: true,
    terms_accepted: true,
  });
  bookingId = res.json().id;
});
afterAll(() => t.close());

describe('/api/email-templates', () => {
  it('lists the reminder, chaser and documents emails with Tripdesk’s wording until staff change it, each with its own placeholders', async () => {
    const list = (await admin.get('/api/email-templates')).json();
    expect(list.map((x: { key: string; is_default: boolean }) => [x.key, x.is_default])).toEqual([
      ['reminder_before', true],
      ['reminder_due', true],
      ['reminder_overdue', true],
      ['chaser_passport', true],
      ['chaser_forms', true],
      ['trip_documents', true],
      ['fundraising_milestone', true],
      ['fundraising_summary', true],
      ['payment_receipt', true],
      ['sign_in_link', true],
      ['booking_received', true],
      ['waiting_list_offer', true],
      ['booking_cancelled', true],
      ['booking_transferred', true],
      ['charity_fundraiser_changed', true],
      ['booking_moved', true],
      ['group_parent_invitation', true],
      ['chaser_consent', true],
    ]);
    expect(list[0].placeholders).toContain('invoice.outstanding');
    expect(list[3].placeholders).toContain('chase.reason');
    expect(list[3].placeholders).not.toContain('invoice.outstanding');
    expect(list[5].placeholders).toContain('documents.names');
    expect(list[9].placeholders).toContain('sign_in.url');
    expect(list[9].placeholders).not.toContain('booking.ref');
  });

  it('saves new wording (an event in the history) and refuses a template that does not parse', async () => {
    const bad = await admin.put('/api/email-templates/reminder_overdue', {
      subject: 'Late',
      body: 'Dear {{ traveller.first_name ',
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['body']);
    const ok = await admin.put('/api/email-templates/reminder_overdue', {
      subject: 'Still owed: {{ invoice.ref }}',
      body: 'Dear {{ traveller.first_name }},\n\n{{ invoice.outstanding }} is {{ invoice.days_overdue }} days late.',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ is_default: false, subject: 'Still owed: {{ invoice.ref }}' });
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'email_template.updated'));
    expect(event?.subjectId).toBe('reminder_overdue');
    expect((await admin.get('/api/email-templates/nonsense')).statusCode).toBe(422);
  });

  it('puts a changed email back to Tripdesk’s wording', async () => {
    const reset = await admin.delete('/api/email-templates/reminder_overdue');
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ is_default: true, subject: 'Overdue: {{ invoice.ref }} for {{ trip.name }}' });
    expect((await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'email_template.reset'))).length).toBe(
      1,
    );
  });

  it('previews a draft against a real booking, the traveller’s name escaped in the HTML', async () => {
    const res = await admin.post('/api/email-templates/reminder_due/preview', {
      booking_id: bookingId,
      body: 'Hello {{ traveller.first_name }} on {{ trip.name }}',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().to).toBe('bobby.tables@example.test');
    expect(res.json().text).toContain('Hello <script>alert(1)</script> on Test Trek');
    expect(res.json().html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.json().html).not.toContain('<script>');
  });

  it('previews a chaser with the booking’s own reason and the destination’s rule, and the documents email with example names', async () => {
    const chaser = await admin.post('/api/email-templates/chaser_passport/preview', { booking_id: bookingId });
    expect(chaser.statusCode, chaser.body).toBe(200);
    expect(chaser.json().subject).toMatch(/^We need your passport details for Test Trek/);
    expect(chaser.json().text).toContain('No passport details yet.');
    expect(chaser.json().text).toMatch(
      /asks for a passport valid for at least \d+ months after the trip returns on \d{2} \w{3} \d{4}/,
    );
    expect(chaser.json().html).not.toContain('<script>');
    const docs = await admin.post('/api/email-templates/trip_documents/preview', { booking_id: bookingId });
    expect(docs.json().text).toContain('(booking ');
    expect(docs.json().text).toContain('): Kit list, Itinerary.');
    const milestone = await admin.post('/api/email-templates/fundraising_milestone/preview', { booking_id: bookingId });
    expect(milestone.statusCode, milestone.body).toBe(200);
    expect(milestone.json().subject).toMatch(/^Your fundraising for Test Trek/);
    const summary = await admin.post('/api/email-templates/fundraising_summary/preview', { booking_id: bookingId });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().subject).toMatch(/^Sample Charity: your fundraisers in \w+ \d{4}$/);
    expect(summary.json().text).toContain('Dear Sam,');
    expect(milestone.json().text).toMatch(
      /Your next milestone is 50% of your target \(£[\d,.]+\) by \d{2} \w{3} \d{4}/,
    );
  });
});

describe('a test send and reminders for several bookings', () => {
  it('sends the test to the member of staff asking, never to the traveller', async () => {
    const res = await admin.post('/api/email-templates/reminder_before/test', {
      booking_id: bookingId,
      subject: 'Hello {{ traveller.preferred_name }}',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/^A test email has been sent to user\d+\.role1@example\.test\.$/);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectType, 'email_template'));
    expect(event?.details).toMatchObject({ subject: '[Test] Hello Bobby' });
    expect(JSON.stringify(event?.details)).not.toContain('bobby.tables@example.test');
  });

  it('says which bookings had nothing to remind of', async () => {
    const res = await admin.post('/api/reminders', { booking_ids: [bookingId] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: '0 reminders sent; 1 booking has nothing owed on an invoice.',
      sent: [],
      nothing_to_send: [bookingId],
      failed: [],
    });
    expect((await admin.post('/api/reminders', { booking_ids: [] })).json().errors).toEqual({
      booking_ids: ['Choose the bookings to remind.'],
    });
  });
});

describe('reminders for a booking', () => {
  it('"send now" says when nothing is owed', async () => {
    const res = await admin.post(`/api/bookings/${bookingId}/reminders`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      'Nothing is owed on an invoice of this booking, so there is nothing to remind the traveller of.',
    );
  });

  it('"send now" reminds of an invoice that is not on the schedule, and records it', async () => {
    const today = ukToday();
    const custom = await admin.post('/api/invoices', {
      booking_id: bookingId,
      type: 'other',
      invoice_ref: 'KIT-9',
      description: 'Kit',
      invoice_date: today,
      due_date: addDays(today, 3),
      items: [{ description: 'Kit bag', amount: 25 }],
    });
    expect(custom.statusCode, custom.body).toBe(201);
    const res = await admin.post(`/api/bookings/${bookingId}/reminders`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('A reminder has been emailed to the traveller.');
    const [reminder] = await t.db.select().from(paymentReminders).where(eq(paymentReminders.bookingId, bookingId));
    expect(reminder).toMatchObject({
      scheduleRowId: null,
      invoiceId: custom.json().id,
      offsetDays: null,
      outcome: 'sent',
    });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'email.sent'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(event?.summary).toContain('emailed the reminder');
    // the money-due list shows when the traveller was last reminded
    const row = (await admin.get('/api/money-due'))
      .json()
      .data.find((r: { invoice_ref: string | null }) => r.invoice_ref === 'KIT-9');
    expect(row.last_reminder_at).not.toBeNull();
    expect((await admin.delete(`/api/invoices/${custom.json().id}`)).statusCode).toBe(204);
  });

  it('are turned off with a reason, recorded, and on again', async () => {
    expect((await admin.put(`/api/bookings/${bookingId}/reminders`, { send: false })).json().errors).toEqual({
      reason: ['Say why automatic reminders are turned off.'],
    });
    expect(
      (await admin.put(`/api/bookings/${bookingId}/reminders`, { send: false, reason: 'Pays by standing order' }))
        .statusCode,
    ).toBe(200);
    const [b] = await t.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(b).toMatchObject({ remindersOff: true, remindersOffReason: 'Pays by standing order' });
    expect((await admin.get(`/api/bookings/${bookingId}/schedule`)).json()).toMatchObject({
      reminders_off: true,
      reminders_off_reason: 'Pays by standing order',
    });
    await admin.put(`/api/bookings/${bookingId}/reminders`, { send: true });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'booking.reminders_changed'));
    expect(events.map((e) => e.summary)).toEqual([
      expect.stringContaining('turned automatic reminders off for the booking'),
      expect.stringContaining('turned automatic reminders on'),
    ]);
  });

  it("a trip's setting is in its payment plan's reply", async () => {
    const [{ tripId }] = (await t.db
      .select({ tripId: bookings.tripId })
      .from(bookings)
      .where(eq(bookings.id, bookingId))) as [{ tripId: number }];
    expect((await admin.get(`/api/trips/${tripId}/payment-plan`)).json()).toMatchObject({
      reminders_off: false,
      reminders_off_reason: null,
    });
    expect(
      (await admin.put(`/api/trips/${tripId}/reminders`, { send: false, reason: 'The school collects the money' }))
        .statusCode,
    ).toBe(200);
    expect((await admin.get(`/api/trips/${tripId}/payment-plan`)).json()).toMatchObject({
      reminders_off: true,
      reminders_off_reason: 'The school collects the money',
    });
    await admin.put(`/api/trips/${tripId}/reminders`, { send: true });
    expect((await admin.get(`/api/trips/${tripId}/payment-plan`)).json()).toMatchObject({ reminders_off: false });
  });
});
