import { sql } from 'drizzle-orm';
import { addDays, ukToday } from '../../contract/dates.ts';
import { queryRows, type Db } from '../client.ts';
import { GENERATED_REFS } from './scale.ts';

/** The run's work table: one row per schedule row of the batch, with what became of it. */
const WORK = 'tripdesk_seed_money';

/**
 * Schedules, invoices, payments and reminders for every generated booking that has no schedule
 * yet, made inside the database, `batch` bookings per round of INSERT … SELECT. Values come from
 * hashes of the row ids, so the same bookings get the same money. Schedule row ids are
 * booking id × 10 + position and invoice ids a fixed offset from them, so that every table can
 * be filled from the work table without reading ids back; the identity sequences are moved past
 * them at the end.
 *
 * - Plans: the default plan (the trip's deposit 14 days after booking, the rest 56 days before
 *   departure) on charity and open trips; on school trips the deposit, six monthly instalments of
 *   a seventh of the rest (the last 86 days before departure) and the rest 56 days before — as
 *   buildSchedule makes them (no due date before the booking day, none after departure).
 * - Invoices: rows due within 21 days (INVOICE_LEAD_DAYS) are invoiced — 95% of deposits, 97%
 *   of the others — as the trip's standard invoice (one item); 10% of balances carry one of the
 *   trip's add-ons, 3% a £50 discount.
 * - Payments: of invoices more than 30 days overdue 95% are paid (1 in 5 in two payments), 2% part
 *   paid, 2% unpaid, 0.5% paid and then part refunded, 0.5% paid with a first entry struck out; of
 *   those 1–30 days overdue 80% / 8% / 12%; of those not yet due 40% / 10% / 50%.
 * - Waived: one in 200 of the rows not invoiced.
 * - Reminders: the automatic reminders (7 and 3 days before, on the day, 2 and 7 days after) of
 *   invoiced rows due in the last 60 days or the next week, up to today, for unpaid and part-paid
 *   invoices; one in three paid ones had the first.
 */
export async function seedMoney(database: Db, onProgress: (done: number, of: number) => void, batch = 50_000) {
  const today = ukToday();
  const [range] = await queryRows<{ lo: string | null; hi: string | null; n: number }>(
    database,
    sql`select min(id) as lo, max(id) as hi, count(*)::int as n from bookings b
        where ref like ${GENERATED_REFS} and not exists (select 1 from schedule_rows r where r.booking_id = b.id)`,
  );
  if (!range?.lo) return 0;
  const lo = Number(range.lo);
  const hi = Number(range.hi);
  const [base] = await queryRows<{ n: string | number }>(
    database,
    sql`select coalesce(max(id), 0) + 1 as n from invoices`,
  );
  const invoiceBase = Number(base!.n);
  await database.execute(sql.raw(`drop table if exists ${WORK}`));
  await database.execute(
    sql.raw(`create unlogged table ${WORK} (
      id int primary key, booking_id bigint not null, position smallint not null, label text not null, due date not null,
      amount int not null, itype text not null, email text not null, trip_name text not null,
      invoiced boolean not null, state text, invoice_id int, invoice_date date,
      addon_id int, addon_name text, addon_price int not null default 0, discount int not null default 0)`),
  );
  const work = sql.raw(WORK);
  let done = 0;
  // The rollups' triggers plan their reads of these tables by the statistics of the time: the first
  // batch is small, as the tables are then nearly empty by them (a plan for a few rows, over tens of
  // thousands, took hours), and every later one comes after fresh statistics.
  for (let from = lo, size = Math.min(batch, 5_000); from <= hi; from += size, size = batch) {
    const to = Math.min(from + size - 1, hi);
    if (from > lo)
      await database.execute(
        sql`analyze schedule_rows, invoices, invoice_items, transactions, payment_reminders, money_owed`,
      );
    await database.execute(sql`truncate ${work}`);
    // the schedule of each booking, and what became of each row
    await database.execute(sql`
      insert into ${work} (id, booking_id, position, label, due, amount, itype, email, trip_name, invoiced, state, invoice_id, invoice_date, addon_id, addon_name, addon_price, discount)
      select s.id, s.booking_id, s.position, s.label, s.due, s.amount, s.itype, s.email, s.trip_name, s.invoiced,
        case when not s.invoiced then null
          when ${today}::date - s.due > 30 then case when s.h < 950 then 'paid' when s.h < 970 then 'part' when s.h < 990 then 'unpaid' when s.h < 995 then 'refunded' else 'struck' end
          when ${today}::date - s.due > 0 then case when s.h < 800 then 'paid' when s.h < 880 then 'part' else 'unpaid' end
          else case when s.h < 400 then 'paid' when s.h < 500 then 'part' else 'unpaid' end
        end,
        case when s.invoiced then ${invoiceBase}::int + s.id end,
        case when s.invoiced then least(${today}::date, greatest(s.booked, s.due - 21)) end,
        a.id, a.name, coalesce(a.price_pence, 0),
        case when s.invoiced and s.itype = 'balance' and abs(hashint4(s.id + 3)) % 100 < 3 then least(5000, s.amount) else 0 end
      from (
        select (b.id * 10 + p.position)::int as id, b.id as booking_id, p.position, p.label, p.amount, b.email, t.name as trip_name, t.id as trip_id,
          p.last, b.created_at::date as booked, case when p.position = 1 then 'deposit' else 'balance' end as itype,
          case when p.due < b.created_at::date then b.created_at::date
               when p.due > t.departure_date and b.created_at::date <= t.departure_date then t.departure_date
               else p.due end as due,
          abs(hashint4(b.id::int * 10 + p.position + 1)) % 1000 as h,
          abs(hashint4(b.id::int * 10 + p.position + 2)) % 100 as h2
        from bookings b
        join trips t on t.id = b.trip_id
        cross join lateral (
          select 1 as position, 'Deposit' as label, least(t.deposit_pence, t.cost_pence) as amount, b.created_at::date + 14 as due, false as last
          union all
          select 1 + k, 'Instalment ' || k, (t.cost_pence - least(t.deposit_pence, t.cost_pence)) / 7, t.departure_date - 56 - 30 * (7 - k), false
          from generate_series(1, 6) k where t.type = 'school'
          union all
          select case when t.type = 'school' then 8 else 2 end, 'Balance',
            t.cost_pence - least(t.deposit_pence, t.cost_pence) - case when t.type = 'school' then 6 * ((t.cost_pence - least(t.deposit_pence, t.cost_pence)) / 7) else 0 end,
            t.departure_date - 56, true
        ) p
        where b.id between ${from} and ${to} and b.ref like ${GENERATED_REFS} and p.amount > 0
          and not exists (select 1 from schedule_rows r where r.booking_id = b.id)
      ) s0
      cross join lateral (select s0.*, s0.due <= ${today}::date + 21 and s0.h2 < case when s0.position = 1 then 95 else 97 end as invoiced) s
      left join lateral (
        select ta.id, ta.name, ta.price_pence from trip_addons ta
        where s.invoiced and s.last and abs(hashint4(s.id + 4)) % 100 < 10 and ta.trip_id = s.trip_id
        order by ta.id limit 1
      ) a on true`);
    await database.execute(sql`
      insert into invoices (id, booking_id, invoice_ref, type, description, invoice_date, due_date, discount_code, discount_pence, created_at)
      select invoice_id, booking_id, 'INV-' || invoice_id, itype, label || ' for ' || trip_name, invoice_date, due,
        case when discount > 0 then 'EARLYBIRD50' end, discount, invoice_date + time '09:30'
      from ${work} where invoiced`);
    await database.execute(sql`
      insert into invoice_items (invoice_id, description, amount_pence)
      select invoice_id, case when itype = 'deposit' then 'Trip deposit' else label end, amount from ${work} where invoiced`);
    await database.execute(sql`
      insert into invoice_addons (invoice_id, addon_id, name, price_pence)
      select invoice_id, addon_id, addon_name, addon_price from ${work} where invoiced and addon_id is not null`);
    // payments (a paid invoice in two parts one time in five), refunds and struck-out entries
    await database.execute(sql`
      insert into transactions (booking_id, invoice_id, invoice_type, amount_pence, type, processor, date, notes, created_at, deleted_at)
      select w.booking_id, w.invoice_id, w.itype, x.amount, x.type, x.processor, x.on_day, x.notes, x.on_day + time '11:00', x.deleted
      from ${work} w
      cross join lateral (select w.amount + w.addon_price - w.discount as total,
        least(${today}::date, w.invoice_date + abs(hashint4(w.id + 5)) % 20) as paid_on,
        (array['STRIPE','STRIPE','STRIPE','BACS','CHEQUE','OTHER'])[1 + abs(hashint4(w.id + 6)) % 6] as processor,
        abs(hashint4(w.id + 7)) % 5 = 0 as split) m
      cross join lateral (
        select m.total as amount, 'payment' as type, m.processor, m.paid_on as on_day, null as notes, null::timestamptz as deleted
          where w.state in ('paid', 'refunded', 'struck') and not (w.state = 'paid' and m.split)
        union all
        select m.total * 2 / 5, 'payment', m.processor, m.paid_on, 'First part', null where w.state = 'paid' and m.split
        union all
        select m.total - m.total * 2 / 5, 'payment', m.processor, least(${today}::date, m.paid_on + 14), null, null where w.state = 'paid' and m.split
        union all
        select greatest(1, m.total * (20 + abs(hashint4(w.id + 8)) % 50) / 100), 'payment', m.processor, m.paid_on, 'Part payment', null where w.state = 'part'
        union all
        select least(m.total, 5000), 'refund', 'BACS', least(${today}::date, m.paid_on + 5), 'Goodwill refund', null where w.state = 'refunded'
        union all
        select m.total, 'payment', m.processor, m.paid_on, 'Entered twice', (least(${today}::date, m.paid_on + 1) + time '12:00')::timestamptz where w.state = 'struck'
      ) x
      where w.invoiced and x.amount > 0`);
    await database.execute(sql`
      insert into schedule_rows (id, booking_id, position, label, due_date, amount_pence, invoice_type, invoice_id, waived, waived_reason, created_at, updated_at)
      select id, booking_id, position, label, due, amount, itype, invoice_id, w.waived, case when w.waived then 'Free place' end, now(), now()
      from ${work} cross join lateral (select not invoiced and abs(hashint4(id + 10)) % 200 = 0 as waived) w`);
    await database.execute(sql`
      insert into payment_reminders (schedule_row_id, booking_id, invoice_id, offset_days, email, sent_on, outcome, created_at)
      select w.id, w.booking_id, w.invoice_id, o.d, w.email, w.due + o.d, 'sent', (w.due + o.d) + time '09:05'
      from ${work} w cross join unnest(array[-7, -3, 0, 2, 7]) o(d)
      where w.invoiced and w.due between ${addDays(today, -60)}::date and ${addDays(today, 7)}::date and w.due + o.d <= ${today}::date
        and (w.state in ('unpaid', 'part') or (o.d = -7 and abs(hashint4(w.id + 9)) % 3 = 0))
      on conflict do nothing`);
    done += Number(
      (await queryRows<{ n: number }>(database, sql`select count(distinct booking_id)::int as n from ${work}`))[0]?.n ??
        0,
    );
    onProgress(done, range.n);
  }
  await database.execute(sql.raw(`drop table ${WORK}`));
  for (const [table, column] of [
    ['schedule_rows', 'id'],
    ['invoices', 'id'],
    ['invoice_items', 'id'],
    ['transactions', 'id'],
    ['payment_reminders', 'id'],
  ] as const) {
    await database.execute(
      sql.raw(
        `select setval(pg_get_serial_sequence('${table}', '${column}'), (select coalesce(max(${column}), 0) + 1 from ${table}), false)`,
      ),
    );
  }
  // a settled database, as autovacuum leaves it: statistics, and a visibility map for index-only scans
  for (const table of [
    'schedule_rows',
    'invoices',
    'invoice_items',
    'invoice_addons',
    'transactions',
    'payment_reminders',
    'money_owed',
    'money_owed_days',
  ])
    await database.execute(sql.raw(`vacuum analyze ${table}`));
  return done;
}
