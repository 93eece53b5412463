import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

// `money_owed` and `money_owed_days` are kept by the database's triggers (decision 012): after
// every kind of change of money made through the API, they must hold exactly what a plain
// derivation from the invoices, their items, add-ons and entries, and the schedule gives, written
// here on its own (a join and a group by, not the migration's function).

let t: TestApp;
let admin: TestClient;
let tripId: number;
let otherTripId: number;
let bookingId: number;
const today = ukToday();

const DERIVED = sql`
  with sums as (
    select i.id, i.booking_id, i.due_date,
      coalesce(it.p, 0) + coalesce(ad.p, 0) as subtotal, i.discount_pence, coalesce(tx.p, 0) as received
    from invoices i
    left join (select invoice_id, sum(amount_pence) as p from invoice_items group by 1) it on it.invoice_id = i.id
    left join (select invoice_id, sum(price_pence) as p from invoice_addons group by 1) ad on ad.invoice_id = i.id
    left join (select invoice_id, sum(case type when 'payment' then amount_pence when 'refund' then -amount_pence end) as p
               from transactions where deleted_at is null group by 1) tx on tx.invoice_id = i.id
  ), owed as (
    select 'invoice' as kind, s.id, s.booking_id, s.due_date, (s.subtotal - least(s.discount_pence, s.subtotal) - s.received)::bigint as pence from sums s
    union all
    select 'instalment', r.id, r.booking_id, r.due_date, r.amount_pence::bigint from schedule_rows r where r.invoice_id is null and not r.waived
  )
  select o.kind, o.id::int, o.booking_id::int, b.trip_id, to_char(o.due_date, 'YYYY-MM-DD') as due_date, o.pence::text as pence,
    to_char(b.trip_departure, 'YYYY-MM-DD') as departure, lower(b.last_name) as last_name_key, lower(t.name) as trip_name_key,
    (select max(pr.created_at) from payment_reminders pr where pr.booking_id = b.id and pr.outcome = 'sent')::text as last_reminder_at
  from owed o join bookings b on b.id = o.booking_id join trips t on t.id = b.trip_id
  where o.pence > 0 and b.status <> 'cancelled'
  order by 1, 2`;

const KEPT = sql`
  select kind, id, booking_id::int, trip_id, to_char(due_date, 'YYYY-MM-DD') as due_date, outstanding_pence::text as pence,
    to_char(departure, 'YYYY-MM-DD') as departure, last_name_key, trip_name_key, last_reminder_at::text
  from money_owed order by 1, 2`;

type Kept = {
  kind: string;
  id: number;
  booking_id: number;
  trip_id: number;
  due_date: string;
  pence: string;
  departure: string;
  last_name_key: string;
  trip_name_key: string;
  last_reminder_at: string | null;
};

async function expectKept(step: string) {
  const derived = await queryRows<Kept>(t.db, DERIVED);
  expect(await queryRows(t.db, KEPT), step).toEqual(derived);
  const days = await queryRows(
    t.db,
    sql`select trip_id, to_char(due_date, 'YYYY-MM-DD') as d, n, pence::text from money_owed_days order by 1, 2`,
  );
  const grouped = await queryRows(
    t.db,
    sql`select trip_id, to_char(due_date, 'YYYY-MM-DD') as d, count(*)::int as n, sum(outstanding_pence)::text as pence from money_owed group by 1, 2 order by 1, 2`,
  );
  expect(days, `${step}: the day totals`).toEqual(grouped);
  // a day with nothing owed left has no row (the day totals hold only what is owed)
  expect(await queryRows(t.db, sql`select 1 from money_owed_days where n = 0`), step).toEqual([]);
  await expectRollups(step);
  return derived;
}

// the dashboard's rollups (migration 0025) against the same plain derivation from bookings,
// transactions and invoices
async function expectRollups(step: string) {
  const bookingDays = await queryRows(
    t.db,
    sql`select trip_id, to_char(week, 'YYYY-MM-DD') as week, status, funding_type, slot::int as slot, n from booking_weeks where n <> 0 order by 1, 2, 3, 4, 5`,
  );
  const bookingsDerived = await queryRows(
    t.db,
    sql`select trip_id, to_char(date_trunc('week', created_at at time zone 'Europe/London'), 'YYYY-MM-DD') as week, status, funding_type, (id % 8)::int as slot, count(*)::int as n from bookings group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`,
  );
  expect(bookingDays, `${step}: booking_weeks`).toEqual(bookingsDerived);
  // the narrow sums (migration 0058): per trip and week, per trip by status and funding type
  expect(
    await queryRows(
      t.db,
      sql`select trip_id, to_char(week, 'YYYY-MM-DD') as week, n from booking_trip_weeks where n <> 0 order by 1, 2`,
    ),
    `${step}: booking_trip_weeks`,
  ).toEqual(
    await queryRows(
      t.db,
      sql`select trip_id, to_char(date_trunc('week', created_at at time zone 'Europe/London'), 'YYYY-MM-DD') as week, count(*)::int as n
      from bookings group by 1, 2 order by 1, 2`,
    ),
  );
  expect(
    await queryRows(
      t.db,
      sql`select trip_id, status, funding_type, n from booking_trip_counts where n <> 0 order by 1, 2, 3`,
    ),
    `${step}: booking_trip_counts`,
  ).toEqual(
    await queryRows(
      t.db,
      sql`select trip_id, status, funding_type, count(*)::int as n from bookings group by 1, 2, 3 order by 1, 2, 3`,
    ),
  );
  const moneyDays = await queryRows(
    t.db,
    sql`select trip_id, to_char(day, 'YYYY-MM-DD') as day, received_pence::text as received, invoiced_pence::text as invoiced
    from money_days where received_pence <> 0 or invoiced_pence <> 0 order by 1, 2`,
  );
  const moneyDerived = await queryRows(
    t.db,
    sql`
    with received as (
      select b.trip_id, x.date as day, sum(case x.type when 'payment' then x.amount_pence else -x.amount_pence end) as p
      from transactions x join bookings b on b.id = x.booking_id where x.deleted_at is null group by 1, 2
    ), invoiced as (
      select b.trip_id, i.invoice_date as day, sum(s.subtotal - least(i.discount_pence, s.subtotal)) as p
      from invoices i join bookings b on b.id = i.booking_id
      join (select i2.id, coalesce((select sum(amount_pence) from invoice_items where invoice_id = i2.id), 0)
                        + coalesce((select sum(price_pence) from invoice_addons where invoice_id = i2.id), 0) as subtotal from invoices i2) s on s.id = i.id
      group by 1, 2
    )
    select coalesce(r.trip_id, i.trip_id) as trip_id, to_char(coalesce(r.day, i.day), 'YYYY-MM-DD') as day, coalesce(r.p, 0)::text as received, coalesce(i.p, 0)::text as invoiced
    from received r full join invoiced i on i.trip_id = r.trip_id and i.day = r.day
    where coalesce(r.p, 0) <> 0 or coalesce(i.p, 0) <> 0
    order by 1, 2`,
  );
  expect(moneyDays, `${step}: money_days`).toEqual(moneyDerived);
  // money_weeks: money_days by week
  const moneyWeeks = await queryRows(
    t.db,
    sql`select trip_id, to_char(week, 'YYYY-MM-DD') as week, received_pence::text as received, invoiced_pence::text as invoiced
    from money_weeks where received_pence <> 0 or invoiced_pence <> 0 order by 1, 2`,
  );
  const weeksDerived = await queryRows(
    t.db,
    sql`select trip_id, to_char(date_trunc('week', day), 'YYYY-MM-DD') as week, sum(received_pence)::text as received, sum(invoiced_pence)::text as invoiced
    from money_days group by 1, 2 having sum(received_pence) <> 0 or sum(invoiced_pence) <> 0 order by 1, 2`,
  );
  expect(moneyWeeks, `${step}: money_weeks`).toEqual(weeksDerived);
  // the same sums by their trips' departure month (migration 0063), trips not deleted
  const month = sql`to_char(t.departure_date, 'YYYY-MM-01')`;
  const byMonth: Array<[string, ReturnType<typeof sql>, ReturnType<typeof sql>]> = [
    [
      'booking_month_weeks',
      sql`select to_char(month, 'YYYY-MM-DD') as month, type, to_char(week, 'YYYY-MM-DD') as k, n::text as v from booking_month_weeks where n <> 0 order by 1, 2, 3`,
      sql`select ${month} as month, t.type, to_char(d.week, 'YYYY-MM-DD') as k, sum(d.n)::text as v from booking_trip_weeks d
        join trips t on t.id = d.trip_id and t.deleted_at is null group by 1, 2, 3 having sum(d.n) <> 0 order by 1, 2, 3`,
    ],
    [
      'booking_month_counts',
      sql`select to_char(month, 'YYYY-MM-DD') as month, status as type, funding_type as k, n::text as v from booking_month_counts where n <> 0 order by 1, 2, 3`,
      sql`select ${month} as month, d.status as type, d.funding_type as k, sum(d.n)::text as v from booking_trip_counts d
        join trips t on t.id = d.trip_id and t.deleted_at is null group by 1, 2, 3 having sum(d.n) <> 0 order by 1, 2, 3`,
    ],
    [
      'money_month_weeks',
      sql`select to_char(month, 'YYYY-MM-DD') as month, received_pence::text as type, to_char(week, 'YYYY-MM-DD') as k, invoiced_pence::text as v
        from money_month_weeks where received_pence <> 0 or invoiced_pence <> 0 order by 1, 3`,
      sql`select ${month} as month, sum(d.received_pence)::text as type, to_char(d.week, 'YYYY-MM-DD') as k, sum(d.invoiced_pence)::text as v
        from money_weeks d join trips t on t.id = d.trip_id and t.deleted_at is null group by 1, 3
        having sum(d.received_pence) <> 0 or sum(d.invoiced_pence) <> 0 order by 1, 3`,
    ],
    [
      'money_owed_month_days',
      sql`select to_char(month, 'YYYY-MM-DD') as month, n::text as type, to_char(due_date, 'YYYY-MM-DD') as k, pence::text as v
        from money_owed_month_days where n <> 0 or pence <> 0 order by 1, 3`,
      sql`select ${month} as month, sum(d.n)::text as type, to_char(d.due_date, 'YYYY-MM-DD') as k, sum(d.pence)::text as v
        from money_owed_days d join trips t on t.id = d.trip_id and t.deleted_at is null group by 1, 3
        having sum(d.n) <> 0 or sum(d.pence) <> 0 order by 1, 3`,
    ],
  ];
  for (const [table, kept, derived] of byMonth) {
    const rows = await queryRows(t.db, kept);
    expect(rows, `${step}: ${table}`).toEqual(await queryRows(t.db, derived));
  }
}

const pay = async (
  invoiceId: number,
  amount: number,
  type: 'payment' | 'refund' = 'payment',
  invoiceType = 'deposit',
) => {
  const res = await admin.post('/api/transactions', {
    booking_id: bookingId,
    invoice_id: invoiceId,
    invoice_type: invoiceType,
    amount,
    type,
    processor: 'BACS',
    date: today,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  tripId = (
    await insertTrip(t.db, {
      name: 'Kept Trek',
      costPence: 100_000,
      depositPence: 20_000,
      departureDate: addDays(today, 120),
      returnDate: addDays(today, 130),
    })
  ).id;
  otherTripId = (
    await insertTrip(t.db, {
      name: 'Other Trek',
      costPence: 80_000,
      depositPence: 10_000,
      departureDate: addDays(today, 200),
      returnDate: addDays(today, 210),
    })
  ).id;
});
afterAll(() => t.close());

describe('the money owed, kept by the database', () => {
  it('follows a booking through its schedule, invoices, payments, refunds, strike-outs, edits and cancellation', async () => {
    const res = await admin.post('/api/bookings', {
      trip_id: tripId,
      title: 'Ms',
      first_name: 'Kim',
      last_name: 'Kept',
      preferred_name: 'Kim',
      email: 'kim.kept@example.test',
      as_on_passport: true,
      terms_accepted: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    bookingId = res.json().id;
    // the schedule's two rows, not invoiced
    expect((await expectKept('booked')).map((r) => [r.kind, r.pence])).toEqual([
      ['instalment', '20000'],
      ['instalment', '80000'],
    ]);

    const deposit = (await admin.post(`/api/bookings/${bookingId}/invoices`, { invoice_type: 'deposit' })).json();
    expect((await expectKept('deposit invoiced')).map((r) => [r.kind, r.pence])).toEqual(
      [
        ['instalment', '80000'],
        ['invoice', '20000'],
      ].sort(),
    );

    await pay(deposit.id, 50);
    await expectKept('part paid');
    await pay(deposit.id, 150);
    expect((await expectKept('paid')).map((r) => r.kind)).toEqual(['instalment']);
    const refund = await pay(deposit.id, 30, 'refund');
    expect((await expectKept('part refunded')).find((r) => r.kind === 'invoice')?.pence).toBe('3000');
    const struck = await admin.delete(`/api/transactions/${refund}`);
    expect(struck.statusCode, struck.body).toBeLessThan(300);
    expect((await expectKept('refund struck out')).map((r) => r.kind)).toEqual(['instalment']);

    // the balance row: moved, its amount changed, then waived
    const schedule = (await admin.get(`/api/bookings/${bookingId}/schedule`)).json();
    const balance = schedule.rows.find((r: { label: string }) => r.label === 'Balance');
    expect((await admin.patch(`/api/schedule-rows/${balance.id}`, { due_date: addDays(today, 30) })).statusCode).toBe(
      200,
    );
    await expectKept('balance moved');
    expect((await admin.patch(`/api/schedule-rows/${balance.id}`, { amount: 700 })).statusCode).toBe(200);
    await expectKept('balance changed');

    // an add-on invoice, then deleted
    const custom = await admin.post('/api/invoices', {
      booking_id: bookingId,
      type: 'other',
      invoice_ref: 'KIT-1',
      description: 'Kit',
      invoice_date: today,
      due_date: addDays(today, 5),
      items: [{ description: 'Kit bag', amount: 25 }],
    });
    expect(custom.statusCode, custom.body).toBe(201);
    await expectKept('custom invoice');
    expect((await admin.delete(`/api/invoices/${custom.json().id}`)).statusCode).toBe(204);
    await expectKept('custom invoice deleted');

    // the traveller's name, then the trip, then cancelled, then back
    const detail = (await admin.get(`/api/bookings/${bookingId}`)).json();
    const body = {
      status: detail.status,
      title: detail.title,
      first_name: 'Kim',
      last_name: 'Aardvark',
      preferred_name: detail.preferred_name,
      email: detail.email,
      mobile: null,
      address_1: null,
      address_2: null,
      address_3: null,
      address_4: null,
      post_code: null,
      room_type: null,
      room_ref: null,
      share_with: null,
      double_room: false,
    };
    expect((await admin.patch(`/api/bookings/${bookingId}`, body)).statusCode).toBe(200);
    expect((await expectKept('renamed')).every((r) => r.last_name_key === 'aardvark')).toBe(true);
    await t.db.execute(
      sql`update trips set departure_date = departure_date + 7, return_date = return_date + 7 where id = ${tripId}`,
    );
    await expectKept('departure moved');
    await t.db.execute(sql`update bookings set trip_id = ${otherTripId} where id = ${bookingId}`);
    await expectKept('moved to another trip');
    await t.db.execute(sql`update trips set name = 'Renamed Trek' where id = ${otherTripId}`);
    expect((await expectKept('trip renamed')).every((r) => r.trip_name_key === 'renamed trek')).toBe(true);
    const reminded = await admin.post(`/api/bookings/${bookingId}/reminders`);
    expect(reminded.statusCode, reminded.body).toBeLessThan(500);
    await t.db.execute(
      sql`insert into payment_reminders (schedule_row_id, booking_id, offset_days, email, sent_on, outcome) values (${balance.id}, ${bookingId}, -3, 'kim.kept@example.test', ${today}, 'sent')`,
    );
    expect((await expectKept('reminded')).every((r) => r.last_reminder_at !== null)).toBe(true);
    expect((await admin.patch(`/api/bookings/${bookingId}`, { ...body, status: 'cancelled' })).statusCode).toBe(200);
    expect(await expectKept('cancelled')).toEqual([]);
    expect((await admin.patch(`/api/bookings/${bookingId}`, { ...body, status: 'confirmed' })).statusCode).toBe(200);
    expect((await expectKept('confirmed again')).length).toBeGreaterThan(0);

    expect(
      (await admin.patch(`/api/schedule-rows/${balance.id}`, { waived: true, reason: 'Free place' })).statusCode,
    ).toBe(200);
    await expectKept('balance waived');
  });

  it('keeps the narrow booking sums through one transaction that makes, changes, moves and deletes bookings', async () => {
    const made = await insertBooking(t.db, tripId, { status: 'provisional', fundingType: 'self' });
    await t.db.transaction(async (tx) => {
      const [row] = await queryRows<{ id: number }>(
        tx as unknown as Db,
        sql`insert into bookings (ref, trip_id, status, funding_type, first_name, last_name, email)
          values ('TX-NARROW', ${tripId}, 'provisional', 'free', 'Tess', 'Trans', 'tess@example.test') returning id`,
      );
      const id = row!.id;
      await tx.execute(sql`update bookings set status = 'confirmed' where id = ${id}`);
      await tx.execute(sql`update bookings set funding_type = 'flexi', trip_id = ${otherTripId} where id = ${id}`);
      // a change of nothing the sums count fires nothing
      await tx.execute(sql`update bookings set first_name = 'Tessa' where id = ${id}`);
      await tx.execute(sql`update bookings set status = 'confirmed' where id = ${made.id}`);
      await tx.execute(sql`delete from bookings where id = ${made.id}`);
    });
    await expectRollups('made, changed, moved and deleted in one transaction');
  });

  it('two payments on two invoices of one booking at once both count', async () => {
    const a = (
      await admin.post('/api/invoices', {
        booking_id: bookingId,
        type: 'other',
        invoice_ref: 'A-1',
        description: 'A',
        invoice_date: today,
        due_date: today,
        items: [{ description: 'A', amount: 40 }],
      })
    ).json();
    const b = (
      await admin.post('/api/invoices', {
        booking_id: bookingId,
        type: 'other',
        invoice_ref: 'B-1',
        description: 'B',
        invoice_date: today,
        due_date: today,
        items: [{ description: 'B', amount: 60 }],
      })
    ).json();
    await Promise.all([
      pay(a.id, 10, 'payment', 'other'),
      pay(b.id, 20, 'payment', 'other'),
      pay(a.id, 5, 'payment', 'other'),
      pay(b.id, 15, 'payment', 'other'),
    ]);
    const rows = await expectKept('paid at once');
    expect(rows.filter((r) => r.kind === 'invoice').map((r) => [r.id, r.pence])).toEqual(
      expect.arrayContaining([
        [a.id, '2500'],
        [b.id, '2500'],
      ]),
    );
  });
  it('a day paid off as another booking’s invoice falls due on it, at once, keeps the other', async () => {
    const other = await admin.post('/api/bookings', {
      trip_id: tripId,
      title: 'Mr',
      first_name: 'Lee',
      last_name: 'Alongside',
      preferred_name: 'Lee',
      email: 'lee.alongside@example.test',
      as_on_passport: true,
      terms_accepted: true,
    });
    expect(other.statusCode, other.body).toBe(201);
    const invoice = async (booking: number, ref: string, due: string) => {
      const res = await admin.post('/api/invoices', {
        booking_id: booking,
        type: 'other',
        invoice_ref: ref,
        description: ref,
        invoice_date: today,
        due_date: due,
        items: [{ description: ref, amount: 30 }],
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as number;
    };
    // each round: the only money owed on a day is paid off (its row goes) while the other
    // booking's invoice due that day is made (its row comes, or stays)
    for (let round = 0; round < 4; round++) {
      const due = addDays(today, 30 + round);
      const only = await invoice(bookingId, `ONLY-${round}`, due);
      await Promise.all([pay(only, 30, 'payment', 'other'), invoice(other.json().id, `NEXT-${round}`, due)]);
      await expectKept(`round ${round}`);
      const [day] = await queryRows<{ n: number; pence: string }>(
        t.db,
        sql`select n, pence::text from money_owed_days where trip_id = ${tripId} and due_date = ${due}::date`,
      );
      expect(day, `round ${round}`).toEqual({ n: 1, pence: '3000' });
    }
  });

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))(
    'adds a booking to the sums by month while an online booking holds its trip’s row, and a move of the trip’s month then finds it',
    async () => {
      // the trip's row held as an online booking holds it while it counts the places left
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const holder = t.db.transaction(async (tx) => {
        await tx.execute(sql`select id from trips where id = ${tripId} for no key update`);
        held();
        await released;
      });
      await holding;
      // a booking made meanwhile adds to the sums at its commit without waiting for that row
      const made = insertBooking(t.db, tripId, { status: 'provisional', fundingType: 'self' }).then(() => 'made');
      const waited = new Promise((resolve) => setTimeout(() => resolve('waited'), 3_000));
      const first = await Promise.race([made, waited]);
      release();
      await holder;
      await made;
      expect(first).toBe('made');
      await expectRollups('made while the trip was held');
      // the trip to another month and back: its sums follow it
      const [trip] = await queryRows<{ departure: string; back: string }>(
        t.db,
        sql`select to_char(departure_date, 'YYYY-MM-DD') as departure, to_char(return_date, 'YYYY-MM-DD') as back from trips where id = ${tripId}`,
      );
      await t.db.execute(
        sql`update trips set departure_date = ${addDays(trip!.departure, 45)}::date, return_date = ${addDays(trip!.back, 45)}::date where id = ${tripId}`,
      );
      await expectRollups('the trip moved on');
      await t.db.execute(
        sql`update trips set departure_date = ${trip!.departure}::date, return_date = ${trip!.back}::date where id = ${tripId}`,
      );
      await expectRollups('the trip moved back');
    },
  );
});
