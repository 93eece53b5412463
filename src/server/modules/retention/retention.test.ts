import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { ERASED_FIELDS } from '../../../contract/retention.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { queryRows } from '../../../db/client.ts';
import { auditEvents, bookings } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { writtenDays } from '../../common/redact-text.ts';
import { RetentionService } from './service.ts';

// Erasure after return, RETENTION_DAYS_AFTER_RETURN = 180 (the test config), with the
// run's clock set to a day after the trips' returns: fields gone, the image's bytes gone, the
// booking and its history kept, held bookings untouched, and a second run changing nothing.

let t: TestApp;
let admin: TestClient;
const today = ukToday();
const ids = {} as Record<'old' | 'held' | 'recent' | 'cancelled' | 'bare', number>;
const IMAGE = 'erasure-test-passport.jpg';
const sensitive = {
  passportNumber: '123456789',
  passportIssueDate: '2020-01-01',
  passportExpiryDate: '2030-01-01',
  passportImageFile: IMAGE,
  nationality: 'Kenyan',
  medicalConditions: true,
  medicalDetail: 'Asthma',
  medication: 'Inhaler',
  dietary: 'Vegan',
  insurancePolicyNumber: 'POL-778899',
  nokName: 'Ann Lee',
  nokRelationship: 'Mother',
  nokEmail: 'ann.lee@example.test',
  nokTelephone: '07700 900123',
  nokAddress: '1 Test Road',
} as const;

/** the nightly run, as on a given day */
const runOn = (day: string) =>
  new RetentionService(t.db, t.files, 180, { now: () => Date.parse(`${day}T03:00:00Z`) }).run();

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  // back 200 days ago: due; back 100 days ago: not yet
  const old = await insertTrip(t.db, {
    name: 'Long Ago Trek',
    departureDate: addDays(today, -210),
    returnDate: addDays(today, -200),
  });
  const recent = await insertTrip(t.db, {
    name: 'Lately Trek',
    departureDate: addDays(today, -110),
    returnDate: addDays(today, -100),
  });
  ids.old = (
    await insertBooking(t.db, old.id, {
      ...sensitive,
      firstName: 'Olive',
      lastName: 'Old',
      status: 'confirmed',
      notes: 'Kept: not special-category',
    })
  ).id;
  ids.held = (
    await insertBooking(t.db, old.id, {
      ...sensitive,
      passportImageFile: null,
      firstName: 'Hal',
      lastName: 'Held',
      status: 'confirmed',
    })
  ).id;
  ids.cancelled = (
    await insertBooking(t.db, old.id, {
      ...sensitive,
      passportImageFile: null,
      firstName: 'Cy',
      lastName: 'Cancelled',
      status: 'cancelled',
    })
  ).id;
  ids.bare = (await insertBooking(t.db, old.id, { firstName: 'Bo', lastName: 'Bare', status: 'confirmed' })).id;
  ids.recent = (
    await insertBooking(t.db, recent.id, {
      ...sensitive,
      passportImageFile: null,
      firstName: 'Rae',
      lastName: 'Recent',
      status: 'confirmed',
    })
  ).id;
  await t.files.put('passports', IMAGE, Buffer.from('passport image bytes'));
});
afterAll(() => t.close());

describe('erasure after return', () => {
  it('a hold needs a reason, and is an event in the history', async () => {
    expect(
      (await admin.put(`/api/bookings/${ids.held}/keep-until`, { keep_until: addDays(today, 30) })).json().errors,
    ).toEqual({ reason: ['Say why the details are kept (a claim, an incident).'] });
    expect(
      (await admin.put(`/api/bookings/${ids.held}/keep-until`, { keep_until: 'soon', reason: 'x' })).json().errors,
    ).toEqual({ keep_until: ['The keep until date must be a real date.'] });
    const res = await admin.put(`/api/bookings/${ids.held}/keep-until`, {
      keep_until: addDays(today, 30),
      reason: 'Insurance claim open',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await admin.get(`/api/bookings/${ids.held}`)).json()).toMatchObject({
      keep_until: addDays(today, 30),
      keep_reason: 'Insurance claim open',
      personal_data_erased_at: null,
    });
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'booking.erasure_held'));
    expect(event?.summary).toContain('Insurance claim open');
    expect((await admin.put('/api/bookings/999999/keep-until', { keep_until: null })).statusCode).toBe(404);
  });

  it('the dry run lists what the next run will erase, with the fields each holds and never their values', async () => {
    const res = await admin.get('/api/retention/preview');
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json();
    expect(preview).toMatchObject({ retention_days: 180, returned_before: addDays(today, -180), total: 2, held: 1 });
    expect(preview.bookings.map((b: { traveller: string }) => b.traveller).sort()).toEqual([
      'Cy Cancelled',
      'Olive Old',
    ]);
    expect(preview.bookings.find((b: { traveller: string }) => b.traveller === 'Olive Old').fields).toEqual([
      ...ERASED_FIELDS,
    ]);
    expect(res.body).not.toContain('123456789');
    expect(res.body).not.toContain('Asthma');
  });

  it('erases the fields and the image, keeps the booking and its history, leaves held and recent ones; a second run does nothing', async () => {
    const file = path.join(t.config.dataDir, 'files', 'passports', IMAGE);
    expect(readFileSync(file, 'utf8')).toBe('passport image bytes');
    expect(await runOn(today)).toEqual({ erased: 2 });

    const [old] = await t.db.select().from(bookings).where(eq(bookings.id, ids.old));
    expect(old).toMatchObject({
      passportNumber: null,
      passportIssueDate: null,
      passportExpiryDate: null,
      passportImageFile: null,
      nationality: null,
      medicalConditions: false,
      medicalDetail: null,
      medication: null,
      dietary: null,
      insurancePolicyNumber: null,
      nokName: null,
      nokRelationship: null,
      nokEmail: null,
      nokTelephone: null,
      nokAddress: null,
      firstName: 'Olive',
      status: 'confirmed',
      notes: 'Kept: not special-category',
    });
    expect(old!.personalDataErasedAt).toBeInstanceOf(Date);
    expect(existsSync(file)).toBe(false);
    const detail = (await admin.get(`/api/bookings/${ids.old}`)).json();
    expect(detail.personal_data_erased_at).not.toBeNull();

    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'booking.personal_data_erased'));
    expect(events.map((e) => Number(e.bookingId)).sort()).toEqual([ids.old, ids.cancelled].sort());
    expect(events[0]!.details).toMatchObject({
      fields: expect.arrayContaining(['passport_number', 'nok_address']),
      retention_days: 180,
    });
    expect(JSON.stringify(events)).not.toContain('123456789');
    expect(JSON.stringify(events)).not.toContain('Ann Lee');

    const [held] = await t.db.select().from(bookings).where(eq(bookings.id, ids.held));
    expect(held).toMatchObject({ passportNumber: '123456789', nokName: 'Ann Lee', personalDataErasedAt: null });
    const [recent] = await t.db.select().from(bookings).where(eq(bookings.id, ids.recent));
    expect(recent).toMatchObject({ passportNumber: '123456789', personalDataErasedAt: null });
    const [bare] = await t.db.select().from(bookings).where(eq(bookings.id, ids.bare));
    expect(bare!.personalDataErasedAt).toBeNull();

    // again: nothing left to erase, no new events
    expect(await runOn(today)).toEqual({ erased: 0 });
    expect(
      await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'booking.personal_data_erased')),
    ).toHaveLength(2);
    expect((await admin.get('/api/retention/preview')).json()).toMatchObject({ total: 0, held: 1, bookings: [] });
  });

  it('a hold that has run out, or is let go, is erased on the next run; the recent trip in its time', async () => {
    expect(await runOn(addDays(today, 31))).toEqual({ erased: 1 });
    const [held] = await t.db.select().from(bookings).where(eq(bookings.id, ids.held));
    expect(held).toMatchObject({ passportNumber: null, keepUntil: addDays(today, 30) });
    expect(await runOn(addDays(today, 79))).toEqual({ erased: 0 });
    expect(await runOn(addDays(today, 81))).toEqual({ erased: 1 });
  });
});

describe('nothing erased survives in a copy', () => {
  it('after erasure no erased value is anywhere in the database: not the emails that quoted it, nor the chasers, nor the history', async () => {
    const trip = await insertTrip(t.db, {
      name: 'Copy Trek',
      departureDate: addDays(today, -215),
      returnDate: addDays(today, -205),
    });
    // a passport that ran out before the trip came back: the chaser quotes its expiry day
    const expiry = addDays(today, -400);
    const values = {
      passportNumber: 'ZX99887766',
      passportIssueDate: addDays(today, -3000),
      passportExpiryDate: expiry,
      medicalConditions: true,
      medicalDetail: 'Pollen allergy (Copytest)',
      medication: 'Cetirizine Copytest',
      dietary: 'Copytest gluten free',
      insurancePolicyNumber: 'POL-COPY-4242',
      nokName: 'Nora Kinsman',
      nokRelationship: 'Copytest aunt',
      nokEmail: 'nora.kinsman@example.test',
      nokTelephone: '07700 955111',
      nokAddress: '7 Erasure Lane',
    };
    const id = (
      await insertBooking(t.db, trip.id, { ...values, firstName: 'Cora', lastName: 'Copy', status: 'confirmed' })
    ).id;
    const chased = await admin.post(`/api/trips/${trip.id}/chasers`, { booking_ids: [id], checks: ['passport'] });
    expect(chased.statusCode, chased.body).toBe(200);
    const [email] = (await admin.get(`/api/bookings/${id}/emails`)).json() as Array<{ text: string }>;
    const written = writtenDays(expiry);
    expect(
      written.some((d) => email!.text.includes(d)),
      email!.text,
    ).toBe(true);
    // the staff member who looked at the details is in the history too (fields, never values)
    expect((await admin.get(`/api/bookings/${id}`)).statusCode).toBe(200);

    await runOn(today);
    const [row] = await t.db
      .select({ erasedAt: bookings.personalDataErasedAt })
      .from(bookings)
      .where(eq(bookings.id, id));
    expect(row!.erasedAt).toBeInstanceOf(Date);

    const looked = [
      ...Object.values(values).filter((v): v is string => typeof v === 'string' && !/^\d{4}-/.test(v)),
      ...written,
      ...writtenDays(values.passportIssueDate),
    ];
    const tables = await queryRows<{ schema: string; name: string }>(
      t.db,
      sql`select table_schema as schema, table_name as name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    );
    expect(tables.length).toBeGreaterThan(20);
    for (const table of tables) {
      for (const value of looked) {
        const [found] = await queryRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from ${sql.identifier(table.schema)}.${sql.identifier(table.name)} r where r::text ilike ${`%${value}%`}`,
        );
        expect(found!.n, `${value} in ${table.schema}.${table.name}`).toBe(0);
      }
    }
    // the email itself is still there, with the value replaced
    const [after] = (await admin.get(`/api/bookings/${id}/emails`)).json() as Array<{ text: string }>;
    expect(after!.text).toContain('(erased)');
  });
});
