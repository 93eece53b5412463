import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import {
  auditEvents,
  bookingCustomFieldAnswers,
  countries,
  invoiceItems,
  invoices,
  tripCustomFields,
} from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

// GET /api/trips/{id}/readiness and GET /api/bookings/{id}/readiness on a trip made here: the
// checks read the database's facts (the passport rule of the destination, the trip's questions,
// money_owed, sharers), the summary counts them, cancelled bookings stay off the board.

let t: TestApp;
let admin: TestClient;
let tripId: number;
const ids = {} as Record<'ready' | 'sharer' | 'short' | 'owing' | 'gone', number>;
const today = ukToday();

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  const [peru] = await t.db.select({ id: countries.id }).from(countries).where(eq(countries.code, 'PE'));
  // departs in 200 days: what is still to do is amber, not yet red
  const trip = await insertTrip(t.db, {
    name: 'Ready Trek',
    countryId: peru!.id,
    depositPence: 0,
    departureDate: addDays(today, 200),
    returnDate: addDays(today, 210),
    requirePassport: false,
  });
  tripId = trip.id;
  const [field] = await t.db.insert(tripCustomFields).values({ tripId, label: 'T-shirt size' }).returning();
  const ready = {
    passportExpiryDate: addDays(today, 210 + 400),
    formComplete: true,
    nokName: 'Ann Lee',
    nokTelephone: '07700 900123',
    roomType: 'Twin',
    status: 'confirmed',
  } as const;
  ids.ready = (
    await insertBooking(t.db, tripId, { ...ready, firstName: 'Rosa', lastName: 'Ready', shareWith: 'Sam Sharer' })
  ).id;
  ids.sharer = (
    await insertBooking(t.db, tripId, { ...ready, firstName: 'Sam', lastName: 'Sharer', shareWith: 'rosa  ready' })
  ).id;
  ids.short = (
    await insertBooking(t.db, tripId, {
      ...ready,
      firstName: 'Sid',
      lastName: 'Short',
      // six weeks after the return: more than any month, fewer than Peru's six (30 days fell short
      // of a month whenever the return was in a month of 31 days)
      passportExpiryDate: addDays(today, 210 + 42),
      shareWith: 'Rosa Ready',
      status: 'provisional',
    })
  ).id;
  ids.owing = (
    await insertBooking(t.db, tripId, {
      ...ready,
      firstName: 'Olga',
      lastName: 'Owing',
      formComplete: false,
      nokTelephone: null,
      medicalConditions: true,
    })
  ).id;
  ids.gone = (
    await insertBooking(t.db, tripId, { ...ready, firstName: 'Cal', lastName: 'Cancelled', status: 'cancelled' })
  ).id;
  for (const id of [ids.ready, ids.sharer, ids.short])
    await t.db.insert(bookingCustomFieldAnswers).values({ bookingId: id, customFieldId: field!.id, answer: 'M' });
  // Olga owes £80 since 5 days ago
  const [inv] = await t.db
    .insert(invoices)
    .values({
      bookingId: ids.owing,
      invoiceRef: 'RDY-1',
      type: 'other',
      description: 'Kit',
      invoiceDate: addDays(today, -20),
      dueDate: addDays(today, -5),
    })
    .returning();
  await t.db.insert(invoiceItems).values({ invoiceId: inv!.id, description: 'Kit', amountPence: 8_000 });
});
afterAll(() => t.close());

type Board = {
  trip: { name: string; passport_months: number };
  summary: { bookings: number; ready: number; checks: Record<string, Record<string, number>> };
  rows: Array<{
    booking_id: number;
    traveller: string;
    ready: boolean;
    checks: Record<
      'passport' | 'forms' | 'money' | 'medical' | 'next_of_kin' | 'room',
      { state: string; reason: string }
    >;
  }>;
};

describe('the readiness board', () => {
  it('has a row per live booking with each check and why, and counts them', async () => {
    const res = await admin.get(`/api/trips/${tripId}/readiness`);
    expect(res.statusCode, res.body).toBe(200);
    const board = res.json() as Board;
    expect(board.trip).toMatchObject({ name: 'Ready Trek', passport_months: 6 });
    expect(board.rows.map((r) => r.traveller)).toEqual(['Olga Owing', 'Rosa Ready', 'Sam Sharer', 'Sid Short']);
    const row = (id: number) => board.rows.find((r) => r.booking_id === id)!;
    const states = (id: number) => Object.fromEntries(Object.entries(row(id).checks).map(([k, v]) => [k, v.state]));

    expect(row(ids.ready).ready).toBe(true);
    expect(row(ids.sharer).checks.room).toEqual({ state: 'green', reason: 'Twin, sharing with rosa  ready.' });
    // Sid's passport runs out six weeks after the return: Peru asks for 6 months; and Rosa does not name him back
    expect(states(ids.short)).toMatchObject({ passport: 'red', room: 'amber', forms: 'green' });
    expect(row(ids.short).checks.passport.reason).toContain('Peru asks for 6 months of validity after the return');
    expect(row(ids.short).checks.room.reason).toBe('Shares with Rosa Ready, who does not name this traveller back.');
    expect(states(ids.owing)).toEqual({
      passport: 'green',
      forms: 'amber',
      money: 'red',
      medical: 'amber',
      next_of_kin: 'amber',
      room: 'green',
      documents: 'green',
      fundraising: 'green',
      consent: 'green',
    });
    expect(row(ids.owing).checks.money.reason).toMatch(/^£80\.00 is overdue \(due since /);
    expect(row(ids.owing).checks.forms.reason).toBe(
      'The booking form is not complete, and a trip question is not answered (T-shirt size).',
    );

    expect(board.summary).toEqual({
      bookings: 4,
      ready: 2,
      checks: {
        passport: { green: 3, amber: 0, red: 1 },
        forms: { green: 3, amber: 1, red: 0 },
        money: { green: 3, amber: 0, red: 1 },
        medical: { green: 3, amber: 1, red: 0 },
        next_of_kin: { green: 3, amber: 1, red: 0 },
        room: { green: 3, amber: 1, red: 0 },
        documents: { green: 4, amber: 0, red: 0 },
        fundraising: { green: 4, amber: 0, red: 0 },
        consent: { green: 4, amber: 0, red: 0 },
      },
    });
  });

  it('follows the destination’s rule, and a payment', async () => {
    const [peru] = await t.db.select({ id: countries.id }).from(countries).where(eq(countries.code, 'PE'));
    await admin.put(`/api/countries/${peru!.id}/passport-rule`, { months: 1 });
    const board = (await admin.get(`/api/trips/${tripId}/readiness`)).json() as Board;
    expect(board.rows.find((r) => r.booking_id === ids.short)!.checks.passport.state).toBe('green');
    await admin.put(`/api/countries/${peru!.id}/passport-rule`, { months: 6 });

    const [inv] = await t.db.select().from(invoices).where(eq(invoices.invoiceRef, 'RDY-1'));
    expect(
      (
        await admin.post('/api/transactions', {
          booking_id: ids.owing,
          invoice_id: inv!.id,
          invoice_type: 'other',
          amount: 80,
          type: 'payment',
          processor: 'BACS',
          date: today,
        })
      ).statusCode,
    ).toBe(201);
    const after = (await admin.get(`/api/bookings/${ids.owing}/readiness`)).json();
    expect(after.checks.money).toEqual({ state: 'green', reason: 'Paid in full.' });
  });

  it('shows one booking’s checks, a cancelled one too; unknown trips and bookings are 404', async () => {
    const one = await admin.get(`/api/bookings/${ids.gone}/readiness`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ booking_id: ids.gone, status: 'cancelled', traveller: 'Cal Cancelled' });
    expect((await admin.get('/api/trips/999999/readiness')).statusCode).toBe(404);
    expect((await admin.get('/api/bookings/999999/readiness')).statusCode).toBe(404);
  });
});

describe('manifests', () => {
  const sheet = async (query: string) => {
    const res = await admin.get(`/api/trips/${tripId}/manifest${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    return {
      res,
      name: ws.name,
      rows: ws
        .getSheetValues()
        .slice(1)
        .map((r) => (r as unknown[]).slice(1)),
    };
  };

  it('the manifest: confirmed travellers, provisional ones when asked, never cancelled; recorded', async () => {
    const { res, name, rows } = await sheet('?kind=manifest&format=xlsx');
    expect(res.headers['content-disposition']).toBe('attachment; filename="manifest-ready-trek.xlsx"');
    expect(name).toBe('Manifest');
    expect(rows[0]).toEqual([
      'Traveller',
      'Booking',
      'Status',
      'Date of birth',
      'Gender',
      'Passport number',
      'Passport expiry',
      'Dietary',
      'Medical',
      'Next of kin',
      'Room',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['Olga Owing', 'Rosa Ready', 'Sam Sharer']);
    const olga = rows[1]!;
    expect(olga[8]).toBe('Conditions declared, no detail');
    expect(olga[9]).toBe('Ann Lee');
    expect(olga[6]).toBeInstanceOf(Date);
    expect((await sheet('?include=provisional')).rows.slice(1).map((r) => r[0])).toEqual([
      'Olga Owing',
      'Rosa Ready',
      'Sam Sharer',
      'Sid Short',
    ]);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'export.manifest'));
    expect(event).toMatchObject({ tripId, details: { kind: 'manifest', format: 'xlsx', rows: 3, provisional: false } });
    expect(event).toMatchObject({ actorType: 'user', actorUserId: expect.any(Number) });
  });

  it('the rooming list flags unmatched sharers; the emergency contacts', async () => {
    const rooming = await sheet('?kind=rooming&include=provisional');
    expect(rooming.name).toBe('Rooming list');
    const byTraveller = Object.fromEntries(rooming.rows.slice(1).map((r) => [r[2], r[4] ?? null]));
    expect(byTraveller).toEqual({
      'Olga Owing': null,
      'Rosa Ready': null,
      'Sam Sharer': null,
      'Sid Short': 'Unmatched: does not name this traveller back',
    });
    const contacts = await sheet('?kind=contacts');
    expect(contacts.rows[0]).toEqual([
      'Traveller',
      'Mobile',
      'Email',
      'Next of kin',
      'Relationship',
      'Next of kin telephone',
      'Next of kin email',
    ]);
    expect(contacts.rows[2]!.slice(0, 1).concat(contacts.rows[2]![5] as string)).toEqual([
      'Rosa Ready',
      '07700 900123',
    ]);
  });

  it('refuses an unknown kind or format, and an unknown trip', async () => {
    expect((await admin.get(`/api/trips/${tripId}/manifest?kind=crew`)).json().errors).toEqual({
      kind: ['The kind must be manifest, rooming or contacts.'],
    });
    expect((await admin.get(`/api/trips/${tripId}/manifest?format=csv`)).json().errors).toEqual({
      format: ['The format must be xlsx or pdf.'],
    });
    expect((await admin.get('/api/trips/999999/manifest')).statusCode).toBe(404);
  });
});
