import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import type { Dashboard } from '../../../contract/dashboard.ts';
import { queryRows } from '../../../db/client.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { seedDemo } from '../../../db/seed/demo.ts';
import { DashboardService } from './service.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

// The dashboard over the demo office: each number is checked against a plain SQL count
// or sum written another way (so a wrong join or a missed filter fails), the season bounds all
// of it, refunds and deleted payments are taken off, and bad seasons are refused.

let t: TestApp;
let admin: TestClient;
const today = ukToday();
// the next 12 months: to the day before the same date a year on (365 or 366 days, whatever the year)
const aYearOn = (day: string) => `${Number(day.slice(0, 4)) + 1}${day.slice(4)}`.replace(/-02-29$/, '-02-28');
const season = { from: today, to: addDays(aYearOn(today), -1) };

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.db, { dataDir: t.config.dataDir, today: new Date(`${today}T12:00:00Z`) });
  admin = await t.signedIn(1);
  // the whole demo office, beside another test file on a two-core machine: longer than a minute at worst
}, 240_000);
afterAll(() => t.close());

const get = async (query = '') => {
  const res = await admin.get(`/api/dashboard${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Dashboard;
};
const one = async (text: ReturnType<typeof sql>) =>
  Number(Object.values((await queryRows<Record<string, unknown>>(t.db, text))[0]!)[0] ?? 0);
const seasonTrips = (from: string, to: string) =>
  sql`(select id from trips where deleted_at is null and departure_date >= ${from}::date and departure_date <= ${to}::date)`;
const pounds = (pence: number) => Math.round(pence) / 100;

describe('GET /api/dashboard', () => {
  it('defaults to the next 12 months and gives 52 weeks, Mondays, ending this week', async () => {
    const d = await get();
    expect(d.season).toEqual(season);
    expect(d.bookings_per_week).toHaveLength(52);
    expect(d.money_per_week).toHaveLength(52);
    for (const w of d.bookings_per_week) expect(new Date(`${w.week}T00:00:00Z`).getUTCDay()).toBe(1);
    const last = d.bookings_per_week.at(-1)!.week;
    expect(last <= today && addDays(last, 7) > today).toBe(true);
  });

  it('counts bookings by status and funding type as a plain count of the season’s trips does', async () => {
    const d = await get();
    const trips = seasonTrips(season.from, season.to);
    for (const row of d.bookings_by_status) {
      for (const funding of ['free', 'flexi', 'self', 'fundraise'] as const) {
        expect(row[funding], `${row.status} ${funding}`).toBe(
          await one(
            sql`select count(*) from bookings where trip_id in ${trips} and status = ${row.status} and funding_type = ${funding}`,
          ),
        );
      }
    }
    const total = d.bookings_by_status.reduce((s, r) => s + r.free + r.flexi + r.self + r.fundraise, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBe(await one(sql`select count(*) from bookings where trip_id in ${trips}`));
  });

  it('counts the bookings made each week by trip type, and the year before, as plain counts do', async () => {
    const d = await get();
    const first = d.bookings_per_week[0]!.week;
    const made = d.bookings_per_week.reduce((s, w) => s + w.charity + w.open + w.school, 0);
    expect(made).toBe(
      await one(
        sql`select count(*) from bookings where trip_id in ${seasonTrips(season.from, season.to)} and (created_at at time zone 'Europe/London')::date >= ${first}::date`,
      ),
    );
    const charity = d.bookings_per_week.reduce((s, w) => s + w.charity, 0);
    expect(charity).toBe(
      await one(
        sql`select count(*) from bookings where trip_id in (select id from trips where type = 'charity' and id in ${seasonTrips(season.from, season.to)}) and (created_at at time zone 'Europe/London')::date >= ${first}::date`,
      ),
    );
    const lastYear = (day: string) => `${Number(day.slice(0, 4)) - 1}${day.slice(4)}`;
    const before = d.bookings_per_week.reduce((s, w) => s + w.previous_year, 0);
    expect(before).toBe(
      await one(sql`select count(*) from bookings where trip_id in ${seasonTrips(lastYear(season.from), lastYear(season.to))}
        and (created_at at time zone 'Europe/London')::date >= ${addDays(first, -364)}::date and (created_at at time zone 'Europe/London')::date < ${first}::date`),
    );
  });

  it('gives the same numbers whatever months the season starts and ends in (whole months are read from the month sums)', async () => {
    const first = (day: string) => `${day.slice(0, 7)}-01`;
    const next = (day: string) => first(addDays(first(day), 31));
    const shapes = [
      // from mid-month to mid-month, from the 1st to a month's last day, from the 1st to mid-month,
      // mid-month to a month's last day, inside one month, one whole month, two months a year back
      { from: addDays(today, 9), to: addDays(today, 200) },
      { from: next(today), to: addDays(next(addDays(next(today), 150)), -1) },
      { from: next(today), to: addDays(next(today), 100) },
      { from: addDays(today, 3), to: addDays(next(addDays(today, 120)), -1) },
      { from: addDays(next(today), 3), to: addDays(next(today), 20) },
      { from: next(addDays(today, 60)), to: addDays(next(next(addDays(today, 60))), -1) },
      { from: first(addDays(today, -400)), to: addDays(next(next(addDays(today, -400))), -1) },
    ];
    // a trip with a booking on each day where a season's whole months start or end
    const edges = new Set<string>();
    for (const { from, to } of shapes)
      for (const day of [from, to, first(from), addDays(next(from), -1), next(from), first(to), addDays(first(to), -1)])
        if (day >= from && day <= to) edges.add(day);
    for (const day of edges) {
      const edge = await insertTrip(t.db, { name: `Edge ${day}`, departureDate: day, returnDate: addDays(day, 5) });
      await insertBooking(t.db, edge.id, { status: 'confirmed' });
    }
    let seen = 0;
    for (const shape of shapes) {
      const d = await get(`?from=${shape.from}&to=${shape.to}`);
      const trips = seasonTrips(shape.from, shape.to);
      const label = `${shape.from} to ${shape.to}`;
      for (const status of ['confirmed', 'provisional', 'cancelled'] as const) {
        const row = d.bookings_by_status.find((r) => r.status === status)!;
        expect(row.free + row.flexi + row.self + row.fundraise, `${label}: ${status}`).toBe(
          await one(sql`select count(*) from bookings where trip_id in ${trips} and status = ${status}`),
        );
      }
      const weekOne = d.bookings_per_week[0]!.week;
      expect(
        d.bookings_per_week.reduce((s, w) => s + w.charity + w.open + w.school, 0),
        `${label}: made`,
      ).toBe(
        await one(
          sql`select count(*) from bookings where trip_id in ${trips} and (created_at at time zone 'Europe/London')::date >= ${weekOne}::date`,
        ),
      );
      const invoiced = await one(sql`select coalesce(sum(s.p), 0) from (
          select coalesce((select sum(amount_pence) from invoice_items where invoice_id = i.id), 0)
            + coalesce((select sum(price_pence) from invoice_addons where invoice_id = i.id), 0) - i.discount_pence as p
          from invoices i where i.invoice_date >= ${weekOne}::date and i.booking_id in (select id from bookings where trip_id in ${trips})) s`);
      expect(pounds(d.money_per_week.reduce((s, w) => s + w.invoiced * 100, 0)), `${label}: invoiced`).toBe(
        pounds(invoiced),
      );
      const owed = await one(sql`select coalesce(sum(outstanding_pence), 0) from money_owed where trip_id in ${trips}`);
      expect(
        pounds(d.outstanding_by_month.reduce((s, m) => s + (m.overdue + m.not_yet_due) * 100, 0)),
        `${label}: outstanding`,
      ).toBe(pounds(owed));
      seen += await one(sql`select count(*) from bookings where trip_id in ${trips}`);
    }
    expect(seen).toBeGreaterThan(0);

    // a trip moved to another month, made another type, deleted and brought back: each season follows it
    const trip = await insertTrip(t.db, {
      name: 'Moving Month Trek',
      type: 'open',
      departureDate: addDays(next(today), 40),
      returnDate: addDays(next(today), 50),
    });
    await insertBooking(t.db, trip.id, { status: 'confirmed' });
    await insertBooking(t.db, trip.id, { status: 'provisional' });
    const whole = { from: next(today), to: addDays(next(addDays(next(today), 150)), -1) };
    const count = async () => {
      const d = await get(`?from=${whole.from}&to=${whole.to}`);
      return {
        bookings: d.bookings_by_status.reduce((s, r) => s + r.free + r.flexi + r.self + r.fundraise, 0),
        open: d.bookings_per_week.reduce((s, w) => s + w.open, 0),
        school: d.bookings_per_week.reduce((s, w) => s + w.school, 0),
      };
    };
    const withIt = await count();
    await t.db.execute(
      sql`update trips set departure_date = ${addDays(whole.to, 40)}::date, return_date = ${addDays(whole.to, 50)}::date where id = ${trip.id}`,
    );
    const moved = await count();
    expect(moved.bookings).toBe(withIt.bookings - 2);
    expect(moved.open).toBe(withIt.open - 2);
    await t.db.execute(
      sql`update trips set departure_date = ${addDays(next(today), 45)}::date, return_date = ${addDays(next(today), 55)}::date, type = 'school' where id = ${trip.id}`,
    );
    const back = await count();
    expect(back).toEqual({ bookings: withIt.bookings, open: withIt.open - 2, school: withIt.school + 2 });
    await t.db.execute(sql`update trips set deleted_at = now() where id = ${trip.id}`);
    expect((await count()).bookings).toBe(withIt.bookings - 2);
    await t.db.execute(sql`update trips set deleted_at = null where id = ${trip.id}`);
    expect(await count()).toEqual(back);
  });

  it('sums money received (payments less refunds, deleted ones aside) and invoiced per week as plain sums do', async () => {
    const d = await get();
    const first = d.money_per_week[0]!.week;
    const trips = seasonTrips(season.from, season.to);
    const received =
      await one(sql`select coalesce(sum(case when type = 'payment' then amount_pence else -amount_pence end), 0) from transactions
      where deleted_at is null and date >= ${first}::date and booking_id in (select id from bookings where trip_id in ${trips})`);
    expect(pounds(d.money_per_week.reduce((s, w) => s + w.received * 100, 0))).toBe(pounds(received));
    const items =
      await one(sql`select coalesce(sum(ii.amount_pence), 0) from invoice_items ii join invoices i on i.id = ii.invoice_id
      where i.invoice_date >= ${first}::date and i.booking_id in (select id from bookings where trip_id in ${trips})`);
    const addons =
      await one(sql`select coalesce(sum(ia.price_pence), 0) from invoice_addons ia join invoices i on i.id = ia.invoice_id
      where i.invoice_date >= ${first}::date and i.booking_id in (select id from bookings where trip_id in ${trips})`);
    const discounts = await one(
      sql`select coalesce(sum(discount_pence), 0) from invoices where invoice_date >= ${first}::date and booking_id in (select id from bookings where trip_id in ${trips})`,
    );
    expect(pounds(d.money_per_week.reduce((s, w) => s + w.invoiced * 100, 0))).toBe(pounds(items + addons - discounts));

    // a payment, a refund and a deleted payment this week, on a trip of the season
    const trip = await insertTrip(t.db, {
      name: 'Money Week Trek',
      departureDate: addDays(today, 30),
      returnDate: addDays(today, 40),
    });
    const booking = await insertBooking(t.db, trip.id, { status: 'confirmed' });
    const [invoice] = await queryRows<{ id: number }>(
      t.db,
      sql`insert into invoices (booking_id, invoice_ref, type, description, invoice_date, due_date) values (${booking.id}, ${`DASH-${booking.id}`}, 'other', 'Extras', ${today}::date, ${today}::date) returning id`,
    );
    await t.db.execute(
      sql`insert into invoice_items (invoice_id, description, amount_pence) values (${invoice!.id}, 'Kit', 10000)`,
    );
    await t.db
      .execute(sql`insert into transactions (booking_id, invoice_id, invoice_type, amount_pence, type, processor, date) values
      (${booking.id}, ${invoice!.id}, 'other', 7000, 'payment', 'BACS', ${today}::date),
      (${booking.id}, ${invoice!.id}, 'other', 1500, 'refund', 'BACS', ${today}::date)`);
    await t.db
      .execute(sql`insert into transactions (booking_id, invoice_id, invoice_type, amount_pence, type, processor, date, deleted_at) values
      (${booking.id}, ${invoice!.id}, 'other', 99900, 'payment', 'BACS', ${today}::date, now())`);
    const after = await get();
    const week = (x: Dashboard) => x.money_per_week.at(-1)!;
    expect(pounds(week(after).received * 100 - week(d).received * 100)).toBe(55);
    expect(pounds(week(after).invoiced * 100 - week(d).invoiced * 100)).toBe(100);
    // outside the season, none of it
    const narrow = await get(`?from=${addDays(today, 100)}&to=${addDays(today, 200)}`);
    const narrowAgain = narrow.money_per_week.at(-1)!;
    expect(narrowAgain.received).toBe(
      pounds(
        await one(sql`select coalesce(sum(case when type = 'payment' then amount_pence else -amount_pence end), 0) from transactions
      where deleted_at is null and date >= ${narrowAgain.week}::date and booking_id in (select id from bookings where trip_id in ${seasonTrips(addDays(today, 100), addDays(today, 200))})`),
      ),
    );
  });

  it('gives what is outstanding by departure month, overdue apart, as money_owed sums it', async () => {
    const d = await get();
    const trips = seasonTrips(season.from, season.to);
    const overdue = await one(
      sql`select coalesce(sum(outstanding_pence), 0) from money_owed where trip_id in ${trips} and due_date < ${today}::date`,
    );
    const later = await one(
      sql`select coalesce(sum(outstanding_pence), 0) from money_owed where trip_id in ${trips} and due_date >= ${today}::date`,
    );
    expect(pounds(d.outstanding_by_month.reduce((s, m) => s + m.overdue * 100, 0))).toBe(pounds(overdue));
    expect(pounds(d.outstanding_by_month.reduce((s, m) => s + m.not_yet_due * 100, 0))).toBe(pounds(later));
    for (const m of d.outstanding_by_month)
      expect(m.month >= season.from.slice(0, 7) && m.month <= season.to.slice(0, 7)).toBe(true);
    const card = d.attention.find((a) => a.key === 'overdue')!;
    expect(card.amount).toBe(pounds(overdue));
    expect(card.count).toBe(
      await one(sql`select count(*) from money_owed where trip_id in ${trips} and due_date < ${today}::date`),
    );
    expect(card.href).toBe(`/money?overdue=1&departure_from=${season.from}&departure_to=${season.to}`);
  });

  it('lists the next 12 departures of the season with their confirmed and provisional bookings and capacity', async () => {
    const d = await get();
    expect(d.next_departures.length).toBeLessThanOrEqual(12);
    const expected = await queryRows<{ id: number }>(
      t.db,
      sql`select id from trips where deleted_at is null and archived_at is null and status <> 'cancelled' and departure_date between ${today}::date and ${season.to}::date order by departure_date, id limit 12`,
    );
    expect(d.next_departures.map((x) => x.trip_id)).toEqual(expected.map((r) => Number(r.id)));
    for (const x of d.next_departures) {
      expect(x.confirmed).toBe(
        await one(sql`select count(*) from bookings where trip_id = ${x.trip_id} and status = 'confirmed'`),
      );
      expect(x.provisional).toBe(
        await one(sql`select count(*) from bookings where trip_id = ${x.trip_id} and status = 'provisional'`),
      );
    }
  });

  it('counts what needs attention: long-provisional bookings and fundraisers behind, each linked to its filtered list', async () => {
    const d = await get();
    const trips = seasonTrips(season.from, season.to);
    const provisional = d.attention.find((a) => a.key === 'provisional')!;
    const before = addDays(today, -13);
    expect(provisional.count).toBe(
      await one(
        sql`select count(*) from bookings where trip_id in ${trips} and status = 'provisional' and (created_at at time zone 'Europe/London')::date < ${before}::date`,
      ),
    );
    expect(provisional.href).toBe(
      `/bookings?status=provisional&timing=all&booked_before=${before}&departure_from=${season.from}&departure_to=${season.to}`,
    );
    const behind = d.attention.find((a) => a.key === 'behind')!;
    const tripIds = (await queryRows<{ id: number }>(t.db, sql`select id from trips where id in ${trips}`)).map(
      (r) => r.id,
    );
    const listed = (
      await admin.get(`/api/bookings?timing=all&fundraising=behind&per_page=100&trips=${tripIds.join(',')}`)
    ).json() as { total: number; data: Array<{ id: number; status: string }> };
    expect(behind.count).toBe(listed.total);
    // each of them behind on their own booking page too, and none cancelled
    for (const b of listed.data.slice(0, 10)) {
      expect(b.status).not.toBe('cancelled');
      expect((await admin.get(`/api/bookings/${b.id}/fundraising`)).json().state).toBe('behind');
    }
    const notReady = d.attention.find((a) => a.key === 'not_ready')!;
    expect(notReady.count).toBe(notReady.departures!.reduce((s, x) => s + x.not_ready, 0));
    for (const dep of notReady.departures!) {
      const board = (await admin.get(`/api/trips/${dep.trip_id}/readiness`)).json() as {
        summary: { bookings: number; ready: number };
      };
      expect(dep.not_ready).toBe(board.summary.bookings - board.summary.ready);
      expect(dep.departure <= addDays(today, 56)).toBe(true);
    }
    // pupils without consent: each departure's count is its board's consent check not passed
    const consent = d.attention.find((a) => a.key === 'consent')!;
    expect(consent.count).toBe(consent.departures!.reduce((s, x) => s + x.not_ready, 0));
    for (const dep of consent.departures!) {
      const board = (await admin.get(`/api/trips/${dep.trip_id}/readiness`)).json() as {
        summary: { checks: { consent: { amber: number; red: number } } };
      };
      expect(dep.not_ready).toBe(board.summary.checks.consent.amber + board.summary.checks.consent.red);
    }
    expect(d.attention.map((a) => a.key)).toEqual([
      'overdue',
      'refunds',
      'asks',
      'not_ready',
      'consent',
      'provisional',
      'behind',
      'failed',
    ]);
  });

  it('counts the pupils of school trips in the next 8 weeks without a parent’s consent, as their board does', async () => {
    const before = (await get()).attention.find((a) => a.key === 'consent')!;
    const departure = addDays(today, 30);
    const trip = await insertTrip(t.db, {
      name: 'Year 7 Peak District',
      type: 'school',
      departureDate: departure,
      returnDate: addDays(departure, 3),
    });
    const year = (years: number) => `${Number(departure.slice(0, 4)) - years}${departure.slice(4)}`;
    // a pupil without consent, one whose consent was withdrawn, one with it, one 18 on the day, one with no date of birth
    await insertBooking(t.db, trip.id, { status: 'confirmed', dateOfBirth: addDays(year(18), 1) });
    await insertBooking(t.db, trip.id, {
      status: 'confirmed',
      dateOfBirth: year(13),
      consentName: 'Pat Parent',
      consentGivenAt: new Date(),
      consentWithdrawnAt: new Date(),
    });
    await insertBooking(t.db, trip.id, {
      status: 'provisional',
      dateOfBirth: year(13),
      consentName: 'Pat Parent',
      consentGivenAt: new Date(),
    });
    await insertBooking(t.db, trip.id, { status: 'confirmed', dateOfBirth: year(18) });
    await insertBooking(t.db, trip.id, { status: 'confirmed', dateOfBirth: null });
    await insertBooking(t.db, trip.id, { status: 'cancelled', dateOfBirth: year(13) });
    const after = (await get()).attention.find((a) => a.key === 'consent')!;
    expect(after.count).toBe(before.count + 3);
    const dep = after.departures!.find((x) => x.trip_id === trip.id)!;
    expect(dep).toEqual({
      trip_id: trip.id,
      name: 'Year 7 Peak District',
      departure,
      not_ready: 3,
      href: `/trips/${trip.id}/readiness?check=consent`,
    });
    const board = (await admin.get(`/api/trips/${trip.id}/readiness`)).json();
    expect(board.summary.checks.consent.amber + board.summary.checks.consent.red).toBe(3);
  });

  it('keeps each trip’s not-ready and behind counts only until something they read changes', async () => {
    const d = await get();
    const stale = async (tripId: number) =>
      (await queryRows<{ stale: boolean }>(t.db, sql`select stale from trip_counts where trip_id = ${tripId}`))[0]
        ?.stale;
    const behind = d.attention.find((a) => a.key === 'behind')!.count;
    const [listed] = (
      await admin.get(
        `/api/bookings?timing=all&fundraising=behind&per_page=1&departure_from=${season.from}&departure_to=${season.to}`,
      )
    ).json().data as Array<{ id: number; trip: { id: number } }>;
    const first = listed && { id: listed.id, trip_id: listed.trip.id };
    expect(first).toBeDefined();
    expect(await stale(first!.trip_id)).toBe(false);
    // a fundraiser meets their target: their trip is counted afresh
    const res = await admin.post(`/api/bookings/${first!.id}/fundraising/entries`, {
      amount: 100_000,
      date: today,
      source: 'offline',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await stale(first!.trip_id)).toBe(true);
    expect((await get()).attention.find((a) => a.key === 'behind')!.count).toBe(behind - 1);
    expect(await stale(first!.trip_id)).toBe(false);

    // a new question on a departure's trip leaves every one of its travellers not ready, whoever writes it
    const dep = d.attention.find((a) => a.key === 'not_ready')!.departures![0]!;
    await t.db.execute(sql`insert into trip_custom_fields (trip_id, label) values (${dep.trip_id}, 'Shoe size')`);
    const board = (await admin.get(`/api/trips/${dep.trip_id}/readiness`)).json() as {
      summary: { bookings: number; ready: number };
    };
    expect(board.summary.ready).toBe(0);
    const after = (await get()).attention
      .find((a) => a.key === 'not_ready')!
      .departures!.find((x) => x.trip_id === dep.trip_id)!;
    expect(after.not_ready).toBe(board.summary.bookings);
    await t.db.execute(sql`delete from trip_custom_fields where trip_id = ${dep.trip_id} and label = 'Shoe size'`);
    expect(
      (await get()).attention.find((a) => a.key === 'not_ready')!.departures!.find((x) => x.trip_id === dep.trip_id)!
        .not_ready,
    ).toBe(dep.not_ready);
  });

  it('fails as a whole when a read fails, and leaves no failure unheard (one would end the server)', async () => {
    const service = new DashboardService(t.db, t.config.fundraisingDefaults);
    await expect(service.get(today, { from: 'no such day', to: '2027-01-01' })).rejects.toThrow();
    // the series' failure reaches the cards' reads only after theirs: a rejection no one has
    // listened to by then is reported by the test runner (and by Node, which ends the process)
    await new Promise((resolve) => setTimeout(resolve, 100));
  });

  it('takes the next 12 months as the default season in any year, leap years too', () => {
    expect(DashboardService.season('2026-11-24')).toEqual({ from: '2026-11-24', to: '2027-11-23' });
    expect(DashboardService.season('2027-11-24')).toEqual({ from: '2027-11-24', to: '2028-11-23' });
    expect(DashboardService.season('2027-03-01')).toEqual({ from: '2027-03-01', to: '2028-02-29' });
    expect(DashboardService.season('2028-02-29')).toEqual({ from: '2028-02-29', to: '2029-02-27' });
    expect(DashboardService.season('2026-11-24', '2026-01-01')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
  });

  it('sends each card to a list filtered to exactly its rows', async () => {
    const d = await get();
    const card = (key: string) => d.attention.find((a) => a.key === key)!;
    const listed = async (href: string, api: string) => {
      const res = await admin.get(`${api}?${href.split('?')[1]}&per_page=1`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().total as number;
    };
    expect(card('provisional').count).toBeGreaterThan(0);
    expect(await listed(card('provisional').href, '/api/bookings')).toBe(card('provisional').count);
    expect(card('behind').count).toBeGreaterThan(0);
    expect(await listed(card('behind').href, '/api/bookings')).toBe(card('behind').count);
    expect(card('overdue').count).toBeGreaterThan(0);
    expect(await listed(card('overdue').href, '/api/money-due')).toBe(card('overdue').count);
    for (const dep of card('not_ready').departures!) expect(dep.href).toBe(`/trips/${dep.trip_id}/readiness?ready=no`);
  });

  it('bounds everything by the season: a season with no departures has nothing in it', async () => {
    const far = await get('?from=2090-01-01&to=2090-12-31');
    expect(far.bookings_by_status.every((r) => r.free + r.flexi + r.self + r.fundraise === 0)).toBe(true);
    expect(far.bookings_per_week.every((w) => w.charity + w.open + w.school === 0)).toBe(true);
    expect(far.money_per_week.every((w) => w.received === 0 && w.invoiced === 0)).toBe(true);
    expect(far.outstanding_by_month).toEqual([]);
    expect(far.next_departures).toEqual([]);
    expect(far.attention.filter((a) => a.key !== 'failed').every((a) => a.count === 0)).toBe(true);
  });

  it('refuses a season that ends before it starts, or a date that is not one', async () => {
    const bad = await admin.get(`/api/dashboard?from=${today}&to=${addDays(today, -1)}`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ to: ['The to date must be on or after the from date.'] });
    expect((await admin.get('/api/dashboard?from=2026-02-30')).json().errors).toEqual({
      from: ['The from date must be a real date.'],
    });
    // the lists the cards lead to refuse bad days the same way
    expect((await admin.get('/api/bookings?departure_from=2026-13-01')).json().errors).toEqual({
      departure_from: ['The departure from date must be a real date.'],
    });
    expect((await admin.get('/api/bookings?booked_before=soon')).json().errors).toEqual({
      booked_before: ['The booked before date must be a real date.'],
    });
    expect((await admin.get('/api/money-due?departure_to=2026-02-30')).json().errors).toEqual({
      departure_to: ['The departure to date must be a real date.'],
    });
    const charity = await t.signedIn(2);
    expect((await charity.get('/api/dashboard')).statusCode).toBe(403);
  });
});
