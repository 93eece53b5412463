import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';

/** The attachment's bytes, from its base64 MIME part. */
function attachment(raw: string, filename: string): Buffer {
  const parts = raw.split(/\r?\n--/);
  const part = parts.find((p) => p.includes(`filename=${filename}`) || p.includes(`filename="${filename}"`));
  if (!part) throw new Error(`no attachment ${filename}`);
  const body = part
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n');
  return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
}

const eventsOf = (t: TestApp, bookingId: number) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.bookingId, bookingId), like(auditEvents.action, '%.%')))
    .orderBy(asc(auditEvents.id));
/** the events of sending: the email's and the invoice's (the invoice's creation left out) */
const sendEventsOf = async (t: TestApp, bookingId: number) =>
  (await eventsOf(t, bookingId)).filter((e) => e.action !== 'invoice.created');

async function invoiceFor(t: TestApp, email: string) {
  const admin = await t.signedIn(1);
  const trip = await insertTrip(t.db, { name: 'Great Wall Trek', depositPence: 30_000 });
  const booking = await insertBooking(t.db, trip.id, { email, firstName: 'Grace', lastName: 'Hopper' });
  const inv = (await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' })).json();
  return { admin, booking, inv };
}

describe('POST /api/bookings/{id}/invoices/{invoiceId}/send', () => {
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  let t: TestApp;
  beforeAll(async () => {
    sink = await smtpSink();
    t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${sink.port}` });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('emails the customer the invoice as a PDF through SMTP and records when', async () => {
    const { admin, booking, inv } = await invoiceFor(t, 'grace@example.test');
    const res = await admin.post(`/api/bookings/${booking.id}/invoices/${inv.id}/send`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Invoice has been emailed to the customer.', sent_at: expect.any(String) });
    expect(sink.received).toHaveLength(1);
    const mail = sink.received[0]!;
    expect(mail.to).toEqual(['grace@example.test']);
    expect(mail.from).toBe('no-reply@tripdesk.test');
    expect(mail.raw).toMatch(new RegExp(`Subject: Invoice ${inv.invoice_ref} from Tripdesk Test Adventures Ltd`));
    expect(mail.raw).toContain('text/html');
    const pdf = attachment(mail.raw, `${inv.invoice_ref}.pdf`);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const [listed] = (await admin.get(`/api/invoices?booking_id=${booking.id}`)).json();
    expect(listed.sent_at).toBe(res.json().sent_at);
  });

  it('records the email as sent, with its text, attachments and message id, and the invoice as sent', async () => {
    const { admin, booking, inv } = await invoiceFor(t, 'recorded@example.test');
    expect((await admin.post(`/api/bookings/${booking.id}/invoices/${inv.id}/send`)).statusCode).toBe(200);
    const events = await sendEventsOf(t, booking.id);
    expect(events.map((e) => e.action)).toEqual(['email.sent', 'invoice.sent']);
    const [email, sent] = events;
    const about = {
      subjectType: 'invoice',
      subjectId: String(inv.id),
      bookingId: booking.id,
      tripId: booking.tripId,
      actorType: 'user',
      source: 'web',
    };
    expect(email).toMatchObject({
      ...about,
      summary: expect.stringMatching(
        new RegExp(
          `^Sam Tester\\d+ emailed "Invoice ${inv.invoice_ref} from Tripdesk Test Adventures Ltd" to recorded@example.test$`,
        ),
      ),
      details: {
        to: 'recorded@example.test',
        subject: `Invoice ${inv.invoice_ref} from Tripdesk Test Adventures Ltd`,
        text: expect.stringContaining(
          `Dear Grace Hopper,\n\nPlease find attached invoice ${inv.invoice_ref} (Deposit for Great Wall Trek) for booking ${booking.ref}.\nTotal: £300.00.`,
        ),
        attachments: [`${inv.invoice_ref}.pdf`],
        outcome: 'sent',
        message_id: expect.stringMatching(/^<.+@.+>$/),
      },
    });
    const messageId = (email!.details as { message_id: string }).message_id;
    expect(sink.received.at(-1)!.raw).toContain(`Message-ID: ${messageId}`);
    expect(sent).toMatchObject({
      ...about,
      summary: expect.stringMatching(
        new RegExp(`^Sam Tester\\d+ emailed invoice ${inv.invoice_ref} to Grace Hopper \\(recorded@example.test\\)$`),
      ),
      details: { ref: inv.invoice_ref, to: 'recorded@example.test', message_id: messageId, outcome: 'sent' },
    });
  });

  it('records an email the SMTP server refuses as email.failed with its code, and the invoice stays unsent', async () => {
    const { admin, booking, inv } = await invoiceFor(t, 'nobody@refused.test');
    const res = await admin.post(`/api/bookings/${booking.id}/invoices/${inv.id}/send`);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      message: 'The invoice could not be emailed: the mail server did not take it. Please try again.',
    });
    const [failed, ...more] = await sendEventsOf(t, booking.id);
    expect(more).toEqual([]);
    expect(failed).toMatchObject({
      action: 'email.failed',
      subjectType: 'invoice',
      subjectId: String(inv.id),
      bookingId: booking.id,
      tripId: booking.tripId,
      summary: expect.stringMatching(
        new RegExp(
          `could not email invoice ${inv.invoice_ref} to nobody@refused.test: the mail server did not take it \\(550 EENVELOPE\\)$`,
        ),
      ),
      details: {
        to: 'nobody@refused.test',
        subject: `Invoice ${inv.invoice_ref} from Tripdesk Test Adventures Ltd`,
        attachments: [`${inv.invoice_ref}.pdf`],
        outcome: 'refused',
        message_id: null,
        error: { code: 'EENVELOPE', response_code: 550, command: 'RCPT TO' },
      },
    });
    expect((failed!.details as { text: string }).text).toContain('Dear Grace Hopper,');
    expect((await admin.get(`/api/invoices?booking_id=${booking.id}`)).json()[0].sent_at).toBeNull();
  });

  it('names the personal access token that sent the invoice', async () => {
    const { admin, booking, inv } = await invoiceFor(t, 'token.send@example.test');
    const made = (
      await admin.post('/oauth/personal-access-tokens', { name: 'Mailer', scopes: ['finance:write'] })
    ).json() as { token: { id: string }; accessToken: string };
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${booking.id}/invoices/${inv.id}/send`,
      headers: { authorization: `Bearer ${made.accessToken}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const events = await sendEventsOf(t, booking.id);
    expect(events.map((e) => e.action)).toEqual(['email.sent', 'invoice.sent']);
    for (const e of events)
      expect(e).toMatchObject({
        actorType: 'personal_token',
        actorTokenId: made.token.id,
        source: 'api',
        actorName: expect.stringMatching(/\(personal access token\)$/),
      });
  });

  it('answers 404 for an invoice of another booking, and sends nothing', async () => {
    const { admin, inv } = await invoiceFor(t, 'other@example.test');
    const before = sink.received.length;
    const { booking } = await invoiceFor(t, 'third@example.test');
    expect((await admin.post(`/api/bookings/${booking.id}/invoices/${inv.id}/send`)).statusCode).toBe(404);
    expect(sink.received.length).toBe(before);
    expect(await sendEventsOf(t, booking.id)).toEqual([]);
    expect(await sendEventsOf(t, inv.booking_id)).toEqual([]);
  });
});

describe('sending without an SMTP server', () => {
  it('writes the message as an .eml file in DATA_DIR/mail', async () => {
    const t = await createTestApp();
    try {
      const { admin, booking, inv } = await invoiceFor(t, 'eml@example.test');
      expect((await admin.post(`/api/bookings/${booking.id}/invoices/${inv.id}/send`)).statusCode).toBe(200);
      const dir = path.join(t.config.dataDir, 'mail');
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      const raw = readFileSync(path.join(dir, files[0]!), 'utf8');
      expect(raw).toContain('To: Grace Hopper <eml@example.test>');
      expect(attachment(raw, `${inv.invoice_ref}.pdf`).subarray(0, 5).toString()).toBe('%PDF-');
      const events = await sendEventsOf(t, booking.id);
      expect(events.map((e) => e.action)).toEqual(['email.sent', 'invoice.sent']);
      expect(events[0]!.details).toMatchObject({
        to: 'eml@example.test',
        outcome: 'written_to_eml',
        attachments: [`${inv.invoice_ref}.pdf`],
        message_id: expect.stringMatching(/^<.+>$/),
      });
      expect(raw).toContain(`Message-ID: ${(events[0]!.details as { message_id: string }).message_id}`);
      expect(events[0]!.summary).toMatch(
        /wrote the email "Invoice .+" to eml@example.test as an .eml file \(no mail server is set up\)$/,
      );
    } finally {
      await t.close();
    }
  });

  it('answers 502 when the mail server cannot be reached, and records no send', async () => {
    // a port nothing listens on
    const t = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:9' });
    try {
      const { admin, booking, inv } = await invoiceFor(t, 'down@example.test');
      const res = await admin.post(`/api/bookings/${booking.id}/invoices/${inv.id}/send`);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        message: 'The invoice could not be emailed: the mail server did not take it. Please try again.',
      });
      expect((await admin.get(`/api/invoices?booking_id=${booking.id}`)).json()[0].sent_at).toBeNull();
      // a failed send is history too
      const events = await sendEventsOf(t, booking.id);
      expect(events.map((e) => e.action)).toEqual(['email.failed']);
      expect(events[0]!.details).toMatchObject({
        to: 'down@example.test',
        outcome: 'refused',
        message_id: null,
        error: { code: expect.any(String) },
      });
    } finally {
      await t.close();
    }
  });
});
