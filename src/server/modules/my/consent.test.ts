import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { DEFAULT_CONSENT_TEXT } from '../../../contract/readiness.ts';
import { CONSENT_GIVEN, NO_CONSENT_ASKED } from '../../../contract/my.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { auditEvents, bookings } from '../../../db/schema/index.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { createTestApp, PASSWORD, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

/**
 * Issue 37: a parent's consent for a pupil on a school trip, given on their own page by typing
 * their full name, withdrawn there too; the readiness board's consent check follows it.
 */
let sink: Awaited<ReturnType<typeof smtpSink>>;
let t: TestApp;
let admin: TestClient;
let n = 0;
const today = ukToday();
const yearsAgo = (years: number) => `${Number(today.slice(0, 4)) - years}${today.slice(4)}`;

beforeAll(async () => {
  sink = await smtpSink();
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${sink.port}`, officeEmail: 'office@operator.test' });
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** A parent signed in, with a booking for their child on a trip of this type 60 days away. */
async function parentOf(opts: { type?: string; dateOfBirth?: string | null; consentText?: string } = {}) {
  n += 1;
  const email = `parent${n}@example.test`;
  const user = await insertUser(t.db, {
    email,
    roleId: 3,
    firstName: 'Pat',
    lastName: `Parent${n}`,
    password: PASSWORD,
  });
  const trip = await insertTrip(t.db, {
    name: `Year 9 Iceland ${n}`,
    type: opts.type ?? 'school',
    departureDate: addDays(today, 60),
    returnDate: addDays(today, 66),
    consentText: opts.consentText ?? null,
  });
  const booking = await insertBooking(t.db, trip.id, {
    userId: user.id,
    email,
    firstName: 'Pip',
    lastName: `Pupil${n}`,
    dateOfBirth: opts.dateOfBirth === undefined ? yearsAgo(14) : opts.dateOfBirth,
  });
  const client = t.client();
  expect((await client.login(email, PASSWORD)).statusCode).toBe(204);
  await client.refreshCsrf('/my');
  return { client, bookingId: booking.id, tripId: trip.id };
}

const consentCheck = async (bookingId: number) =>
  (await admin.get(`/api/bookings/${bookingId}/readiness`)).json().checks.consent as { state: string; reason: string };

describe("a parent's consent", () => {
  it('is asked on a school trip, with the office’s wording when the trip has none, and the pupil is not ready without it', async () => {
    const { client, bookingId, tripId } = await parentOf();
    const page = (await client.get(`/api/my/bookings/${bookingId}`)).json();
    expect(page.consent).toEqual({
      needed: true,
      text: DEFAULT_CONSENT_TEXT,
      given_by: null,
      given_at: null,
      withdrawn_at: null,
    });
    expect(page.to_do.map((d: { check: string }) => d.check)).toContain('consent');
    expect(await consentCheck(bookingId)).toEqual({ state: 'amber', reason: 'No parent’s consent yet.' });
    const board = (await admin.get(`/api/trips/${tripId}/readiness`)).json();
    expect(board.trip.asks_consent).toBe(true);
    expect(board.summary.checks.consent).toEqual({ green: 0, amber: 1, red: 0 });
  });

  it('refuses a name that is not a full name, and changes nothing', async () => {
    const { client, bookingId } = await parentOf();
    for (const [full_name, message] of [
      ['', 'Type your full name to give your consent.'],
      ['Pat', 'Type your first and last names.'],
      ['x'.repeat(121) + ' y', 'Your name must not be longer than 120 characters.'],
    ] as const) {
      const res = await client.post(`/api/my/bookings/${bookingId}/consent`, { full_name });
      expect(res.statusCode, full_name).toBe(422);
      expect(res.json().errors.full_name).toEqual([message]);
    }
    const [b] = await t.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(b!.consentGivenAt).toBeNull();
  });

  it('is given by typing a full name: kept with the time and address, in the History, and the check turns green', async () => {
    const { client, bookingId } = await parentOf({ consentText: 'I agree to the Iceland trip.' });
    const res = await client.post(`/api/my/bookings/${bookingId}/consent`, { full_name: '  Pat  Parent ' });
    expect(res.statusCode, res.body).toBe(200);
    const consent = res.json().consent;
    expect(consent.text).toBe('I agree to the Iceland trip.');
    expect(consent.given_by).toBe('Pat  Parent');
    expect(Date.parse(consent.given_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(res.json().to_do.map((d: { check: string }) => d.check)).not.toContain('consent');
    const check = await consentCheck(bookingId);
    expect(check.state).toBe('green');
    expect(check.reason).toMatch(/^Consent given by Pat {2}Parent on \d{1,2} \w{3} \d{4}\.$/);
    const [b] = await t.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(b!.consentIp).toBe('127.0.0.1');
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'booking.consent_given'));
    expect(event!.actorType).toBe('user');
    expect(event!.details).toMatchObject({ full_name: 'Pat  Parent', ip_address: '127.0.0.1' });
    expect(CONSENT_GIVEN).toMatch(/recorded/);
  });

  it('is withdrawn on the page: the check turns red, the office is told, and it can be given again', async () => {
    const { client, bookingId } = await parentOf();
    expect((await client.delete(`/api/my/bookings/${bookingId}/consent`)).statusCode).toBe(409);
    await client.post(`/api/my/bookings/${bookingId}/consent`, { full_name: 'Pat Parent' });
    const before = sink.received.length;
    const res = await client.delete(`/api/my/bookings/${bookingId}/consent`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().consent.withdrawn_at).not.toBeNull();
    const check = await consentCheck(bookingId);
    expect(check.state).toBe('red');
    expect(check.reason).toMatch(/^The parent’s consent was withdrawn on /);
    const mail = sink.received.slice(before);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.to).toEqual(['office@operator.test']);
    expect(mail[0]!.raw).toContain('has withdrawn their consent for Pip');
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.bookingId, bookingId));
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['booking.consent_given', 'booking.consent_withdrawn', 'email.sent']),
    );
    const again = await client.post(`/api/my/bookings/${bookingId}/consent`, { full_name: 'Pat Parent' });
    expect(again.json().consent.withdrawn_at).toBeNull();
    expect((await consentCheck(bookingId)).state).toBe('green');
  });

  it('is not needed for a pupil 18 or over on departure, nor asked on other trips, nor given for another family', async () => {
    const adult = await parentOf({ dateOfBirth: yearsAgo(19) });
    expect((await adult.client.get(`/api/my/bookings/${adult.bookingId}`)).json().consent.needed).toBe(false);
    expect((await consentCheck(adult.bookingId)).state).toBe('green');

    const open = await parentOf({ type: 'open' });
    expect((await open.client.get(`/api/my/bookings/${open.bookingId}`)).json().consent).toBeNull();
    const refused = await open.client.post(`/api/my/bookings/${open.bookingId}/consent`, { full_name: 'Pat Parent' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(NO_CONSENT_ASKED);
    expect(await consentCheck(open.bookingId)).toEqual({
      state: 'green',
      reason: 'Not a school trip: no consent is asked.',
    });
    expect((await admin.get(`/api/trips/${open.tripId}/readiness`)).json().trip.asks_consent).toBe(false);

    const other = await parentOf();
    const theirs = await open.client.post(`/api/my/bookings/${other.bookingId}/consent`, { full_name: 'Pat Parent' });
    expect(theirs.statusCode).toBe(404);
    expect((await consentCheck(other.bookingId)).state).toBe('amber');
  });
});
