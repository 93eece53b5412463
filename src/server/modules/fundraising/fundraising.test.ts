import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { FUNDRAISER_FIELDS } from '../../../contract/fundraising.ts';
import {
  auditEvents,
  bookings,
  charities,
  fundraisingEntries,
  invoices,
  transactions,
  tripFundraising,
  trips,
  users,
} from '../../../db/schema/index.ts';
import { fundraiserOf, fundraisingSql, keepFundraisingDefaults, shortfallOn } from './sql.ts';
import { fundraisingStanding } from './rules.ts';
import type { Milestone } from '../../../contract/fundraising-constants.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

// The staff side of fundraising: a trip's minimum and milestones (its own or the
// defaults), a traveller's target, page and entries (struck out, never edited away), the
// standing, and sponsorship kept apart from trip money.

let t: TestApp;
let admin: TestClient;
let tripId: number;
let fundraiser: number;
let selfFunded: number;
const today = ukToday();

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  // departs in 100 days: the 16-week (50%) milestone passed 12 days ago
  tripId = (
    await insertTrip(t.db, { name: 'Raise Trek', departureDate: addDays(today, 100), returnDate: addDays(today, 110) })
  ).id;
  fundraiser = (
    await insertBooking(t.db, tripId, {
      fundingType: 'fundraise',
      firstName: 'Fran',
      lastName: 'Raiser',
      status: 'confirmed',
    })
  ).id;
  selfFunded = (await insertBooking(t.db, tripId, { fundingType: 'self', status: 'confirmed' })).id;
});
afterAll(() => t.close());

describe('a trip’s minimum and milestones', () => {
  it('are the defaults until the trip sets its own; each change is in the history', async () => {
    const before = (await admin.get(`/api/trips/${tripId}/fundraising`)).json();
    expect(before.rules).toEqual([
      {
        funding_type: 'fundraise',
        minimum: 2500,
        milestones: [
          { percent: 50, weeks_before: 16 },
          { percent: 80, weeks_before: 12 },
          { percent: 100, weeks_before: 4 },
        ],
        is_default: true,
      },
      {
        funding_type: 'flexi',
        minimum: 1250,
        milestones: [
          { percent: 50, weeks_before: 16 },
          { percent: 80, weeks_before: 12 },
          { percent: 100, weeks_before: 4 },
        ],
        is_default: true,
      },
    ]);
    const res = await admin.put(`/api/trips/${tripId}/fundraising`, {
      rules: [
        {
          funding_type: 'fundraise',
          minimum: '2,000',
          milestones: [
            { percent: 100, weeks_before: 6 },
            { percent: 50, weeks_before: 14 },
          ],
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rules[0]).toEqual({
      funding_type: 'fundraise',
      minimum: 2000,
      milestones: [
        { percent: 50, weeks_before: 14 },
        { percent: 100, weeks_before: 6 },
      ],
      is_default: false,
    });
    expect(res.json().rules[1].is_default).toBe(true);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'trip.fundraising_changed'));
    expect(event?.summary).toBe(
      'Sam Tester1 set the fundraising rule of Raise Trek for fundraising bookings: £2,000.00 minimum, 50% by 14 weeks before departure, 100% by 6 weeks before departure',
    );
  });

  it('refuses milestones that do not climb, a bad amount, an unknown type; nothing changes', async () => {
    const put = (body: unknown) => admin.put(`/api/trips/${tripId}/fundraising`, body);
    expect(
      (
        await put({
          rules: [
            {
              funding_type: 'fundraise',
              minimum: 2000,
              milestones: [
                { percent: 80, weeks_before: 14 },
                { percent: 50, weeks_before: 6 },
              ],
            },
          ],
        })
      ).json().errors,
    ).toEqual({
      'rules.0.milestones': [
        'Each milestone nearer departure must ask for a higher percentage than the one before it.',
      ],
    });
    expect(
      (await put({ rules: [{ funding_type: 'fundraise', minimum: 'lots', milestones: [] }] })).json().errors,
    ).toEqual({ 'rules.0.minimum': ['The minimum sponsorship must be an amount in pounds, such as 25 or 25.50.'] });
    expect((await put({ rules: [{ funding_type: 'self', minimum: 1, milestones: [] }] })).json().errors).toEqual({
      'rules.0.funding_type': ['The funding type must be fundraise or flexi.'],
    });
    expect(
      (
        await put({
          rules: [{ funding_type: 'fundraise', minimum: 1, milestones: [{ percent: 150, weeks_before: 2 }] }],
        })
      ).json().errors,
    ).toEqual({ 'rules.0.milestones.0.percent': ['The percentage must be a whole number from 1 to 100.'] });
    expect((await admin.get(`/api/trips/${tripId}/fundraising`)).json().rules[0].minimum).toBe(2000);
    expect((await admin.get('/api/trips/999999/fundraising')).statusCode).toBe(404);
  });
});

describe('a traveller’s fundraising', () => {
  it('starts at the trip’s minimum with nothing raised, on track before the first milestone', async () => {
    const res = await admin.get(`/api/bookings/${fundraiser}/fundraising`);
    expect(res.statusCode, res.body).toBe(200);
    // 14 weeks before departure is day 2: still to come
    expect(res.json()).toMatchObject({
      fundraises: true,
      target: 2000,
      trip_minimum: 2000,
      raised: 0,
      state: 'on_track',
      shortfall: 2000,
      next: { percent: 50, due: addDays(today, 2), amount: 1000 },
      entries: [],
    });
    expect((await admin.get(`/api/bookings/${selfFunded}/fundraising`)).json()).toMatchObject({
      fundraises: false,
      state: 'not_fundraising',
    });
  });

  it('adds entries by staff; a struck-out one stays in view, no longer counted; sponsorship never touches trip money', async () => {
    const add = (body: unknown) => admin.post(`/api/bookings/${fundraiser}/fundraising/entries`, body);
    const first = await add({ amount: '600', date: addDays(today, -3), source: 'page_total', note: 'JustGiving page' });
    expect(first.statusCode, first.body).toBe(201);
    await add({ amount: 250.5, date: today, source: 'offline' });
    const body = (await add({ amount: 100, date: today, source: 'gift_aid' })).json();
    expect(body.raised).toBe(950.5);
    expect(
      body.entries.map((e: { amount: number; source: string; recorded_by: string }) => [
        e.amount,
        e.source,
        e.recorded_by,
      ]),
    ).toEqual([
      [600, 'page_total', 'Sam Tester1'],
      [250.5, 'offline', 'Sam Tester1'],
      [100, 'gift_aid', 'Sam Tester1'],
    ]);
    const gift = body.entries[2].id as number;
    expect((await admin.post(`/api/fundraising-entries/${gift}/strike`, { reason: '' })).json().errors).toEqual({
      reason: ['Say why the entry is struck out.'],
    });
    const struck = (
      await admin.post(`/api/fundraising-entries/${gift}/strike`, { reason: 'Gift Aid not yet claimed' })
    ).json();
    expect(struck.raised).toBe(850.5);
    expect(struck.entries[2]).toMatchObject({ struck_by: 'Sam Tester1', struck_reason: 'Gift Aid not yet claimed' });
    expect((await admin.post(`/api/fundraising-entries/${gift}/strike`, { reason: 'Again' })).json().message).toBe(
      'This entry is already struck out.',
    );
    expect((await admin.post('/api/fundraising-entries/999999/strike', { reason: 'x' })).statusCode).toBe(404);
    expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, fundraiser))).toEqual([]);
    expect(await t.db.select().from(transactions).where(eq(transactions.bookingId, fundraiser))).toEqual([]);
    const actions = (
      await t.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.bookingId, fundraiser))
    ).map((e) => e.action);
    expect(actions.filter((a) => a.startsWith('fundraising.'))).toEqual([
      'fundraising.entry_added',
      'fundraising.entry_added',
      'fundraising.entry_added',
      'fundraising.entry_struck',
    ]);
  });

  it('refuses bad entries, and entries for a booking that does not fundraise, changing nothing', async () => {
    const count = async () => (await t.db.select().from(fundraisingEntries)).length;
    const before = await count();
    const add = (id: number, body: unknown) => admin.post(`/api/bookings/${id}/fundraising/entries`, body);
    expect((await add(fundraiser, { amount: 0, date: today, source: 'offline' })).json().errors).toEqual({
      amount: ['The amount must be more than £0.00.'],
    });
    expect((await add(fundraiser, { amount: 5, date: '2026-02-30', source: 'offline' })).json().errors).toEqual({
      date: ['The date must be a real date.'],
    });
    expect((await add(fundraiser, { amount: 5, date: today, source: 'raffle' })).json().errors).toEqual({
      source: ['The source must be page total, offline, Gift Aid or charity confirmed.'],
    });
    const self = await add(selfFunded, { amount: 5, date: today, source: 'offline' });
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toBe(
      'This booking does not fundraise: its funding is Self-funded. Change its funding to Fundraise or Flexi first.',
    );
    expect((await add(999999, { amount: 5, date: today, source: 'offline' })).statusCode).toBe(404);
    expect(await count()).toBe(before);
  });

  it('a target changed with a reason moves the milestones; back to the trip’s minimum with null; the page is a web address', async () => {
    expect((await admin.put(`/api/bookings/${fundraiser}/fundraising`, { target: 3000 })).json().errors).toEqual({
      reason: ['Say why the target differs from the trip’s minimum.'],
    });
    expect(
      (await admin.put(`/api/bookings/${fundraiser}/fundraising`, { page_url: 'justgiving' })).json().errors,
    ).toEqual({ page_url: ['The fundraising page must be a web address starting with http:// or https://.'] });
    const res = await admin.put(`/api/bookings/${fundraiser}/fundraising`, {
      target: 3000,
      reason: 'Pledged more at sign-up',
      page_url: 'https://www.justgiving.com/page/fran-raiser',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      target: 3000,
      target_reason: 'Pledged more at sign-up',
      page_url: 'https://www.justgiving.com/page/fran-raiser',
      milestones: [
        { percent: 50, amount: 1500 },
        { percent: 100, amount: 3000 },
      ],
    });
    const back = (await admin.put(`/api/bookings/${fundraiser}/fundraising`, { target: null })).json();
    expect(back).toMatchObject({ target: 2000, target_reason: null });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'booking.fundraising_changed'))
      .limit(1);
    expect(event?.changes).toMatchObject({ fundraising_target: [null, 3000] });
    expect((await admin.put(`/api/bookings/${selfFunded}/fundraising`, { page_url: null })).statusCode).toBe(422);
  });

  it('is a column of the trip’s readiness board: the same standing', async () => {
    const board = (await admin.get(`/api/trips/${tripId}/readiness`)).json();
    const row = (id: number) => board.rows.find((r: { booking_id: number }) => r.booking_id === id).checks.fundraising;
    const own = (await admin.get(`/api/bookings/${fundraiser}/fundraising`)).json();
    expect(own.state).toBe('on_track');
    expect(row(fundraiser)).toEqual({
      state: 'amber',
      reason: expect.stringMatching(/^On track: £850\.50 raised of £2,000\.00; next, 50% by /),
    });
    expect(row(selfFunded)).toEqual({ state: 'green', reason: 'Does not fundraise.' });
  });
});

describe('a charity’s fundraisers', () => {
  it('lists its live fundraising bookings (struck-out entries aside) with only what a charity may see, the totals, filters, and its portal users', async () => {
    const [charity] = await t.db.insert(charities).values({ name: 'Mountain Aid' }).returning();
    const [other] = await t.db.insert(charities).values({ name: 'Other Cause' }).returning();
    const mk = (o: Record<string, unknown>) =>
      insertBooking(t.db, tripId, { fundingType: 'fundraise', status: 'confirmed', charityId: charity!.id, ...o });
    await mk({ firstName: 'Bea', lastName: 'Behind', passportNumber: 'SECRET123', medicalDetail: 'Private' });
    const met = (await mk({ firstName: 'Mo', lastName: 'Met', fundingType: 'flexi' })).id;
    await mk({ firstName: 'Cal', lastName: 'Cancelled', status: 'cancelled' });
    await mk({ firstName: 'Sal', lastName: 'Self', fundingType: 'self' });
    await insertBooking(t.db, tripId, {
      fundingType: 'fundraise',
      status: 'confirmed',
      charityId: other!.id,
      firstName: 'Otto',
      lastName: 'Other',
    });
    await t.db
      .insert(fundraisingEntries)
      .values({ bookingId: met, amountPence: 125_000, entryDate: today, source: 'page_total' });
    // the fundraise rule of this trip: 50% by 14 weeks, 100% by 6 (set above); departure in 100 days: on track
    await t.db.insert(users).values({
      firstName: 'Portal',
      lastName: 'Person',
      email: 'portal.person@example.test',
      userRoleId: 2,
      charityId: charity!.id,
    });

    const res = await admin.get(`/api/charities/${charity!.id}/fundraisers`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.fundraisers.map((f: { traveller: string; state: string }) => [f.traveller, f.state])).toEqual([
      ['Bea Behind', 'on_track'],
      ['Mo Met', 'met'],
    ]);
    expect(Object.keys(body.fundraisers[0]).sort()).toEqual([...FUNDRAISER_FIELDS].sort());
    expect(JSON.stringify(body)).not.toMatch(/SECRET123|Private|Otto/);
    expect(body.totals).toEqual({ fundraisers: 2, raised: 1250, pledged: 3250, shortfall: 0, behind: 0, met: 1 });
    expect(body.portal_users).toEqual([
      { id: expect.any(Number), name: 'Portal Person', email: 'portal.person@example.test' },
    ]);
    expect(
      (await admin.get(`/api/charities/${charity!.id}/fundraisers?state=met`))
        .json()
        .fundraisers.map((f: { booking_id: number }) => f.booking_id),
    ).toEqual([met]);
    expect((await admin.get(`/api/charities/${charity!.id}/fundraisers?state=late`)).json().errors).toEqual({
      state: ['The state must be on_track, behind, met or not_fundraising.'],
    });
    expect((await admin.get('/api/charities/999999/fundraisers')).statusCode).toBe(404);
  });

  it('come a page at a time, the totals of them all on every page: the shortfall of those behind by the rule', async () => {
    const [charity] = await t.db.insert(charities).values({ name: 'Many Miles' }).returning();
    // on the defaults (50% of £2,500 by 16 weeks before): departing in 100 days, the first milestone has passed
    const trip = await insertTrip(t.db, {
      name: 'Paged Trek',
      departureDate: addDays(today, 100),
      returnDate: addDays(today, 105),
    });
    const made = [];
    for (let i = 1; i <= 53; i++)
      made.push(
        await insertBooking(t.db, trip.id, {
          fundingType: 'fundraise',
          status: i === 53 ? 'cancelled' : 'confirmed',
          charityId: charity!.id,
          firstName: 'Runner',
          lastName: `N${String(i).padStart(2, '0')}`,
        }),
      );
    // two met, one part of the way (£1,000 raised: £250 short of the £1,250 milestone), the rest short by £1,250
    for (const [b, pence] of [
      [made[0]!, 250_000],
      [made[1]!, 300_000],
      [made[2]!, 100_000],
    ] as const)
      await t.db
        .insert(fundraisingEntries)
        .values({ bookingId: b.id, amountPence: pence, entryDate: today, source: 'page_total' });
    const url = `/api/charities/${charity!.id}/fundraisers`;
    const totals = { fundraisers: 52, raised: 6500, pledged: 130_000, behind: 50, met: 2, shortfall: 49 * 1250 + 250 };
    const one = (await admin.get(url)).json();
    expect(one).toMatchObject({ current_page: 1, last_page: 2, per_page: 50, from: 1, to: 50, totals });
    expect(one.fundraisers).toHaveLength(50);
    expect(one.fundraisers[0]).toMatchObject({ traveller: 'Runner N01', state: 'met' });
    expect(one.fundraisers[2]).toMatchObject({ traveller: 'Runner N03', state: 'behind', shortfall: 250 });
    const two = (await admin.get(`${url}?page=2`)).json();
    expect(two).toMatchObject({ current_page: 2, last_page: 2, from: 51, to: 52, totals });
    expect(two.fundraisers.map((f: { traveller: string }) => f.traveller)).toEqual(['Runner N51', 'Runner N52']);
    // a page past the last is empty; the totals stay
    expect((await admin.get(`${url}?page=3`)).json()).toMatchObject({ from: null, to: null, fundraisers: [], totals });
    // a state's totals are of that state
    expect((await admin.get(`${url}?state=met`)).json()).toMatchObject({
      last_page: 1,
      totals: { fundraisers: 2, raised: 5500, pledged: 5000, behind: 0, met: 2, shortfall: 0 },
    });
    expect((await admin.get(`${url}?page=0`)).json().errors).toEqual({ page: ['The page must be at least 1.'] });
  });

  it('total the shortfall of those behind against their latest milestone passed, by the trip’s own rule too', async () => {
    const [charity] = await t.db.insert(charities).values({ name: 'Short Cause' }).returning();
    // departing in 60 days: on the defaults, 50% (16 weeks) and 80% (12 weeks) of £2,500 have passed
    const trip = await insertTrip(t.db, {
      name: 'Short Trek',
      departureDate: addDays(today, 60),
      returnDate: addDays(today, 65),
    });
    const mk = async (raised: number, fundingType = 'fundraise') => {
      const b = await insertBooking(t.db, trip.id, { fundingType, status: 'confirmed', charityId: charity!.id });
      if (raised)
        await t.db
          .insert(fundraisingEntries)
          .values({ bookingId: b.id, amountPence: raised, entryDate: today, source: 'page_total' });
    };
    await mk(0); // short of 80%: £2,000
    await mk(150_000); // 50% reached, short of 80%: £500
    // flexi on the trip's own rule: 100% of £1,000 at 4 weeks (not passed), 25% at 20 weeks (passed)
    const rule = await admin.put(`/api/trips/${trip.id}/fundraising`, {
      rules: [
        {
          funding_type: 'flexi',
          minimum: 1000,
          milestones: [
            { percent: 25, weeks_before: 20 },
            { percent: 100, weeks_before: 4 },
          ],
        },
      ],
    });
    expect(rule.statusCode, rule.body).toBe(200);
    await mk(10_000, 'flexi'); // short of 25%: £150
    const body = (await admin.get(`/api/charities/${charity!.id}/fundraisers`)).json();
    expect(body.totals).toMatchObject({ fundraisers: 3, behind: 3, shortfall: 2000 + 500 + 150 });
    // the same as the rows' own shortfalls
    expect(body.fundraisers.map((f: { shortfall: number }) => f.shortfall).sort()).toEqual([150, 2000, 500].sort());
  });

  it('total a shortfall on the defaults by the same rule as rules.ts, on and about each milestone’s day, unsorted and tied milestones too', async () => {
    const sets: Milestone[][] = [
      [
        { percent: 50, weeks_before: 16 },
        { percent: 80, weeks_before: 12 },
        { percent: 100, weeks_before: 4 },
      ],
      // unsorted, two on one day, and an earlier milestone asking more than a later one
      [
        { percent: 60, weeks_before: 10 },
        { percent: 20, weeks_before: 20 },
        { percent: 30, weeks_before: 10 },
        { percent: 90, weeks_before: 14 },
      ],
      [],
    ];
    const target = 250_001;
    for (const milestones of sets) {
      const cases: Array<[string, number]> = [];
      for (const m of milestones)
        for (const days of [-1, 0, 1])
          for (const raised of [0, Math.ceil((target * m.percent) / 100) - 1, Math.ceil((target * m.percent) / 100)])
            cases.push([addDays(today, 7 * m.weeks_before + days), raised]);
      cases.push([addDays(today, 400), 0], [addDays(today, 1), 1]);
      const rows = await queryRows<{ short: string | number | null }>(
        t.db,
        sql`select ${shortfallOn(milestones, today)} as short from (values ${sql.join(
          cases.map(([departure, raised]) => sql`(${departure}::date, ${target}::int, ${raised}::int)`),
          sql`, `,
        )}) as bookings(trip_departure, fundraising_goal_pence, fundraising_raised_pence)`,
      );
      cases.forEach(([departure, raisedPence], i) => {
        const rule = fundraisingStanding(
          { fundraises: true, targetPence: target, raisedPence, milestones, departure },
          today,
        );
        const short = rows[i]!.short === null ? null : Number(rows[i]!.short);
        expect(short, JSON.stringify({ milestones, departure, raisedPence })).toBe(
          rule.state === 'behind' ? rule.shortfallPence : null,
        );
      });
    }
  });

  it('are found by their own index: the condition as the index reads it, a page walked from the index alone', async () => {
    const plan = await t.db.transaction(async (tx) => {
      // with the other ways made dear, what the index can serve is planned on it
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      return queryRows<Record<string, string>>(
        tx as unknown as Db,
        sql`explain (costs off) select id, fundraising_goal_pence, fundraising_raised_pence, fundraising_met from bookings
          where ${fundraiserOf(1)} and ${fundraisingSql(today).condition('behind')}
          order by trip_departure, lower(last_name), lower(first_name), id`,
      );
    });
    const text = plan.map((r) => Object.values(r)[0]).join('\n');
    expect(text).toContain('Index Only Scan using bookings_charity_fundraisers_idx');
    expect(text).not.toContain('Sort');
  });
});

describe('the booking list’s fundraising filter', () => {
  it('finds those on track, behind and met by the same rule as the booking page, and the list sorted by trip name too', async () => {
    // departs in 20 days: the default 100% by 4 weeks fell 8 days ago
    const soon = (
      await insertTrip(t.db, { name: 'Soon Trek', departureDate: addDays(today, 20), returnDate: addDays(today, 30) })
    ).id;
    const mk = async (o: Record<string, unknown>) =>
      (await insertBooking(t.db, soon, { fundingType: 'fundraise', status: 'confirmed', ...o })).id;
    const behind = await mk({ firstName: 'Bea' });
    const met = await mk({ firstName: 'Mo', fundraisingTargetPence: 50_000 });
    const flexiMet = await mk({ firstName: 'Flo', fundingType: 'flexi' });
    const self = await mk({ firstName: 'Sid', fundingType: 'self' });
    await t.db.insert(fundraisingEntries).values([
      { bookingId: met, amountPence: 50_000, entryDate: today, source: 'offline' },
      { bookingId: flexiMet, amountPence: 125_000, entryDate: today, source: 'page_total' },
      {
        bookingId: behind,
        amountPence: 240_000,
        entryDate: today,
        source: 'page_total',
        struckAt: new Date(),
        struckReason: 'Wrong traveller',
      },
    ]);
    const ids = async (state: string, sort = 'created_at') => {
      const res = await admin.get(
        `/api/bookings?trips=${soon}&timing=all&fundraising=${state}&sort_field=${sort}&sort_dir=asc`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as Array<{ id: number }>).map((b) => b.id);
    };
    expect(await ids('behind')).toEqual([behind]);
    expect(await ids('met')).toEqual([met, flexiMet]);
    expect(await ids('on_track')).toEqual([]);
    expect(await ids('')).toEqual([behind, met, flexiMet, self]);
    expect((await ids('met', 'trip_name')).sort()).toEqual([met, flexiMet].sort());
    for (const id of [behind, met]) {
      const own = (await admin.get(`/api/bookings/${id}/fundraising`)).json().state;
      expect(await ids(own)).toContain(id);
    }
    // the export takes the same filter
    const xlsx = await admin.get(`/bookings/export?trips=${soon}&timing=all&fundraising=behind`);
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.actualRowCount).toBe(2);
    // and its columns: the target, what is raised (struck-out entries aside) and the state
    const cols = encodeURIComponent(
      JSON.stringify(['id', 'fundraising_target', 'fundraising_raised', 'fundraising_state']),
    );
    const withCols = await admin.get(
      `/bookings/export?trips=${soon}&timing=all&sort_field=created_at&sort_dir=asc&columns=${cols}`,
    );
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(withCols.rawPayload as unknown as ArrayBuffer);
    const rows = wb2.worksheets[0]!.getSheetValues()
      .slice(1)
      .map((r) => (r as unknown[]).slice(1));
    expect(rows).toEqual([
      ['ID', 'Fundraising Target', 'Raised', 'Fundraising'],
      [behind, 2500, 0, 'Behind'],
      [met, 500, 500, 'Target met'],
      [flexiMet, 1250, 1250, 'Target met'],
      [self, undefined, undefined, 'Not fundraising'],
    ]);
    expect((await admin.get('/api/bookings?fundraising=late')).json().errors).toEqual({
      fundraising: ['The selected fundraising state is invalid.'],
    });
  });

  it('agrees with the booking page on the milestone’s day and the day after, with a trip’s own rule, a changed target and struck-out entries', async () => {
    const rule = (tripId: number) => ({
      tripId,
      fundingType: 'fundraise',
      minimumPence: 100_000,
      milestones: [{ percent: 50, weeks_before: 2 }],
    });
    // the milestone falls today (still in time) on one trip, yesterday on the other
    const onTheDay = (
      await insertTrip(t.db, { name: 'Edge Today', departureDate: addDays(today, 14), returnDate: addDays(today, 20) })
    ).id;
    const dayAfter = (
      await insertTrip(t.db, {
        name: 'Edge Yesterday',
        departureDate: addDays(today, 13),
        returnDate: addDays(today, 20),
      })
    ).id;
    await t.db.insert(tripFundraising).values([rule(onTheDay), rule(dayAfter)]);
    const mk = async (tripId: number, o: Record<string, unknown> = {}) =>
      (await insertBooking(t.db, tripId, { fundingType: 'fundraise', status: 'confirmed', ...o })).id;
    const calm = await mk(onTheDay);
    const late = await mk(dayAfter);
    const exact = await mk(dayAfter);
    const smaller = await mk(dayAfter, { fundraisingTargetPence: 20_001 });
    await t.db.insert(fundraisingEntries).values([
      { bookingId: exact, amountPence: 50_000, entryDate: today, source: 'offline' },
      { bookingId: smaller, amountPence: 10_001, entryDate: today, source: 'offline' },
    ]);
    const stateInList = async (id: number) => {
      for (const state of ['on_track', 'behind', 'met']) {
        const res = await admin.get(
          `/api/bookings?trips=${onTheDay},${dayAfter}&timing=all&fundraising=${state}&per_page=100`,
        );
        if ((res.json().data as Array<{ id: number }>).some((b) => b.id === id)) return state;
      }
      return 'none';
    };
    const expected = { [calm]: 'on_track', [late]: 'behind', [exact]: 'on_track', [smaller]: 'on_track' };
    for (const [id, state] of Object.entries(expected)) {
      expect((await admin.get(`/api/bookings/${id}/fundraising`)).json().state, `booking ${id}`).toBe(state);
      expect(await stateInList(Number(id)), `booking ${id}`).toBe(state);
    }
    // a struck-out entry no longer counts, in the list as on the page: 10,001p of a 20,001p target's 50% (10,001p) goes
    const [entry] = await t.db.select().from(fundraisingEntries).where(eq(fundraisingEntries.bookingId, smaller));
    await admin.post(`/api/fundraising-entries/${entry!.id}/strike`, { reason: 'Bounced' });
    const [row] = await t.db
      .select({ raised: bookings.fundraisingRaisedPence })
      .from(bookings)
      .where(eq(bookings.id, smaller));
    expect(row!.raised).toBe(0);
    expect(await stateInList(smaller)).toBe('behind');
    expect((await admin.get(`/api/bookings/${smaller}/fundraising`)).json().state).toBe('behind');
  });

  it('follows every change its standing depends on: the trip’s rule, its departure, the booking’s trip, funding and target, the defaults', async () => {
    // departs in 30 days: the defaults' 100% by 4 weeks falls in 2 days, 80% by 12 weeks has passed
    const tripA = (
      await insertTrip(t.db, { name: 'Kept Trek', departureDate: addDays(today, 30), returnDate: addDays(today, 40) })
    ).id;
    const tripB = (
      await insertTrip(t.db, {
        name: 'Later Trek',
        departureDate: addDays(today, 300),
        returnDate: addDays(today, 310),
      })
    ).id;
    const id = (await insertBooking(t.db, tripA, { fundingType: 'fundraise', status: 'confirmed' })).id;
    // 80% of £2,500 is £2,000: £2,100 raised is on track until the 4-week milestone passes
    await t.db
      .insert(fundraisingEntries)
      .values({ bookingId: id, amountPence: 210_000, entryDate: today, source: 'offline' });
    const both = `${tripA},${tripB}`;
    const listed = async () => {
      for (const state of ['on_track', 'behind', 'met']) {
        const res = await admin.get(`/api/bookings?trips=${both}&timing=all&fundraising=${state}&per_page=100`);
        if ((res.json().data as Array<{ id: number }>).some((b) => b.id === id)) return state;
      }
      return 'none';
    };
    const agree = async (expected: string, why: string) => {
      expect((await admin.get(`/api/bookings/${id}/fundraising`)).json().state, why).toBe(expected);
      expect(await listed(), why).toBe(expected);
    };
    await agree('on_track', 'to begin with');
    // the trip's departure moves nearer: the 4-week milestone has passed
    await t.db
      .update(trips)
      .set({ departureDate: addDays(today, 20) })
      .where(eq(trips.id, tripA));
    await agree('behind', 'departure moved nearer');
    // the trip sets its own rule, through the API: a £2,000 minimum is met
    const rule = await admin.put(`/api/trips/${tripA}/fundraising`, {
      rules: [{ funding_type: 'fundraise', minimum: '2,000', milestones: [{ percent: 100, weeks_before: 2 }] }],
    });
    expect(rule.statusCode, rule.body).toBe(200);
    await agree('met', 'the trip’s own minimum');
    // the booking's own target, higher: behind on the trip's 2-week milestone? not yet passed (20 days out)
    await t.db.update(bookings).set({ fundraisingTargetPence: 300_000 }).where(eq(bookings.id, id));
    await agree('on_track', 'a higher target of its own');
    // moved to a trip far off, on the defaults: £2,100 of £3,000 before any milestone
    await t.db.update(bookings).set({ tripId: tripB }).where(eq(bookings.id, id));
    await agree('on_track', 'moved to another trip');
    // funding changed to self-funded: in no fundraising state
    await t.db.update(bookings).set({ fundingType: 'self' }).where(eq(bookings.id, id));
    expect((await admin.get(`/api/bookings/${id}/fundraising`)).json().state).toBe('not_fundraising');
    expect(await listed()).toBe('none');
    await t.db.update(bookings).set({ fundingType: 'flexi', fundraisingTargetPence: null }).where(eq(bookings.id, id));
    // flexi's default minimum (£1,250) is met
    await agree('met', 'flexi on the defaults');
    // the office's defaults change (a server started with another FUNDRAISING_MINIMUM_FLEXI)
    const defaults = t.config.fundraisingDefaults;
    try {
      expect(
        await keepFundraisingDefaults(t.db, {
          ...defaults,
          minimumPence: { ...defaults.minimumPence, flexi: 500_000 },
        }),
      ).toBe(true);
      expect(await listed()).toBe('on_track');
    } finally {
      expect(await keepFundraisingDefaults(t.db, defaults)).toBe(true);
    }
    // the same defaults again change nothing
    expect(await keepFundraisingDefaults(t.db, defaults)).toBe(false);
    await agree('met', 'the defaults back');
  });
});
