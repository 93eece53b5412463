import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, countries } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

// Passport rules by destination: each country's months of validity after the return,
// and the one passport rule of the booking list, its filter and the booking page following them.

let t: TestApp;
let admin: TestClient;
let iceland: number;
let peru: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  iceland = (await t.db.select({ id: countries.id }).from(countries).where(eq(countries.code, 'IS')))[0]!.id;
  peru = (await t.db.select({ id: countries.id }).from(countries).where(eq(countries.code, 'PE')))[0]!.id;
});
afterAll(() => t.close());

describe('passport rules', () => {
  it('start at 6 months, 3 for the Schengen area and Iceland, with notes', async () => {
    const rules = (await admin.get('/api/countries/passport-rules')).json() as Array<{
      code: string;
      months: number;
      note: string | null;
    }>;
    expect(rules.length).toBeGreaterThan(200);
    const byCode = Object.fromEntries(rules.map((r) => [r.code, r]));
    expect(byCode.PE).toMatchObject({ months: 6, note: null });
    expect(byCode.IS).toMatchObject({ months: 3, note: expect.stringContaining('Schengen') });
    expect(byCode.FR!.months).toBe(3);
    expect(byCode.GB!.months).toBe(6);
    expect(byCode.ZA!.note).toBe('At least 2 blank pages.');
    expect((await admin.get(`/api/countries/${peru}/passport-rule`)).json()).toEqual({
      country_id: peru,
      code: 'PE',
      name: expect.any(String),
      months: 6,
      note: null,
    });
  });

  it('are changed by an Administrator, as an event in the history; bad input changes nothing', async () => {
    for (const [body, errors] of [
      [{ months: 25 }, { months: ['The months must be a whole number from 0 to 24.'] }],
      [{ months: -1 }, { months: ['The months must be a whole number from 0 to 24.'] }],
      [{ months: 2.5 }, { months: ['The months must be a whole number from 0 to 24.'] }],
      [{ months: '6' }, { months: ['The months must be a whole number from 0 to 24.'] }],
      [{ months: 6, note: 'x'.repeat(301) }, { note: ['The note may be at most 300 characters.'] }],
    ] as const) {
      const res = await admin.put(`/api/countries/${peru}/passport-rule`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().errors).toEqual(errors);
    }
    expect((await admin.put('/api/countries/9999/passport-rule', { months: 6 })).statusCode).toBe(404);
    expect((await admin.put('/api/countries/99999/passport-rule', { months: 6 })).statusCode).toBe(404);
    expect((await admin.get(`/api/countries/${peru}/passport-rule`)).json().months).toBe(6);

    const res = await admin.put(`/api/countries/${peru}/passport-rule`, { months: 9, note: '  Two blank pages.  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ months: 9, note: 'Two blank pages.' });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'country.passport_rule_changed'));
    expect(event).toMatchObject({
      subjectType: 'country',
      subjectId: String(peru),
      changes: { passport_months: [6, 9], passport_note: [null, 'Two blank pages.'] },
    });
    expect(event!.summary).toContain('the passport rule for Peru');
    // the same again: nothing to record
    await admin.put(`/api/countries/${peru}/passport-rule`, { months: 9, note: 'Two blank pages.' });
    expect(
      await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'country.passport_rule_changed')),
    ).toHaveLength(1);
    await admin.put(`/api/countries/${peru}/passport-rule`, { months: 6, note: null });
  });

  it("decide the booking list's passport state, its filter and the booking page, at their edges", async () => {
    // back on 31 August 2027: 6 months after is 29 February 2028 (a leap year), 3 months after 30 November
    const trip = await insertTrip(t.db, {
      name: 'Andes Edge Trek',
      countryId: peru,
      departureDate: '2027-08-20',
      returnDate: '2027-08-31',
    });
    const book = (lastName: string, passportExpiryDate: string | null) =>
      insertBooking(t.db, trip.id, { firstName: 'Pia', lastName, passportExpiryDate, status: 'confirmed' });
    const ids = {
      missing: (await book('Missing', null)).id,
      beforeReturn: (await book('BeforeReturn', '2027-08-30')).id,
      onReturn: (await book('OnReturn', '2027-08-31')).id,
      dayShort: (await book('DayShort', '2028-02-28')).id,
      yearAfter: (await book('YearAfter', '2029-02-28')).id,
      exactly: (await book('Exactly', '2028-02-29')).id,
    };
    const states = async () => {
      const list = (await admin.get(`/api/bookings?trip_id=${trip.id}&timing=all`)).json() as {
        data: Array<{ id: number; passport_valid: string }>;
      };
      return Object.fromEntries(
        Object.entries(ids).map(([k, id]) => [k, list.data.find((b) => b.id === id)!.passport_valid]),
      );
    };
    expect(await states()).toEqual({
      missing: 'missing',
      beforeReturn: 'expired',
      onReturn: 'expires',
      dayShort: 'expires',
      yearAfter: 'ok',
      exactly: 'ok',
    });
    const filtered = async (state: string) =>
      (
        (await admin.get(`/api/bookings?trip_id=${trip.id}&timing=all&passport=${state}`)).json().data as Array<{
          id: number;
        }>
      )
        .map((b) => b.id)
        .sort();
    expect(await filtered('expires')).toEqual([ids.onReturn, ids.dayShort].sort());
    expect(await filtered('ok')).toEqual([ids.yearAfter, ids.exactly].sort());

    // Peru at 3 months: valid from 30 November 2027, so the day short of February is fine
    await admin.put(`/api/countries/${peru}/passport-rule`, { months: 3 });
    expect(await states()).toMatchObject({ onReturn: 'expires', dayShort: 'ok', exactly: 'ok' });
    expect((await admin.get(`/api/bookings/${ids.dayShort}`)).json().passport_valid).toBe('ok');
    expect(await filtered('ok')).toEqual([ids.dayShort, ids.yearAfter, ids.exactly].sort());
    // none at all: any passport valid on the return day will do
    await admin.put(`/api/countries/${peru}/passport-rule`, { months: 0 });
    expect(await states()).toMatchObject({ beforeReturn: 'expired', onReturn: 'ok' });
    await admin.put(`/api/countries/${peru}/passport-rule`, { months: 6 });
  });

  it('a rule of Iceland leaves another trip alone', async () => {
    const trip = await insertTrip(t.db, {
      name: 'Iceland Edge',
      countryId: iceland,
      departureDate: '2027-08-20',
      returnDate: '2027-08-31',
    });
    const b = await insertBooking(t.db, trip.id, {
      firstName: 'Ida',
      lastName: 'Iceland',
      passportExpiryDate: '2027-12-01',
      status: 'confirmed',
    });
    expect((await admin.get(`/api/bookings/${b.id}`)).json().passport_valid).toBe('ok');
  });
});
