import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { queryRows } from '../../../db/client.ts';
import { auditEvents, bookings, signInLinks, tripCustomFields, users } from '../../../db/schema/index.ts';
import { multipart } from '../../../../tests/support/multipart.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { createTestApp, PASSWORD, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { systemClock, type Clock } from '../../clock.ts';
import {
  NOT_THIS_TRIPS_QUESTION,
  PASSPORT_PHOTO_REFUSED,
  PORTAL_LINK_DAYS,
  SIGN_IN_LINK_RENEWED,
  SIGN_IN_LINK_SENT,
  SIGN_IN_LINK_SPENT,
  TRIP_DEPARTED,
} from '../../../contract/my.ts';
import { purgeSignInLinks } from './service.ts';
import { ChaserService } from '../chasers/service.ts';
import { createMailer } from '../../mail/transport.ts';
import { operatorOf } from '../../config.ts';
import { ukToday } from '../../../contract/dates.ts';

const BANK = 'Tripdesk Adventures Ltd, sort code 12-34-56, account 12345678';
let sink: Awaited<ReturnType<typeof smtpSink>>;
let t: TestApp;
let admin: TestClient;
// the app's clock, moved by the tests that need a later minute
let shift = 0;
const clock: Clock = { ...systemClock, now: () => Date.now() + shift };
let n = 0;

beforeAll(async () => {
  sink = await smtpSink();
  t = await createTestApp(
    {
      smtpUrl: `smtp://127.0.0.1:${sink.port}`,
      publicUrl: 'https://trips.operator.test',
      operatorBankDetails: BANK,
    },
    { appClock: clock },
  );
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});
beforeEach(async () => {
  shift = 0;
  // each test asks for its links, and signs in, afresh
  await t.db.execute(sql`delete from rate_limits`);
});

/** A traveller (an End User) with a booking on a trip that has not left. */
async function traveller(opts: { departure?: string; requirePassport?: boolean } = {}) {
  n += 1;
  const email = `ada${n}@example.test`;
  const user = await insertUser(t.db, {
    email,
    roleId: 3,
    firstName: 'Ada',
    lastName: `Lovelace${n}`,
    password: PASSWORD,
  });
  const departure = opts.departure ?? '2031-06-01';
  const trip = await insertTrip(t.db, {
    name: `Kilimanjaro Climb ${n}`,
    departureDate: departure,
    returnDate: departure > '2031-06-10' ? departure : '2031-06-10',
    requirePassport: opts.requirePassport ?? true,
  });
  const booking = await insertBooking(t.db, trip.id, {
    userId: user.id,
    email,
    firstName: 'Ada',
    lastName: `Lovelace${n}`,
  });
  return { user, trip, booking, email };
}

/** The secret of the last sign-in link emailed to this address (sent after the answer: waited for). */
async function lastLinkTo(email: string, count?: number): Promise<string | undefined> {
  const links = () => linksTo(email);
  for (let i = 0; i < 100 && links().length < (count ?? 1); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return links().at(-1);
}

function linksTo(email: string) {
  return sink.received
    .filter((m) => m.to.includes(email))
    .map((m) => /\/my\/sign-in\/([\w-]{43})\b/.exec(m.raw.replace(/=\r?\n/g, ''))?.[1])
    .filter((link) => link !== undefined);
}

async function signedInTraveller(email: string): Promise<TestClient> {
  const browser = t.client();
  await browser.refreshCsrf('/my/sign-in');
  const before = linksTo(email).length;
  expect((await browser.post('/api/my/sign-in-link', { email })).statusCode).toBe(202);
  const res = await browser.post('/api/my/sign-in', { token: await lastLinkTo(email, before + 1) });
  expect(res.statusCode, res.body).toBe(200);
  // a new session at sign-in has a new CSRF secret: the page it opens carries the token
  await browser.refreshCsrf('/my');
  return browser;
}

describe('signing in with an emailed link', () => {
  it('answers the same for any address, and emails a link only to a traveller', async () => {
    const { email } = await traveller();
    const browser = t.client();
    await browser.refreshCsrf('/my/sign-in');
    const before = sink.received.length;
    for (const address of [email, 'nobody@example.test', 'ADA-NOT@example.test']) {
      const res = await browser.post('/api/my/sign-in-link', { email: address });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ message: SIGN_IN_LINK_SENT });
    }
    // a staff account gets no link either
    await insertUser(t.db, { email: `staff${n}@example.test`, roleId: 1, firstName: 'Sam', lastName: 'Staff' });
    expect((await browser.post('/api/my/sign-in-link', { email: `STAFF${n}@example.test` })).statusCode).toBe(202);
    await lastLinkTo(email);
    // a moment for any other (there is none) to arrive
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = sink.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toEqual([email]);
    expect(sent[0]!.raw.replace(/=\r?\n/g, '')).toMatch(/https:\/\/trips\.operator\.test\/my\/sign-in\/[\w-]{43}/);
  });

  it('signs in once: the link is spent by its first use, and keeps no secret in the database', async () => {
    const { email, user } = await traveller();
    const browser = t.client();
    await browser.refreshCsrf('/my/sign-in');
    await browser.post('/api/my/sign-in-link', { email });
    const token = (await lastLinkTo(email))!;
    const first = await browser.post('/api/my/sign-in', { token });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ redirect: '/my' });
    expect((await browser.get('/api/my/bookings')).statusCode).toBe(200);
    const again = t.client();
    await again.refreshCsrf('/my/sign-in');
    const second = await again.post('/api/my/sign-in', { token });
    expect(second.statusCode).toBe(410);
    expect(second.json()).toEqual({ message: SIGN_IN_LINK_SPENT });
    expect((await again.get('/api/my/bookings')).statusCode).toBe(401);
    // neither the links' table nor the History holds the secret
    const dump = await queryRows<{ row: string }>(
      t.db,
      sql`select row_to_json(l)::text as row from sign_in_links l union all select row_to_json(a)::text from audit_events a`,
    );
    expect(dump.some((r) => r.row.includes(token))).toBe(false);
    const [signedIn] = await t.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'user.signed_in' and ${auditEvents.subjectId} = ${String(user.id)}`);
    expect(signedIn).toMatchObject({ actorUserId: user.id });
  });

  it('refuses a link after 30 minutes, and an incomplete one with a field error', async () => {
    const { email } = await traveller();
    const browser = t.client();
    await browser.refreshCsrf('/my/sign-in');
    await browser.post('/api/my/sign-in-link', { email });
    shift = 31 * 60_000;
    expect((await browser.post('/api/my/sign-in', { token: await lastLinkTo(email) })).statusCode).toBe(410);
    const bad = await browser.post('/api/my/sign-in', { token: 'short' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.token[0]).toMatch(/incomplete/);
    const noEmail = await browser.post('/api/my/sign-in-link', { email: 'not an email' });
    expect(noEmail.statusCode).toBe(422);
    expect(noEmail.json().errors.email).toEqual(['The email must be a valid email address.']);
  });

  it('limits the links asked for one email, whether or not it has an account, and from one address', async () => {
    const browser = t.client();
    await browser.refreshCsrf('/my/sign-in');
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await browser.post('/api/my/sign-in-link', { email: 'who@example.test' })).statusCode);
    expect(codes).toEqual([202, 202, 202, 429]);
    const perAddress: number[] = [];
    for (let i = 0; i < 8; i++) {
      perAddress.push((await browser.post('/api/my/sign-in-link', { email: `someone${i}@example.test` })).statusCode);
    }
    // 4 counted above: 10 from one address, then refused
    expect(perAddress.filter((c) => c === 429)).toHaveLength(2);
  });

  it('needs the page’s CSRF token', async () => {
    const res = await t
      .client()
      .request({ method: 'POST', url: '/api/my/sign-in-link', payload: { email: 'a@b.test' }, csrf: false });
    expect(res.statusCode).toBe(419);
  });
});

describe('a traveller on their own pages', () => {
  it('sees their bookings with what is still to do, in their words', async () => {
    const { email, booking } = await traveller();
    const browser = await signedInTraveller(email);
    const res = await browser.get('/api/my/bookings');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.traveller).toMatchObject({ first_name: 'Ada', email });
    expect(body.bookings).toHaveLength(1);
    expect(body.bookings[0]).toMatchObject({ id: booking.id, ref: booking.ref, departed: false });
    const labels = body.bookings[0].to_do.map((d: { label: string }) => d.label);
    expect(labels).toContain('Your passport details');
    expect(labels).toContain('Your booking form');
    const one = await browser.get(`/api/my/bookings/${booking.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({
      ref: booking.ref,
      invoices: [],
      form: { first_name: 'Ada', passport_number: null, medical_conditions: false },
      form_complete: false,
      passport_rule: expect.stringMatching(
        /asks for a passport valid \d+ months? after your return on 10 June 2031\.$/,
      ),
    });
  });

  it('finds no booking of another traveller, and no back-office route', async () => {
    const mine = await traveller();
    const theirs = await traveller();
    const browser = await signedInTraveller(mine.email);
    expect((await browser.get(`/api/my/bookings/${theirs.booking.id}`)).statusCode).toBe(404);
    expect((await browser.get(`/api/my/bookings/999999999`)).statusCode).toBe(404);
    for (const url of [
      '/api/bookings',
      `/api/bookings/${mine.booking.id}`,
      '/api/trips',
      '/api/users',
      '/api/money-due',
    ]) {
      expect((await browser.get(url)).statusCode, url).toBe(403);
    }
    // the traveller's home is /my
    const home = await browser.get('/');
    expect(home.statusCode).toBe(302);
    expect(home.headers.location).toBe('/my');
  });

  it('is a traveller’s alone: staff and tokens are refused', async () => {
    expect((await admin.get('/api/my/bookings')).statusCode).toBe(403);
    const anonymous = await t.client().get('/api/my/bookings');
    expect(anonymous.statusCode).toBe(401);
    const byToken = await t.app.inject({
      method: 'GET',
      url: '/api/my/bookings',
      headers: { authorization: 'Bearer tdp_whatever' },
    });
    expect(byToken.statusCode).toBe(403);
  });

  it('opens at the booking when staff email the link from it, recorded in the History', async () => {
    const { email, booking } = await traveller();
    const res = await admin.post(`/api/bookings/${booking.id}/sign-in-link`);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: `A sign-in link is on its way to ${email}.` });
    const browser = t.client();
    await browser.refreshCsrf('/my/sign-in');
    const signedIn = await browser.post('/api/my/sign-in', { token: await lastLinkTo(email) });
    expect(signedIn.json()).toEqual({ redirect: `/my/bookings/${booking.id}` });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.bookingId, booking.id));
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['user.sign_in_link_sent', 'user.signed_in']));
    expect(events.find((e) => e.action === 'user.signed_in')).toMatchObject({ source: 'portal' });
    expect((await admin.post('/api/bookings/999999999/sign-in-link')).statusCode).toBe(404);
  });

  it('lands on /my after signing in with a password', async () => {
    const { email } = await traveller();
    const browser = t.client();
    await browser.login(email, PASSWORD);
    const login = await browser.get('/login');
    expect(login.headers.location).toBe('/my');
    expect((await browser.get('/my')).statusCode).toBe(200);
  });

  it('keeps the links a day after they expire, no longer', async () => {
    const { user } = await traveller();
    const at = Date.now();
    await t.db.insert(signInLinks).values([
      { tokenHash: `old${n}`, userId: user.id, expiresAt: new Date(at - 25 * 3_600_000) },
      { tokenHash: `recent${n}`, userId: user.id, expiresAt: new Date(at - 23 * 3_600_000) },
    ]);
    await purgeSignInLinks(t.db, new Date(at));
    const left = await t.db
      .select({ hash: signInLinks.tokenHash })
      .from(signInLinks)
      .where(eq(signInLinks.userId, user.id));
    expect(left.map((l) => l.hash)).toEqual([`recent${n}`]);
  });
});

const FORM = {
  title: 'Ms',
  first_name: 'Ada',
  last_name: 'Lovelace',
  date_of_birth: '1990-12-10',
  mobile: '07700 900123',
  address_1: '1 Analytical Row',
  address_3: 'London',
  post_code: 'N1 1AA',
  passport_number: '925665416',
  passport_issue: '2024-01-15',
  passport_expiry: '2034-01-15',
  nok_name: 'Charles Babbage',
  nok_relationship: 'Friend',
  nok_telephone: '07700 900456',
  dietary: 'Vegetarian',
  medical_conditions: false,
};

describe('the traveller form', () => {
  it('refuses a form with clear field errors and changes nothing', async () => {
    const { email, booking } = await traveller();
    const browser = await signedInTraveller(email);
    const res = await browser.put(`/api/my/bookings/${booking.id}/details`, {
      ...FORM,
      date_of_birth: '',
      medical_conditions: true,
      passport_expiry: '2020-01-01',
      mobile: 'call me',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({
      date_of_birth: ['The date of birth field is required.'],
      mobile: ['The mobile may only contain digits, spaces, +, ( ) and -.'],
    });
    const again = await browser.put(`/api/my/bookings/${booking.id}/details`, {
      ...FORM,
      medical_conditions: true,
      passport_expiry: '2020-01-01',
    });
    expect(again.json().errors).toEqual({
      medical_detail: ['Tell us about your medical conditions.'],
      passport_expiry: ['The passport expiry date must be after its issue date.'],
    });
    // a day that does not exist is refused at its field, never by the database
    const impossible = await browser.put(`/api/my/bookings/${booking.id}/details`, {
      ...FORM,
      date_of_birth: '1990-02-31',
    });
    expect(impossible.statusCode).toBe(422);
    expect(impossible.json().errors).toEqual({ date_of_birth: ['The date of birth is not a valid date.'] });
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(row).toMatchObject({ passportNumber: null, formComplete: false, dateOfBirth: null });
  });

  it('saves a traveller’s answers: the booking form and passport checks turn green, the History says who, masked', async () => {
    const { email, booking, user } = await traveller({ requirePassport: false });
    const browser = await signedInTraveller(email);
    const before = (await browser.get(`/api/my/bookings/${booking.id}`)).json();
    expect(before.to_do.map((d: { check: string }) => d.check)).toEqual(
      expect.arrayContaining(['passport', 'forms', 'next_of_kin']),
    );
    const res = await browser.put(`/api/my/bookings/${booking.id}/details`, FORM);
    expect(res.statusCode, res.body).toBe(200);
    // what is left is the deposit, which no form pays
    expect(res.json().to_do.map((d: { check: string }) => d.check)).toEqual(['money']);
    expect(res.json()).toMatchObject({ form_complete: true, passport_rule: null });
    expect(res.json().form).toMatchObject({
      passport_number: '925665416',
      passport_expiry: '2034-01-15',
      nok_name: 'Charles Babbage',
    });
    // the office sees it at once: the booking page and the readiness board
    const staff = (await admin.get(`/api/bookings/${booking.id}`)).json();
    expect(staff).toMatchObject({ passport_number: '925665416', form_complete: true, dietary: 'Vegetarian' });
    const board = (await admin.get(`/api/bookings/${booking.id}/readiness`)).json();
    expect(board.checks).toMatchObject({
      passport: { state: 'green' },
      forms: { state: 'green' },
      next_of_kin: { state: 'green' },
    });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.bookingId} = ${booking.id} and ${auditEvents.action} = 'booking.traveller_form'`);
    expect(event).toMatchObject({ source: 'portal', actorUserId: user.id });
    expect(JSON.stringify(event!.changes)).not.toContain('925665416');
    expect(event!.changes).toHaveProperty('dietary');
  });

  it('is read-only once the trip has left, and another traveller’s booking is not found', async () => {
    const gone = await traveller({ departure: '2020-06-01' });
    const browser = await signedInTraveller(gone.email);
    const res = await browser.put(`/api/my/bookings/${gone.booking.id}/details`, FORM);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: TRIP_DEPARTED });
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, gone.booking.id));
    expect(row!.passportNumber).toBeNull();
    const other = await traveller();
    expect((await browser.put(`/api/my/bookings/${other.booking.id}/details`, FORM)).statusCode).toBe(404);
    // nor is a cancelled booking changed
    const cancelled = await traveller();
    await t.db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, cancelled.booking.id));
    const mine = await signedInTraveller(cancelled.email);
    expect((await mine.put(`/api/my/bookings/${cancelled.booking.id}/details`, FORM)).statusCode).toBe(409);
  });

  it('is the same form for staff helping a traveller on the phone', async () => {
    const { booking } = await traveller();
    // "no medical conditions" keeps no detail of them
    const no = await admin.put(`/api/bookings/${booking.id}/traveller-form`, {
      ...FORM,
      medical_detail: 'Left in a hidden field',
    });
    expect(no.json()).toMatchObject({ medical_detail: null });
    const res = await admin.put(`/api/bookings/${booking.id}/traveller-form`, {
      ...FORM,
      medical_conditions: true,
      medical_detail: 'Asthma',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ passport_expiry: '2034-01-15', medical_detail: 'Asthma', form_complete: true });
    const bad = await admin.put(`/api/bookings/${booking.id}/traveller-form`, { ...FORM, first_name: '' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.first_name).toEqual(['The first name field is required.']);
    expect((await admin.put('/api/bookings/999999999/traveller-form', FORM)).statusCode).toBe(404);
  });
});

/** The portal link in the last email to this address (a chaser's, a reminder's…). */
async function lastPortalLinkTo(email: string): Promise<string | undefined> {
  const mail = sink.received.filter((m) => m.to.includes(email)).at(-1);
  return mail
    ? /\/my\/sign-in\/([0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[\w-]{32})/.exec(
        mail.raw.replace(/=\r?\n/g, ''),
      )?.[1]
    : undefined;
}

describe('the link in every chaser, reminder, invoice and documents email', () => {
  it('signs the traveller in at the booking once; the History’s copy of the email leaves it out', async () => {
    const { booking, trip, email } = await traveller();
    const sent = await admin.post(`/api/trips/${trip.id}/chasers`, { booking_ids: [booking.id], checks: ['passport'] });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().sent).toHaveLength(1);
    const token = await lastPortalLinkTo(email);
    expect(token).toBeDefined();
    const text = sink.received
      .filter((m) => m.to.includes(email))
      .at(-1)!
      .raw.replace(/=\r?\n/g, '');
    expect(text).toContain(`https://trips.operator.test/my/sign-in/${token}`);

    const [copy] = await t.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'email.sent' and ${auditEvents.bookingId} = ${booking.id}`);
    expect(JSON.stringify(copy!.details)).not.toContain(token!);
    expect((copy!.details as { text: string }).text).toContain('/my/sign-in/[link removed]');

    const browser = t.client();
    await browser.refreshCsrf('/my/sign-in');
    const first = await browser.post('/api/my/sign-in', { token });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ redirect: `/my/bookings/${booking.id}` });
    await browser.refreshCsrf('/my');
    expect((await browser.get(`/api/my/bookings/${booking.id}`)).statusCode).toBe(200);
    // the same traveller clicking it again is simply taken there
    expect((await browser.post('/api/my/sign-in', { token })).json()).toEqual({
      redirect: `/my/bookings/${booking.id}`,
    });
    // anyone else holding it (a forwarded email) is not signed in
    const other = t.client();
    await other.refreshCsrf('/my/sign-in');
    const again = await other.post('/api/my/sign-in', { token });
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe(SIGN_IN_LINK_SPENT);
  });

  it('works for 14 days; a tampered one signs no one in; a stale one asks for a fresh link sent to its traveller', async () => {
    const { booking, trip, email } = await traveller();
    await admin.post(`/api/trips/${trip.id}/chasers`, { booking_ids: [booking.id], checks: ['forms'] });
    const token = (await lastPortalLinkTo(email))!;
    const browser = t.client();
    await browser.refreshCsrf('/my/sign-in');
    const tampered = token.replace(/^[0-9a-z]+/, (id) => (parseInt(id, 36) + 1).toString(36));
    expect((await browser.post('/api/my/sign-in', { token: tampered })).statusCode).toBe(410);
    shift = (PORTAL_LINK_DAYS * 24 * 60 + 1) * 60_000;
    expect((await browser.post('/api/my/sign-in', { token })).statusCode).toBe(410);

    const before = sink.received.filter((m) => m.to.includes(email)).length;
    const renewed = await browser.post('/api/my/sign-in-link/renew', { token });
    expect(renewed.statusCode).toBe(202);
    expect(renewed.json()).toEqual({ message: SIGN_IN_LINK_RENEWED });
    const fresh = await lastLinkTo(email);
    // the same answer for a link that is not ours, and nothing sent
    expect((await browser.post('/api/my/sign-in-link/renew', { token: tampered })).json()).toEqual({
      message: SIGN_IN_LINK_RENEWED,
    });
    const res = await browser.post('/api/my/sign-in', { token: fresh });
    expect(res.json()).toEqual({ redirect: `/my/bookings/${booking.id}` });
    expect(sink.received.filter((m) => m.to.includes(email))).toHaveLength(before + 1);
  });

  it('is in the reminder and the invoice email too', async () => {
    const { booking, email } = await traveller();
    const created = await admin.post('/api/invoices', {
      booking_id: booking.id,
      invoice_date: '2030-12-01',
      due_date: '2031-01-01',
      invoice_ref: `KIT-${booking.id}`,
      description: 'Kit',
      items: [{ description: 'Kit', amount: 50 }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const invoiceId = created.json().id as number;
    const emailed = await admin.post(`/api/bookings/${booking.id}/invoices/${invoiceId}/send`);
    expect(emailed.statusCode, emailed.body).toBe(200);
    const token = (await lastPortalLinkTo(email))!;
    expect(token).toBeDefined();
    const browser = t.client();
    await browser.refreshCsrf('/my/sign-in');
    expect((await browser.post('/api/my/sign-in', { token })).json()).toEqual({
      redirect: `/my/bookings/${booking.id}`,
    });
    // the reminder's link is its own
    const reminded = await admin.post(`/api/bookings/${booking.id}/reminders`);
    expect(reminded.statusCode, reminded.body).toBe(200);
    const second = (await lastPortalLinkTo(email))!;
    expect(second).not.toBe(token);
    const other = t.client();
    await other.refreshCsrf('/my/sign-in');
    expect((await other.post('/api/my/sign-in', { token: second })).statusCode).toBe(200);
  });
});

describe('signing out everywhere', () => {
  it('ends every session and refuses the links emailed before it, by the traveller or by staff', async () => {
    const { booking, trip, email, user } = await traveller();
    await admin.post(`/api/trips/${trip.id}/chasers`, { booking_ids: [booking.id], checks: ['passport'] });
    const token = (await lastPortalLinkTo(email))!;
    const phone = await signedInTraveller(email);
    const laptop = await signedInTraveller(email);
    expect((await phone.post('/api/my/sign-out-everywhere')).statusCode).toBe(204);
    expect((await phone.get('/api/my/bookings')).statusCode).toBe(401);
    expect((await laptop.get('/api/my/bookings')).statusCode).toBe(401);
    const stranger = t.client();
    await stranger.refreshCsrf('/my/sign-in');
    expect((await stranger.post('/api/my/sign-in', { token })).statusCode).toBe(410);
    const [event] = await t.db
      .select({ summary: auditEvents.summary, source: auditEvents.source })
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'user.sessions_ended' and ${auditEvents.subjectId} = ${String(user.id)}`);
    expect(event!.summary).toContain('signed out everywhere (2 sessions ended');

    // staff, from the traveller's user page
    const again = await signedInTraveller(email);
    const ended = await admin.post(`/api/users/${user.id}/end-sessions`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await again.get('/api/my/bookings')).statusCode).toBe(401);
    // staff's own accounts are not travellers'
    expect((await admin.post('/api/users/1/end-sessions')).statusCode).toBe(404);
    expect((await again.post('/api/users/1/end-sessions')).statusCode).toBeGreaterThanOrEqual(401);
  });
});

describe('the trip’s questions', () => {
  it('are answered by the traveller: each as asked, only this trip’s, blank again when emptied, in the History', async () => {
    const { email, booking, trip } = await traveller();
    const [shirt, diet] = await t.db
      .insert(tripCustomFields)
      .values([
        { tripId: trip.id, label: 'T-shirt size', note: 'S, M, L or XL', sortOrder: 1 },
        { tripId: trip.id, label: 'How did you hear of us?', sortOrder: 2 },
      ])
      .returning({ id: tripCustomFields.id });
    const other = await insertTrip(t.db, { name: `Other ${n}`, departureDate: '2031-07-01', returnDate: '2031-07-08' });
    const [foreign] = await t.db
      .insert(tripCustomFields)
      .values({ tripId: other.id, label: 'Elsewhere' })
      .returning({ id: tripCustomFields.id });
    const browser = await signedInTraveller(email);
    const page = (await browser.get(`/api/my/bookings/${booking.id}`)).json();
    expect(page.questions).toEqual([
      { id: shirt!.id, label: 'T-shirt size', note: 'S, M, L or XL', answer: '' },
      { id: diet!.id, label: 'How did you hear of us?', note: null, answer: '' },
    ]);

    const refused = await browser.put(`/api/my/bookings/${booking.id}/answers`, {
      answers: [
        { custom_field_id: shirt!.id, value: 'M' },
        { custom_field_id: foreign!.id, value: 'x' },
        { custom_field_id: diet!.id, value: 'y'.repeat(2001) },
      ],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({
      'answers.2.value': ['An answer must not be longer than 2000 characters.'],
    });
    const notThisTrip = await browser.put(`/api/my/bookings/${booking.id}/answers`, {
      answers: [{ custom_field_id: foreign!.id, value: 'x' }],
    });
    expect(notThisTrip.json().errors).toEqual({ 'answers.0.custom_field_id': [NOT_THIS_TRIPS_QUESTION] });

    const saved = await browser.put(`/api/my/bookings/${booking.id}/answers`, {
      answers: [
        { custom_field_id: shirt!.id, value: ' M ' },
        { custom_field_id: diet!.id, value: 'A friend' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().questions.map((q: { answer: string }) => q.answer)).toEqual(['M', 'A friend']);
    // the office sees them at once
    const detail = (await admin.get(`/api/bookings/${booking.id}`)).json();
    expect(detail.custom_fields.map((f: { answer: string | null }) => f.answer)).toEqual(['M', 'A friend']);
    const cleared = await browser.put(`/api/my/bookings/${booking.id}/answers`, {
      answers: [{ custom_field_id: diet!.id, value: '' }],
    });
    expect(cleared.json().questions.map((q: { answer: string }) => q.answer)).toEqual(['M', '']);
    const events = await t.db
      .select({ summary: auditEvents.summary, source: auditEvents.source, changes: auditEvents.changes })
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'booking.answers' and ${auditEvents.bookingId} = ${booking.id}`)
      .orderBy(auditEvents.id);
    expect(events).toHaveLength(2);
    expect(events[0]!.source).toBe('portal');
    expect(events[0]!.changes).toEqual({ 'T-shirt size': [null, 'M'], 'How did you hear of us?': [null, 'A friend'] });
    expect(events[1]!.summary).toContain('from A friend to nothing');
    // staff answer for them with the same contract
    const staff = await admin.put(`/api/bookings/${booking.id}/answers`, {
      answers: [{ custom_field_id: diet!.id, value: 'Phone call' }],
    });
    expect(staff.statusCode, staff.body).toBe(200);
    expect((await admin.put(`/api/bookings/${booking.id}/answers`, { answers: 'M' })).statusCode).toBe(422);
  });
});

describe('the passport', () => {
  const jpeg = Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
    Buffer.from('JFIF\0'),
    Buffer.alloc(200),
  ]);
  const upload = (client: TestClient, url: string, bytes: Buffer, filename = 'passport.jpg') => {
    const body = multipart({}, { field: 'file', filename, contentType: 'image/jpeg', bytes });
    return client.request({ method: 'POST', url, payload: body.payload, headers: body.headers });
  };

  it('says the rule before and whether it passes after; the photo page is checked by content and waits “to check”', async () => {
    const { email, booking, trip } = await traveller();
    const browser = await signedInTraveller(email);
    const before = (await browser.get(`/api/my/bookings/${booking.id}`)).json();
    expect(before.passport_check).toBeNull();
    expect(before.passport_photo).toEqual({ uploaded_at: null, checked: false });

    const short = await browser.put(`/api/my/bookings/${booking.id}/details`, {
      ...FORM,
      passport_expiry: '2031-07-01',
      nationality: 'British',
    });
    expect(short.statusCode, short.body).toBe(200);
    expect(short.json().form.nationality).toBe('British');
    expect(short.json().passport_check).toMatchObject({ ok: false });
    expect(short.json().passport_check.message).toMatch(/^Your passport does not pass\. Expires on 1 Jul 2031/);
    const good = await browser.put(`/api/my/bookings/${booking.id}/details`, FORM);
    expect(good.json().passport_check).toEqual({
      ok: true,
      message: 'Your passport passes: it is valid until 15 January 2034.',
    });

    // a file that is not what it says is refused, and nothing is kept
    const forged = await upload(
      browser,
      `/api/my/bookings/${booking.id}/passport-image`,
      Buffer.from('%!PS not a photo'),
    );
    expect(forged.statusCode).toBe(422);
    expect(forged.json().errors).toEqual({ file: [PASSPORT_PHOTO_REFUSED] });
    const sent = await upload(browser, `/api/my/bookings/${booking.id}/passport-image`, jpeg);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().passport_photo).toMatchObject({ checked: false });
    expect(sent.json().passport_photo.uploaded_at).not.toBeNull();

    // the board: passport green (the traveller is not chased), and "to check" until ticked
    const board = async () =>
      (await admin.get(`/api/trips/${trip.id}/readiness`))
        .json()
        .rows.find((r: { booking_id: number }) => r.booking_id === booking.id).checks.passport;
    expect(await board()).toMatchObject({ state: 'green', to_check: true });
    const image = await admin.get(`/api/bookings/${booking.id}/passport-image`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload.equals(jpeg)).toBe(true);
    // a traveller cannot reach the office's copy
    expect((await browser.get(`/api/bookings/${booking.id}/passport-image`)).statusCode).toBe(403);
    expect((await admin.post(`/api/bookings/${booking.id}/passport-image/checked`)).statusCode).toBe(200);
    expect((await board()).to_check).toBeUndefined();
    expect((await browser.get(`/api/my/bookings/${booking.id}`)).json().passport_photo.checked).toBe(true);

    // staff's own upload needs no check
    const byStaff = await upload(admin, `/api/bookings/${booking.id}/passport-image`, jpeg, 'scan.jpg');
    expect(byStaff.statusCode, byStaff.body).toBe(200);
    expect((await board()).to_check).toBeUndefined();
    const events = await t.db
      .select({ action: auditEvents.action, source: auditEvents.source })
      .from(auditEvents)
      .where(sql`${auditEvents.action} like 'booking.passport_image%' and ${auditEvents.bookingId} = ${booking.id}`)
      .orderBy(auditEvents.id);
    expect(events.map((e) => `${e.action} ${e.source}`)).toEqual([
      'booking.passport_image portal',
      'booking.passport_image_checked web',
      'booking.passport_image web',
    ]);
  });

  it('takes no photo once the trip has left, nor for another traveller’s booking', async () => {
    const { email, booking } = await traveller({ departure: '2020-01-01' });
    const mine = await traveller();
    const browser = await signedInTraveller(email);
    const left = await upload(browser, `/api/my/bookings/${booking.id}/passport-image`, jpeg);
    expect(left.statusCode).toBe(409);
    expect((await upload(browser, `/api/my/bookings/${mine.booking.id}/passport-image`, jpeg)).statusCode).toBe(404);
  });
});

describe('payments', () => {
  it('shows the schedule, the invoices with their PDF, the payments made, and the bank details without card payments', async () => {
    const { email, booking } = await traveller();
    const other = await traveller();
    const today = ukToday(new Date(clock.now()));
    const deposit = await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' });
    expect(deposit.statusCode, deposit.body).toBe(201);
    const invoice = deposit.json() as { id: number; invoice_ref: string; total: number };
    const paid = await admin.post('/api/transactions', {
      booking_id: booking.id,
      invoice_id: invoice.id,
      invoice_type: 'deposit',
      amount: 100,
      processor: 'BACS',
      date: today,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const browser = await signedInTraveller(email);
    const page = (await browser.get(`/api/my/bookings/${booking.id}`)).json();
    expect(page.payments).toEqual([
      { date: today, amount: 100, type: 'payment', how: 'Bank transfer', invoice_ref: invoice.invoice_ref },
    ]);
    expect(page.invoices[0]).toMatchObject({ id: invoice.id, pay_url: null });
    expect(page.bank_transfer).toEqual({ details: BANK, reference: booking.ref });
    expect(Array.isArray(page.schedule)).toBe(true);
    for (const row of page.schedule) expect(['paid', 'due', 'overdue', 'waived']).toContain(row.state);

    const pdf = await browser.get(page.invoices[0].pdf_url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // another traveller's invoice, by either booking, is not found
    const theirs = await admin.post(`/api/bookings/${other.booking.id}/invoices`, { invoice_type: 'deposit' });
    const theirId = (theirs.json() as { id: number }).id;
    expect((await browser.get(`/api/my/bookings/${booking.id}/invoices/${theirId}/pdf`)).statusCode).toBe(404);
    expect((await browser.get(`/api/my/bookings/${other.booking.id}/invoices/${theirId}/pdf`)).statusCode).toBe(404);
  });
});

describe('documents and fundraising', () => {
  it('lists the trip’s documents through signed links, and records "Update my total" as a page-total entry', async () => {
    const { email, booking, trip } = await traveller();
    await t.db.update(bookings).set({ fundingType: 'fundraise' }).where(eq(bookings.id, booking.id));
    const doc = await admin.post('/api/documents', { trip_id: trip.id, name: 'Kit list' });
    expect(doc.statusCode, doc.body).toBe(201);
    const body = multipart(
      { document_id: String(doc.json().id) },
      { field: 'document_file', filename: 'kit.txt', contentType: 'text/plain', bytes: Buffer.from('Boots\nHat\n') },
    );
    const uploaded = await admin.request({
      method: 'POST',
      url: `/api/documents/${doc.json().id}/upload`,
      payload: body.payload,
      headers: body.headers,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const browser = await signedInTraveller(email);
    const page = (await browser.get(`/api/my/bookings/${booking.id}`)).json();
    expect(page.documents).toHaveLength(1);
    expect(page.documents[0]).toMatchObject({ name: 'Kit list', size: 10 });
    const file = await t.client().get(page.documents[0].url);
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('Boots\nHat\n');

    expect(page.fundraising).toMatchObject({ raised: 0, state: expect.any(String) });
    expect(page.fundraising.target).toBeGreaterThan(0);
    const first = await browser.post(`/api/my/bookings/${booking.id}/fundraising/total`, { total: '450' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().fundraising.raised).toBe(450);
    const second = await browser.post(`/api/my/bookings/${booking.id}/fundraising/total`, { total: 600.5 });
    expect(second.json().fundraising.raised).toBe(600.5);
    const lower = await browser.post(`/api/my/bookings/${booking.id}/fundraising/total`, { total: 500 });
    expect(lower.statusCode).toBe(422);
    expect(lower.json().errors.total[0]).toMatch(/^We already have £600\.50 raised/);
    const entries = (await admin.get(`/api/bookings/${booking.id}/fundraising`)).json().entries as Array<{
      amount: number;
      source: string;
      recorded_by: string | null;
    }>;
    expect(entries.map((e) => [e.amount, e.source])).toEqual(
      expect.arrayContaining([
        [450, 'page_total'],
        [150.5, 'page_total'],
      ]),
    );
    const [event] = await t.db
      .select({ source: auditEvents.source })
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'fundraising.entry_added' and ${auditEvents.bookingId} = ${booking.id}`);
    expect(event!.source).toBe('portal');
    // a booking that does not fundraise has nothing to update
    const self = await traveller();
    const selfBrowser = await signedInTraveller(self.email);
    expect((await selfBrowser.get(`/api/my/bookings/${self.booking.id}`)).json().fundraising).toBeNull();
    expect(
      (await selfBrowser.post(`/api/my/bookings/${self.booking.id}/fundraising/total`, { total: 10 })).statusCode,
    ).toBe(422);
  });
});

describe('a traveller session, route by route', () => {
  it('is refused by every back-office and charity route, with a 403 that says nothing of the data', async () => {
    const { email } = await traveller();
    const browser = await signedInTraveller(email);
    const closed = t.app.routeScopes.filter(
      (r) => r.method !== 'HEAD' && (r.access === 'admin' || r.access === 'charity'),
    );
    expect(closed.length).toBeGreaterThan(100);
    const answers: string[] = [];
    for (const route of closed) {
      const url = route.url.replace(/:[A-Za-z]+/g, '1');
      const res = await browser.request({
        method: route.method as 'GET',
        url,
        payload: route.method === 'GET' ? undefined : {},
      });
      if (res.statusCode !== 403) answers.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(answers).toEqual([]);
  });
});

describe('the chasers', () => {
  it('stop as soon as the traveller’s own answers turn the check green', async () => {
    const { email, booking, trip } = await traveller({ requirePassport: false });
    const sent = await admin.post(`/api/trips/${trip.id}/chasers`, { booking_ids: [booking.id], checks: ['forms'] });
    expect(sent.json().sent).toHaveLength(1);
    const browser = await signedInTraveller(email);
    expect((await browser.put(`/api/my/bookings/${booking.id}/details`, FORM)).statusCode).toBe(200);
    const before = sink.received.filter((m) => m.to.includes(email)).length;
    // the chaser job, a week on, in sending hours: nothing more to the traveller, and the stop said once
    const weekOn: Pick<Clock, 'now'> = { now: () => Date.UTC(2030, 0, 15, 10) };
    const job = new ChaserService(
      t.db,
      createMailer(t.config),
      operatorOf(t.config),
      t.config.fundraisingDefaults,
      weekOn,
    );
    await job.runTrip(trip.id, '2030-01-15');
    expect(sink.received.filter((m) => m.to.includes(email))).toHaveLength(before);
    const stops = await t.db
      .select({ summary: auditEvents.summary })
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'chaser.skipped' and ${auditEvents.bookingId} = ${booking.id}`);
    expect(stops.map((s) => s.summary)).toEqual([expect.stringContaining('the forms check is now green')]);
  });
});

describe('what a link and a session are worth after a change', () => {
  it('a portal link signs no one in once the booking’s email is not its account’s; a session older than "sign out everywhere" ends', async () => {
    const { booking, trip, email, user } = await traveller();
    await admin.post(`/api/trips/${trip.id}/chasers`, { booking_ids: [booking.id], checks: ['passport'] });
    const token = (await lastPortalLinkTo(email))!;
    // staff changed the booking's address (a parent's, say), not the account's
    await t.db
      .update(bookings)
      .set({ email: `someone.else.${n}@example.test` })
      .where(eq(bookings.id, booking.id));
    const browser = t.client();
    await browser.refreshCsrf('/my/sign-in');
    expect((await browser.post('/api/my/sign-in', { token })).statusCode).toBe(410);

    const phone = await signedInTraveller(email);
    expect((await phone.get('/api/my/bookings')).statusCode).toBe(200);
    // a session row written back after the stamp (a request in flight) is still over
    await t.db
      .update(users)
      .set({ sessionsEndedAt: new Date(Date.now() + 1000) })
      .where(eq(users.id, user.id));
    expect((await phone.get('/api/my/bookings')).statusCode).toBe(401);
  });
});
