import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS } from '../../../contract/booking-constants.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { bookings, teams, users } from '../../../db/schema/index.ts';
import { ukToday, addDays } from '../../../contract/dates.ts';
import { createTestApp, PASSWORD, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { audit } from '../../audit/audit.ts';
import { writtenDays } from '../../common/redact-text.ts';
import { redactTravellerData } from '../../common/traveller-data.ts';

/**
 * Issue 36: without traveller data read, the travellers' health and passport data is absent from
 * every reply and file. A value is planted in every such column; every GET a member may make is
 * searched for it, and the same GETs by Full access find it (so the search can fail).
 */
let t: TestApp;
let sink: Awaited<ReturnType<typeof smtpSink>>;
let admin: TestClient;
let sales: TestClient;
let bookingId: number;
let tripId: number;

const PLANTED = {
  passport_number: 'PLNT7777X',
  passport_issue: '2019-03-17',
  passport_expiry: '2036-09-23',
  nationality: 'Plantonian',
  insurance_company: 'Plantsure Mutual',
  insurance_policy_number: 'PLNTPOL42',
  insurance_telephone: '07700 911119',
  nok_name: 'Nokky Planted',
  nok_relationship: 'Plantparent',
  nok_telephone: '07700 922229',
  dietary: 'Planted diet only',
  medication: 'Plantamol twice daily',
  medical_detail: 'Planted condition detail',
};
const PLANTED_DB = { nok_email: 'nok.planted@example.test', nok_address: '9 Planted Row' };
const needles = [...Object.values(PLANTED), ...Object.values(PLANTED_DB)];
const found = (text: string) => needles.filter((n) => text.includes(n));

async function member(team: string) {
  const email = `${team.replace(/\W/g, '').toLowerCase()}@example.test`;
  const row = await insertUser(t.db, { email, password: PASSWORD, roleId: 1, firstName: 'Tia', lastName: team });
  const [tm] = await t.db.select().from(teams).where(eq(teams.name, team));
  await t.db.update(users).set({ teamId: tm!.id }).where(eq(users.id, row.id));
  const client = t.client();
  expect((await client.login(email, PASSWORD)).statusCode).toBe(204);
  return client;
}

beforeAll(async () => {
  sink = await smtpSink();
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${sink.port}` });
  admin = await t.signedIn(1, 'chief@example.test');
  const today = ukToday();
  const trip = await insertTrip(t.db, {
    name: 'Planted Peaks',
    departureDate: addDays(today, 40),
    returnDate: addDays(today, 50),
  });
  tripId = trip.id;
  const booking = await insertBooking(t.db, trip.id, {
    firstName: 'Pia',
    lastName: 'Planted',
    email: 'pia@example.test',
  });
  bookingId = booking.id;
  await t.db
    .update(bookings)
    .set({ nokEmail: PLANTED_DB.nok_email, nokAddress: PLANTED_DB.nok_address })
    .where(eq(bookings.id, bookingId));
  // Full access fills the form in: the History keeps its changes
  const form = await admin.put(`/api/bookings/${bookingId}/traveller-form`, {
    first_name: 'Pia',
    last_name: 'Planted',
    date_of_birth: '1990-05-05',
    mobile: '07700 900001',
    address_1: '1 Plant Street',
    post_code: 'PL1 1AA',
    medical_conditions: true,
    ...PLANTED,
  });
  expect(form.statusCode, form.body).toBe(200);
  sales = await member('Sales');
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** Every GET of the back office a member may make, its ids those of the planted booking and trip. */
function getRoutes() {
  return t.app.routeScopes
    .filter((r) => r.access === 'admin' && r.method === 'GET' && !r.url.includes('*'))
    .map((r) =>
      r.url
        .replace(/^\/api\/bookings\/:[A-Za-z]+/, `/api/bookings/${bookingId}`)
        .replace(/^\/api\/trips\/:[A-Za-z]+/, `/api/trips/${tripId}`)
        .replace(/:[A-Za-z]+/g, '1'),
    )
    .map((url) => (url === '/api/bookings' ? '/api/bookings?timing=all' : url));
}

describe('traveller health and passport data for a team without it', () => {
  it('is in Full access’s replies (the search can find it)', async () => {
    const seen = new Set<string>();
    for (const url of getRoutes()) for (const n of found((await admin.get(url)).body)) seen.add(n);
    expect([...seen].sort()).toEqual([...needles].sort());
  });

  it('is in none of a Sales member’s replies, and what they may read still answers', async () => {
    const leaks: string[] = [];
    let answered = 0;
    for (const url of getRoutes()) {
      const res = await sales.get(url);
      if (res.statusCode === 200) answered += 1;
      const hits = found(res.body);
      if (hits.length) leaks.push(`${url}: ${hits.join(', ')}`);
    }
    expect(leaks).toEqual([]);
    expect(answered).toBeGreaterThan(20);
  });

  it('shows the booking with those fields empty, its History changes hidden, and readiness colours without detail', async () => {
    const booking = (await sales.get(`/api/bookings/${bookingId}`)).json();
    expect(booking.first_name).toBe('Pia');
    expect(booking.passport_number).toBeNull();
    expect(booking.medical_conditions).toBeNull();
    const history = (await sales.get(`/api/bookings/${bookingId}/history`)).json();
    const form = history.data.find((e: { changes: Record<string, unknown> | null }) => e.changes?.nok_name);
    expect(form.changes.nok_name).toEqual(['Hidden for your team', 'Hidden for your team']);
    const board = await sales.get(`/api/trips/${tripId}/readiness`);
    expect(board.statusCode, board.body).toBe(200);
    const row = board.json().rows.find((r: { booking_id: number }) => r.booking_id === bookingId);
    expect(row.checks.passport.reason).toBe('Hidden for your team');
    expect(row.checks.passport.state).toMatch(/green|amber|red/);
    expect(row.checks.money.reason).not.toBe('Hidden for your team');
  });

  it('leaves those columns out of the spreadsheet and refuses the passport zip, the manifest, the images and the medical and passport filters', async () => {
    const all = encodeURIComponent(JSON.stringify(EXPORT_COLUMNS.map((c) => c.key)));
    const res = await sales.get(`/bookings/export?timing=all&columns=${all}`);
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    wb.getWorksheet('Bookings')!.eachRow((row) => cells.push(JSON.stringify(row.values)));
    expect(cells[0]).toContain('Booking Ref');
    expect(cells[0]).not.toContain('Passport Number');
    expect(cells[0]).not.toContain('Medical Conditions');
    expect(found(cells.join('\n'))).toEqual([]);
    // Full access's has them
    const full = await admin.get(`/bookings/export?timing=all&columns=${all}`);
    const fwb = new ExcelJS.Workbook();
    await fwb.xlsx.load(full.rawPayload as unknown as ArrayBuffer);
    const fcells: string[] = [];
    fwb.getWorksheet('Bookings')!.eachRow((row) => fcells.push(JSON.stringify(row.values)));
    expect(found(fcells.join('\n'))).toContain('PLNT7777X');

    const message = 'Your team does not have the traveller health and passport data read permission.';
    for (const url of [
      '/bookings/export?timing=all&format=passportZip',
      `/api/trips/${tripId}/manifest`,
      `/api/bookings/${bookingId}/passport-image`,
      '/api/bookings?timing=all&medical=yes',
      '/api/bookings?timing=all&passport=missing',
      '/bookings/export?timing=all&passport=expired',
    ]) {
      const refused = await sales.get(url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().message, url).toBe(message);
    }
    const history = await sales.get('/audit/export');
    expect(history.statusCode).toBe(403);
  });

  it('refuses the traveller form to a team that may change bookings but not traveller data', async () => {
    const res = await sales.put(`/api/bookings/${bookingId}/traveller-form`, { first_name: 'Pia' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      'Your team does not have the traveller health and passport data change permission.',
    );
  });
});

/** A member of a team made for the test, signed in. */
async function memberOfNew(name: string, permissions: Record<string, string>) {
  const made = await admin.post('/api/teams', {
    name,
    permissions: {
      bookings: 'none',
      trips: 'none',
      finance: 'none',
      charities: 'none',
      people: 'none',
      settings: 'none',
      traveller_data: 'none',
      ...permissions,
    },
  });
  expect(made.statusCode, made.body).toBe(201);
  return member(name);
}

describe('traveller data quoted in kept texts, for a team without it', () => {
  let late: number;
  let expiry: string;
  let office: TestClient;
  const hidden = '(hidden for your team)';

  beforeAll(async () => {
    // a passport that runs out too soon after the return: its check, and so its chaser, quote the day
    expiry = addDays(ukToday(), 55);
    const b = await insertBooking(t.db, tripId, { firstName: 'Lou', lastName: 'Late', email: 'lou@example.test' });
    late = b.id;
    await t.db
      .update(bookings)
      .set({ passportNumber: 'LATE5555Z', passportIssueDate: '2016-02-02', passportExpiryDate: expiry })
      .where(eq(bookings.id, late));
    const sent = await admin.post(`/api/trips/${tripId}/chasers`, { booking_ids: [late], checks: ['passport'] });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().sent).toHaveLength(1);
    // a History summary written before issue 36 quoted values
    await audit(t.db, {
      action: 'booking.updated',
      subject: { type: 'booking', id: bookingId },
      bookingId,
      summary: `changed medication to "${PLANTED.medication}"`,
    });
    // bookings, the History and the email templates, but no traveller data
    office = await memberOfNew('Office desk', { bookings: 'read', people: 'read', settings: 'change' });
  });

  const quotes = (text: string) =>
    [...writtenDays(expiry), 'LATE5555Z', PLANTED.medication].filter((n) => text.includes(n));

  it('are whole for Full access: the chaser email quotes the expiry, the old summary the medication', async () => {
    expect(quotes((await admin.get(`/api/bookings/${late}/emails`)).body).length).toBeGreaterThan(0);
    expect(quotes((await admin.get(`/api/bookings/${late}/history`)).body).length).toBeGreaterThan(0);
    expect(quotes((await admin.get(`/api/bookings/${bookingId}/history`)).body)).toEqual([PLANTED.medication]);
  });

  it('hide those values in the emails panel, the History, the History page and its spreadsheet', async () => {
    for (const url of [
      `/api/bookings/${late}/emails`,
      `/api/bookings/${late}/history`,
      `/api/bookings/${bookingId}/history`,
      '/api/audit',
    ]) {
      const res = await office.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(quotes(res.body), url).toEqual([]);
    }
    const emails = (await office.get(`/api/bookings/${late}/emails`)).json();
    expect(emails[0].text).toContain(`Expires on ${hidden}`);
    const history = (await office.get(`/api/bookings/${bookingId}/history`)).json();
    expect(history.data.map((e: { summary: string }) => e.summary)).toContain(
      `System changed medication to "${hidden}"`,
    );
    const file = await office.get('/audit/export');
    expect(file.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    wb.getWorksheet('Events')!.eachRow((row) => cells.push(JSON.stringify(row.values)));
    expect(cells.join('\n')).toContain(hidden);
    expect(quotes(cells.join('\n'))).toEqual([]);
  });

  it('hide them in the chaser template’s preview and test email, and in the test’s History event', async () => {
    const own = await admin.post('/api/email-templates/chaser_passport/preview', { booking_id: late });
    expect(quotes(own.json().text).length).toBeGreaterThan(0);
    const preview = await office.post('/api/email-templates/chaser_passport/preview', { booking_id: late });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().text).toContain(`Expires on ${hidden}`);
    expect(quotes(preview.json().text + preview.json().html)).toEqual([]);
    // a test sent by Full access keeps the text whole, and the office reads it hidden
    const before = sink.received.length;
    const test = await admin.post('/api/email-templates/chaser_passport/test', { booking_id: late });
    expect(test.statusCode, test.body).toBe(200);
    expect(
      quotes(
        sink.received
          .slice(before)
          .map((m) => m.raw)
          .join(''),
      ).length,
    ).toBeGreaterThan(0);
    const events = (await office.get('/api/audit?action=email.sent')).json().data;
    const event = events.find((e: { summary: string }) => e.summary.includes('emailed a test'));
    expect(event.details.text).toContain(hidden);
    expect(quotes(JSON.stringify(events))).toEqual([]);
    // and one the office sends to itself has none of it
    const mine = sink.received.length;
    expect((await office.post('/api/email-templates/chaser_passport/test', { booking_id: late })).statusCode).toBe(200);
    expect(
      quotes(
        sink.received
          .slice(mine)
          .map((m) => m.raw)
          .join(''),
      ),
    ).toEqual([]);
  });

  it('do not say which of a traveller’s details are held: a transfer’s list, erasure’s fields', async () => {
    const full = (await admin.get(`/api/bookings/${bookingId}/transfer/preview`)).json();
    expect(full.erased).toContain('medical conditions');
    const res = await sales.get(`/api/bookings/${bookingId}/transfer/preview`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().erased).toEqual([
      'date of birth',
      'address',
      'any passport, health, insurance and next-of-kin details',
    ]);
    expect(res.json().summary).not.toMatch(/medical|medication|dietary|next of kin,/);
    expect(redactTravellerData({ fields: ['medical_conditions', 'dietary'], retention_days: 90 })).toEqual({
      fields: [],
      retention_days: 90,
    });
  });
});
