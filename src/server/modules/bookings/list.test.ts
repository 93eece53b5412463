import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { bookingCustomFieldAnswers, tripCustomFields } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { bookingListQuery, type BookingListQuery } from '../../../contract/bookings.ts';
import { bookingConditions, listBookings } from './list.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { roundEstimate } from '../../common/paging.ts';

let t: TestApp;
let admin: TestClient;
const ids: Record<string, number> = {};
let future: number;
let later: number;
let past: number;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  future = (await insertTrip(t.db, { name: 'Alpha Future Trek', departureDate: day(60), returnDate: day(70) })).id;
  later = (await insertTrip(t.db, { name: 'Beta Later Trek', departureDate: day(200), returnDate: day(210) })).id;
  past = (await insertTrip(t.db, { name: 'Gamma Past Trek', departureDate: day(-100), returnDate: day(-90) })).id;
  const add = async (key: string, tripId: number, over: Parameters<typeof insertBooking>[2]) => {
    ids[key] = (await insertBooking(t.db, tripId, over)).id;
  };
  // created_at spaced a day apart, oldest first
  await add('ann', future, {
    firstName: 'Ann',
    lastName: 'Zephyr',
    preferredName: 'Annie',
    email: 'ann@alpha.test',
    status: 'confirmed',
    createdAt: new Date(day(-10)),
    passportExpiryDate: day(1000),
    dateOfBirth: '1990-01-01',
    gender: 'female',
    mobile: '07700 900001',
    address1: '1 Lake Road',
    postCode: 'LA22 9AB',
    roomRef: 'R02',
    depositPaymentDate: day(-9),
    medicalConditions: true,
  });
  await add('bob', future, {
    firstName: 'Bob',
    lastName: 'Young',
    email: 'bob@alpha.test',
    status: 'provisional',
    createdAt: new Date(day(-9)),
    passportExpiryDate: null,
    dateOfBirth: day(-365 * 17 - 30),
    gender: 'male',
    mobile: '+44 7700 900002',
    roomRef: 'R01',
  });
  await add('cat', later, {
    firstName: 'Cat',
    lastName: 'Xavier',
    email: 'cat@beta.test',
    status: 'cancelled',
    createdAt: new Date(day(-8)),
    passportExpiryDate: day(100),
    dateOfBirth: '1950-06-15',
    gender: 'female',
    depositPaymentDate: day(-5),
  });
  await add('dan', later, {
    firstName: 'Dan',
    lastName: 'Walker',
    preferredName: 'Danny',
    email: 'dan@beta.test',
    status: 'confirmed',
    createdAt: new Date(day(-7)),
    passportExpiryDate: day(300),
    dateOfBirth: '2000-03-03',
    gender: 'male',
    ref: 'TD-DANREF',
  });
  await add('eve', past, {
    firstName: 'Eve',
    lastName: 'Vance',
    email: 'eve@gamma.test',
    status: 'confirmed',
    createdAt: new Date(day(-200)),
    passportExpiryDate: day(2000),
    dateOfBirth: '1985-05-05',
    gender: 'other',
  });
});
afterAll(() => t.close());

const list = async (qs = '') => {
  const res = await admin.get(`/api/bookings${qs ? '?' + qs : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const names = async (qs = '') => (await list(qs)).data.map((b: { first_name: string }) => b.first_name);

describe('GET /api/bookings defaults', () => {
  it('shows every status of future trips, newest first, in the paged shape', async () => {
    const page = await list();
    expect(page.data.map((b: { first_name: string }) => b.first_name)).toEqual(['Dan', 'Cat', 'Bob', 'Ann']);
    expect(page).toMatchObject({
      total: 4,
      total_is_estimate: false,
      from: 1,
      to: 4,
      current_page: 1,
      last_page: 1,
      per_page: 25,
    });
    const ann = page.data.find((b: { first_name: string }) => b.first_name === 'Ann');
    expect(ann).toMatchObject({
      trip: { id: future, name: 'Alpha Future Trek' },
      passport_valid: 'ok',
      status: 'confirmed',
      room_ref: 'R02',
    });
    expect(ann.user_url).toBeNull();
  });
});

describe('filters', () => {
  it('status and timing', async () => {
    expect(await names('status=confirmed')).toEqual(['Dan', 'Ann']);
    expect(await names('status=all')).toEqual(['Dan', 'Cat', 'Bob', 'Ann']);
    expect(await names('timing=past')).toEqual(['Eve']);
    expect((await names('timing=all')).sort()).toEqual(['Ann', 'Bob', 'Cat', 'Dan', 'Eve']);
  });

  it('passport state against the trip’s return date', async () => {
    // Cat's runs out before her trip is back; Dan's within six months of it
    expect(await names('passport=missing')).toEqual(['Bob']);
    expect(await names('passport=expired')).toEqual(['Cat']);
    expect(await names('passport=expires')).toEqual(['Dan']);
    expect(await names('passport=ok')).toEqual(['Ann']);
    expect(await names('passport=ok&timing=all')).toEqual(['Ann', 'Eve']);
  });

  it('several trips, or one trip', async () => {
    expect(await names(`trips[]=${future}&trips[]=${past}&timing=all`)).toEqual(['Bob', 'Ann', 'Eve']);
    expect(await names(`trips=${later},${past}&timing=all`)).toEqual(['Dan', 'Cat', 'Eve']);
    expect(await names(`trip_id=${later}`)).toEqual(['Dan', 'Cat']);
  });

  it('reference, name (first, last or preferred), email, telephone digits and address', async () => {
    expect(await names('booking_ref=danref')).toEqual(['Dan']);
    // a term that starts with the app's TD- (the index is asked for the rest, the row for the whole
    // term): in any case, part of a reference, and never a reference that holds only the rest
    expect(await names('booking_ref=td-danref')).toEqual(['Dan']);
    expect(await names('booking_ref=TD-DANRE')).toEqual(['Dan']);
    expect(await names('booking_ref=TD-ANREF')).toEqual([]);
    // with fewer than three letters after TD- the index has nothing of the rest to go on: every TD- reference
    expect(await names('booking_ref=td-')).toEqual(['Dan', 'Cat', 'Bob', 'Ann']);
    // _ and % are letters to look for, as they are in any other search
    expect(await names('booking_ref=TD-DAN_EF')).toEqual([]);
    expect(await names('booking_ref=TD-DAN%25')).toEqual([]);
    expect(await names('name=annie')).toEqual(['Ann']);
    expect(await names('name=walk')).toEqual(['Dan']);
    expect(await names('email=BETA.test')).toEqual(['Dan', 'Cat']);
    // a term with three letters or more before an @ and two or more after it (the index is asked
    // for the term up to the second letter after the @, the row for the whole term): in any case,
    // part of an address, and never an address with the same name before the @ at another domain
    expect(await names('email=dan@beta.test')).toEqual(['Dan']);
    expect(await names('email=DAN@Beta.te')).toEqual(['Dan']);
    expect(await names('email=eve@beta.test')).toEqual([]);
    expect(await names('email=ann@alpha.tesT')).toEqual(['Ann']);
    expect(await names('email=ann@alpha.best')).toEqual([]);
    // fewer than three letters before the @, or fewer than two after it: the whole term is asked for
    expect(await names('email=n@beta.test')).toEqual(['Dan']);
    expect(await names('email=dan@b')).toEqual(['Dan']);
    // _ and % are letters to look for
    expect(await names('email=da_@beta.test')).toEqual([]);
    expect(await names('email=dan@beta%25')).toEqual([]);
    expect(await names('telephone=7700%20900002')).toEqual(['Bob']);
    expect(await names('telephone=900001')).toEqual(['Ann']);
    expect(await names('address=la22')).toEqual(['Ann']);
    expect(await names('address=lake road')).toEqual(['Ann']);
  });

  it('searches the text by trigram indexes: every searched expression is the one an index holds', async () => {
    const indexed = async (filter: string) => {
      const f = bookingListQuery.parse(Object.fromEntries(new URLSearchParams(`timing=all&${filter}`)));
      // with sequential scans made dear, a search its index can serve is planned on that index
      const plan = await t.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return queryRows<Record<string, string>>(
          tx as unknown as Db,
          sql`explain (costs off) select id from bookings where ${bookingConditions(f)}`,
        );
      });
      return plan.map((r) => Object.values(r)[0]).join('\n');
    };
    expect(await indexed('booking_ref=danref')).toContain('bookings_ref_trgm_idx');
    expect(await indexed('booking_ref=TD-DANREF')).toContain('bookings_ref_trgm_idx');
    expect(await indexed('name=annie')).toContain('bookings_name_trgm_idx');
    expect(await indexed('email=beta.test')).toContain('bookings_email_trgm_idx');
    expect(await indexed('email=dan@beta.test')).toContain('bookings_email_trgm_idx');
    expect(await indexed('telephone=7700 900')).toContain('bookings_mobile_digits_trgm_idx');
    expect(await indexed('address=lake road')).toContain('bookings_address_trgm_idx');
    // and the age filter (with the timing and medical ones) by its own index, on the bookings alone
    const ages = await indexed('age_min=18&age_max=25&medical=yes');
    expect(ages).toContain('bookings_age_idx');
    expect(ages).not.toContain('trips');
    // the address searched is what concat_ws makes of it, nulls left out and empty parts kept
    const [same] = await queryRows<{ ours: string; theirs: string }>(
      t.db,
      sql`select booking_address('1 Lake Road', null, '', 'Kendal', 'LA22 0AB') as ours,
        concat_ws(' ', '1 Lake Road', null, '', 'Kendal', 'LA22 0AB') as theirs`,
    );
    expect(same!.ours).toBe(same!.theirs);
  });

  it('age on the departure date, medical conditions and gender', async () => {
    expect(await names('age_max=17')).toEqual(['Bob']);
    expect(await names('age_min=70')).toEqual(['Cat']);
    expect(await names('age_min=18&age_max=40')).toEqual(['Dan', 'Ann']);
    expect(await names('medical=yes')).toEqual(['Ann']);
    expect(await names('medical=no')).toEqual(['Dan', 'Cat', 'Bob']);
    expect(await names('gender=male')).toEqual(['Dan', 'Bob']);
  });

  it('counts a birthday on the departure day as a year older, and the day after as not yet', async () => {
    const departure = day(400);
    const trip = (await insertTrip(t.db, { name: 'Birthday Trek', departureDate: departure, returnDate: day(405) })).id;
    const yearsBefore = (years: number, days = 0) =>
      new Date(
        Date.parse(`${Number(departure.slice(0, 4)) - years}${departure.slice(4)}T00:00:00Z`) + days * 86_400_000,
      )
        .toISOString()
        .slice(0, 10);
    await insertBooking(t.db, trip, { firstName: 'Eighteen', dateOfBirth: yearsBefore(18) });
    await insertBooking(t.db, trip, { firstName: 'Seventeen', dateOfBirth: yearsBefore(18, 1) });
    const of = async (filter: string) => {
      const res = await admin.get(`/api/bookings?trip_id=${trip}&${filter}`);
      expect(res.statusCode).toBe(200);
      return (res.json().data as Array<{ first_name: string; age: number }>).map((r) => `${r.first_name} ${r.age}`);
    };
    expect(await of('age_min=18')).toEqual(['Eighteen 18']);
    expect(await of('age_max=17')).toEqual(['Seventeen 17']);
    expect(await of('age_min=17&age_max=18')).toEqual(['Seventeen 17', 'Eighteen 18']);
  });

  it('a user’s bookings', async () => {
    const { insertUser } = await import('../../../db/factories/users.ts');
    const u = await insertUser(t.db, { email: 'owner@example.test' });
    const own = await insertTrip(t.db, { name: 'Own Trip', departureDate: day(90), returnDate: day(95) });
    await insertBooking(t.db, own.id, { userId: u.id, firstName: 'Owned' });
    const page = await list(`user_id=${u.id}&timing=all`);
    expect(page.data.map((b: { first_name: string }) => b.first_name)).toEqual(['Owned']);
    expect(page.data[0].user_url).toBe(`/users/${u.id}/edit`);
  });

  it('answers to the trip’s custom fields, when asked', async () => {
    const [field] = await t.db.insert(tripCustomFields).values({ tripId: future, label: 'T-shirt size' }).returning();
    await t.db.insert(bookingCustomFieldAnswers).values({ bookingId: ids.ann!, customFieldId: field!.id, answer: 'M' });
    const page = await list(`trip_id=${future}&withCustomFields=1`);
    expect(page.data.find((b: { first_name: string }) => b.first_name === 'Ann').custom_fields).toEqual({
      'T-shirt size': 'M',
    });
    expect((await list(`trip_id=${future}`)).data[0].custom_fields).toBeUndefined();
  });
});

describe('sorting', () => {
  it('by the allowed fields, both ways', async () => {
    const ours = `trips=${future},${later}`;
    expect(await names(`sort_field=created_at&sort_dir=asc&${ours}`)).toEqual(['Ann', 'Bob', 'Cat', 'Dan']);
    expect(await names(`sort_field=name&sort_dir=asc&${ours}`)).toEqual(['Dan', 'Cat', 'Bob', 'Ann']);
    expect(await names('sort_field=trip_name&sort_dir=asc&trips=' + `${future},${later}`)).toEqual([
      'Ann',
      'Bob',
      'Cat',
      'Dan',
    ]);
    expect(await names(`sort_field=room_ref&sort_dir=asc&trip_id=${future}`)).toEqual(['Bob', 'Ann']);
    expect((await names(`sort_field=deposit_payment_date&sort_dir=desc&trips=${future},${later}`)).slice(0, 2)).toEqual(
      ['Cat', 'Ann'],
    );
    expect(await names('sort_field=id&sort_dir=asc&timing=all&trips=' + `${future},${later},${past}`)).toEqual([
      'Ann',
      'Bob',
      'Cat',
      'Dan',
      'Eve',
    ]);
  });

  it('by trip name, exactly as one sort of every match would order them, on every page', async () => {
    // trips whose names sort against their ids, two with the same name, bookings made out of order
    const zulu = await insertTrip(t.db, { name: 'Zulu Sort Trek', departureDate: day(40), returnDate: day(45) });
    const alpha = await insertTrip(t.db, { name: 'Alpha Sort Trek', departureDate: day(50), returnDate: day(55) });
    const twin = await insertTrip(t.db, { name: 'Alpha Sort Trek', departureDate: day(60), returnDate: day(65) });
    const made: Array<{ id: number; name: string; at: number }> = [];
    let k = 0;
    for (const [trip, name] of [
      [zulu, 'Zulu Sort Trek'],
      [alpha, 'Alpha Sort Trek'],
      [twin, 'Alpha Sort Trek'],
      [alpha, 'Alpha Sort Trek'],
      [zulu, 'Zulu Sort Trek'],
      [twin, 'Alpha Sort Trek'],
      [alpha, 'Alpha Sort Trek'],
    ] as const) {
      k += 1;
      const at = Date.UTC(2026, 0, 10 - k);
      const b = await insertBooking(t.db, trip.id, { firstName: `Sorted${k}`, createdAt: new Date(at) });
      made.push({ id: b.id, name, at });
    }
    const ours = `timing=all&trips=${zulu.id},${alpha.id},${twin.id}`;
    for (const dir of ['asc', 'desc'] as const) {
      const expected = [...made]
        .sort((a, b) => a.name.localeCompare(b.name) || a.at - b.at || a.id - b.id)
        .map((b) => b.id);
      if (dir === 'desc') expected.reverse();
      const seen: number[] = [];
      for (let p = 1; p <= 3; p++) {
        const page = await list(`${ours}&sort_field=trip_name&sort_dir=${dir}&per_page=3&page=${p}`);
        seen.push(...page.data.map((b: { id: number }) => b.id));
      }
      expect(seen, dir).toEqual(expected);
    }
  });

  it('by nothing else', async () => {
    const res = await admin.get('/api/bookings?sort_field=password_hash');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ sort_field: ['The list cannot be sorted by that field.'] });
    expect((await admin.get('/api/bookings?sort_dir=sideways')).statusCode).toBe(422);
  });
});

describe('paging and bad input', () => {
  it('pages, and a page past the end is empty rather than an error', async () => {
    const first = await list('per_page=2&timing=all&sort_field=id&sort_dir=asc');
    expect(first).toMatchObject({ per_page: 2, from: 1, to: 2 });
    expect(first.last_page).toBe(Math.ceil(first.total / 2));
    const beyond = await list(`per_page=2&page=${first.last_page + 5}&timing=all`);
    expect(beyond).toMatchObject({ data: [], from: null, to: null, current_page: first.last_page + 5 });
  });

  it('answers 422, never 500, to bad values', async () => {
    for (const qs of [
      'page=0',
      'page=x',
      'per_page=0',
      'per_page=101',
      'status=pending',
      'timing=soon',
      'passport=fine',
      'trips=a,b',
      'trip_id=-1',
      'age_min=abc',
      'age_min=50&age_max=20',
      'medical=maybe',
      'gender=unknown',
    ]) {
      const res = await admin.get(`/api/bookings?${qs}`);
      expect(res.statusCode, qs).toBe(422);
    }
  });

  it('is for staff only', async () => {
    const traveller = await t.signedIn(3);
    expect((await traveller.get('/api/bookings')).statusCode).toBe(403);
  });
});

describe('a deep page from the weekly counts', () => {
  it('is exactly the page the walk through every row gives, both ways, with each filter the counts answer', async () => {
    // bookings made over 20 weeks (some in the same second), on trips past and future, in every status
    const soon = await insertTrip(t.db, { name: 'Week Jump Soon', departureDate: day(30), returnDate: day(35) });
    const far = await insertTrip(t.db, { name: 'Week Jump Far', departureDate: day(300), returnDate: day(305) });
    const gone = await insertTrip(t.db, { name: 'Week Jump Gone', departureDate: day(-30), returnDate: day(-25) });
    const statuses = ['confirmed', 'provisional', 'cancelled'] as const;
    const trips = [soon.id, far.id, gone.id];
    for (let k = 0; k < 60; k++) {
      await insertBooking(t.db, trips[k % 3]!, {
        firstName: `Weekly${k}`,
        status: statuses[(k * 7) % 3],
        // 2.5 days apart, every fifth made in the same second as the one before
        createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(k - (k % 5 === 4 ? 1 : 0)) * 216_000_000),
      });
    }
    const ours = trips.join(',');
    const filters: BookingListQuery[] = [
      { trips: ours, timing: 'all' },
      { trips: ours, timing: 'future' },
      { trips: ours, timing: 'past', status: 'confirmed' },
      { trip_id: String(far.id), timing: 'all' },
      { trips: ours, timing: 'all', departure_from: day(100), departure_to: day(400) },
      { trips: ours, timing: 'all', status: 'cancelled' },
    ];
    for (const q of filters)
      for (const sort_dir of ['desc', 'asc'] as const)
        for (const [page, per_page] of [
          [2, 7],
          [3, 9],
          [5, 4],
          [30, 2],
        ] as const) {
          const f = bookingListQuery.parse({ ...q, sort_dir, page, per_page });
          const walked = await listBookings(t.db, f, { weekJumpFrom: Infinity });
          const jumped = await listBookings(t.db, f, { weekJumpFrom: 0 });
          const why = JSON.stringify({ ...q, sort_dir, page, per_page });
          expect(
            jumped.data.map((b) => b.id),
            why,
          ).toEqual(walked.data.map((b) => b.id));
          expect(jumped.total, why).toBe(walked.total);
        }
    // the jump does read the counts: counts out of step move the page (put right again after); by
    // status, booking_weeks; without, the narrow booking_trip_weeks
    for (const [table, q] of [
      ['booking_weeks', { status: 'provisional' }],
      ['booking_trip_weeks', {}],
    ] as const) {
      const deep = bookingListQuery.parse({ trips: ours, timing: 'all', page: 5, per_page: 4, ...q });
      const walked = (await listBookings(t.db, deep, { weekJumpFrom: Infinity })).data.map((b) => b.id);
      await t.db.execute(sql`update ${sql.identifier(table)} set n = n + 3 where trip_id = ${far.id}`);
      try {
        expect(
          (await listBookings(t.db, deep, { weekJumpFrom: 0 })).data.map((b) => b.id),
          table,
        ).not.toEqual(walked);
      } finally {
        await t.db.execute(sql`update ${sql.identifier(table)} set n = n - 3 where trip_id = ${far.id}`);
      }
    }
    // a filter the counts cannot answer walks the rows, and agrees all the same
    const named = bookingListQuery.parse({ trips: ours, timing: 'all', name: 'Weekly1', page: 2, per_page: 3 });
    expect((await listBookings(t.db, named, { weekJumpFrom: 0 })).data.map((b) => b.id)).toEqual(
      (await listBookings(t.db, named, { weekJumpFrom: Infinity })).data.map((b) => b.id),
    );
  });
});

describe('the total: counted, or estimated when large', () => {
  // the five bookings of the three trips above; the threshold is injected, so a handful of rows
  // can take either path
  const ours = () =>
    ({ trips: [future, later, past].join(','), timing: 'all', sort_field: 'id', sort_dir: 'asc' }) as BookingListQuery;
  const page = (q: BookingListQuery, exactCountBelow?: number) =>
    listBookings(t.db, bookingListQuery.parse({ ...ours(), ...q }), { exactCountBelow });

  it('counts exactly when the estimate is under the threshold', async () => {
    const p = await page({ per_page: 2 }, 1_000_000);
    expect(p).toMatchObject({ total: 5, total_is_estimate: false, last_page: 3, from: 1, to: 2 });
  });

  it('gives the estimate, flagged, when it is not, and never less than the page shows to be there', async () => {
    const p = await page({ per_page: 2 }, 0);
    expect(p.total_is_estimate).toBe(true);
    expect(p.total).toBeGreaterThanOrEqual(3);
    expect(p.last_page).toBe(Math.ceil(p.total / 2));
    // the rows themselves stay exact
    expect(p.data.map((b) => b.first_name)).toEqual(['Ann', 'Bob']);
    expect(p).toMatchObject({ from: 1, to: 2, current_page: 1 });
  });

  it('knows the total without counting on the last page, or when everything fits on one', async () => {
    expect(await page({ per_page: 2, page: 3 }, 0)).toMatchObject({
      total: 5,
      total_is_estimate: false,
      from: 5,
      to: 5,
      last_page: 3,
    });
    expect(await page({ per_page: 10 }, 0)).toMatchObject({ total: 5, total_is_estimate: false, last_page: 1 });
    expect(await page({ per_page: 2, name: 'nobody-by-this-name' }, 0)).toMatchObject({
      total: 0,
      total_is_estimate: false,
      data: [],
      last_page: 1,
    });
  });

  it('pages through every row exactly once on either path', async () => {
    for (const threshold of [0, 1_000_000]) {
      const seen: string[] = [];
      for (let n = 1; n <= 3; n++)
        seen.push(...(await page({ per_page: 2, page: n }, threshold)).data.map((b) => b.first_name));
      expect(seen).toEqual(['Ann', 'Bob', 'Cat', 'Dan', 'Eve']);
    }
  });

  it('is the same when a broad search counts beside its page as when it counts after it', async () => {
    // "a" is in every name, "7700" in every number, "road" in some addresses
    for (const search of [{ name: 'a' }, { telephone: '7700' }, { address: 'road' }]) {
      const q = bookingListQuery.parse({ ...ours(), ...search, per_page: 1 });
      const after = await listBookings(t.db, q, { exactCountBelow: 1_000_000, earlyCountAfterMs: 60_000 });
      const beside = await listBookings(t.db, q, { exactCountBelow: 1_000_000, earlyCountAfterMs: 0 });
      expect(beside).toEqual(after);
      expect(after.total, JSON.stringify(search)).toBeGreaterThan(0);
    }
  });

  it('also when the filters join the trip (passport, age, trip name sort)', async () => {
    expect(await page({ per_page: 1, sort_field: 'trip_name', age_min: 0 }, 1_000_000)).toMatchObject({
      total: 5,
      total_is_estimate: false,
    });
    const estimated = await page({ per_page: 1, sort_field: 'trip_name', age_min: 0 }, 0);
    expect(estimated.total_is_estimate).toBe(true);
    expect(estimated.data.map((b) => b.trip.name)).toEqual(['Alpha Future Trek']);
  });

  it('counts no further than the threshold when the planner misjudges the filter, and then estimates from a sample', async () => {
    const misjudged = (q: BookingListQuery, threshold: number) =>
      listBookings(t.db, bookingListQuery.parse({ ...ours(), ...q }), {
        exactCountBelow: threshold,
        estimate: async () => 0,
      });
    expect(await misjudged({ per_page: 2 }, 10)).toMatchObject({ total: 5, total_is_estimate: false });
    expect(await misjudged({ per_page: 2 }, 5)).toMatchObject({ total: 5, total_is_estimate: false });
    const capped = await misjudged({ per_page: 2 }, 3);
    expect(capped.total_is_estimate).toBe(true);
    // never fewer than were counted before stopping
    expect(capped.total).toBeGreaterThanOrEqual(4);
    expect(capped.data.map((b) => b.first_name)).toEqual(['Ann', 'Bob']);
  });

  it('counts a text search exactly below its own, lower threshold, and above it gives an estimate, flagged', async () => {
    const trip = (await insertTrip(t.db, { name: 'Zebedee Trek', departureDate: day(90), returnDate: day(95) })).id;
    for (let k = 0; k < 60; k++)
      await insertBooking(t.db, trip, { lastName: `Zebedee${k}`, mobile: `07999 ${String(k).padStart(6, '0')}` });
    for (const search of [{ name: 'zebedee' }, { telephone: '07999' }]) {
      const q = bookingListQuery.parse({
        trip_id: String(trip),
        ...search,
        per_page: 25,
        sort_field: 'id',
        sort_dir: 'asc',
      });
      const why = JSON.stringify(search);
      // under SEARCH_COUNT_BELOW (2,000), however high the other filters' threshold
      expect(await listBookings(t.db, q, { exactCountBelow: 1_000_000 }), why).toMatchObject({
        total: 60,
        total_is_estimate: false,
      });
      // over the search's threshold: an estimate (from the sample, or from the count cut short at
      // the threshold), never fewer than the page shows; the page itself stays exact
      const over = await listBookings(t.db, q, { exactCountBelow: 1_000_000, searchCountBelow: 20 });
      expect(over.total_is_estimate, why).toBe(true);
      expect(over.total, why).toBeGreaterThanOrEqual(26);
      expect(over.data.map((b) => b.last_name)).toEqual(Array.from({ length: 25 }, (_, k) => `Zebedee${k}`));
    }
    // the other filters keep theirs
    const all = bookingListQuery.parse({ trip_id: String(trip), per_page: 25 });
    expect(await listBookings(t.db, all, { searchCountBelow: 20 })).toMatchObject({
      total: 60,
      total_is_estimate: false,
    });
  });

  it('rounds an estimate to two significant figures', () => {
    expect([0, 7, 99, 123, 706_865, 1_000_379, 33_279].map(roundEstimate)).toEqual([
      0, 7, 99, 120, 710_000, 1_000_000, 33_000,
    ]);
  });
});
