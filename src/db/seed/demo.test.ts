import { existsSync, rmSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/support/test-app.ts';
import { queryRows, type Database } from '../client.ts';
import { seedDemo } from './demo.ts';

let a: Database;
let b: Database;
const today = new Date('2026-11-22T00:00:00Z');
const dirs = [mkdtempSync(path.join(os.tmpdir(), 'demo-a-')), mkdtempSync(path.join(os.tmpdir(), 'demo-b-'))] as const;
beforeAll(async () => {
  [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  await seedDemo(a.db, { dataDir: dirs[0], today: new Date(today) });
  await seedDemo(b.db, { dataDir: dirs[1], today: new Date(today) });
  // the whole demo office, beside another test file on a two-core machine: longer than a minute at worst
}, 240_000);
afterAll(async () => {
  await a.close();
  await b.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const distinct = async (query: ReturnType<typeof sql>) =>
  (await queryRows<{ v: string }>(a.db, query)).map((r) => String(r.v)).sort();

describe('the demo office', () => {
  it('is the same every run', async () => {
    const q = sql`select string_agg(ref || first_name || last_name || status || created_at::text, ',' order by id) as v from bookings`;
    const [x] = await queryRows<{ v: string }>(a.db, q);
    const [y] = await queryRows<{ v: string }>(b.db, q);
    expect(x!.v.length).toBeGreaterThan(1000);
    expect(x!.v).toBe(y!.v);
  });

  it('is loaded once only', async () => {
    expect(await seedDemo(a.db, { dataDir: os.tmpdir() })).toBeNull();
  });

  it('has several hundred bookings over every status, funding type and passport state, past and future', async () => {
    const [n] = await queryRows<{ n: number }>(a.db, sql`select count(*)::int as n from bookings`);
    expect(n!.n).toBeGreaterThanOrEqual(300);
    expect(await distinct(sql`select distinct status as v from bookings`)).toEqual([
      'cancelled',
      'confirmed',
      'provisional',
    ]);
    expect(await distinct(sql`select distinct funding_type as v from bookings`)).toEqual([
      'flexi',
      'free',
      'fundraise',
      'self',
    ]);
    const passport = sql`case when b.passport_expiry_date is null then 'missing'
      when b.passport_expiry_date < t.return_date then 'expired'
      when b.passport_expiry_date < t.return_date + interval '6 months' then 'expires' else 'ok' end`;
    expect(
      await distinct(sql`select distinct ${passport} as v from bookings b join trips t on t.id = b.trip_id`),
    ).toEqual(['expired', 'expires', 'missing', 'ok']);
    expect(
      await distinct(
        sql`select distinct (t.departure_date > ${'2026-11-22'}::date)::text as v from bookings b join trips t on t.id = b.trip_id`,
      ),
    ).toEqual(['false', 'true']);
  });

  it('has trips of each type, level and status, some archived and one deleted', async () => {
    expect(await distinct(sql`select distinct type as v from trips`)).toEqual(['charity', 'open', 'school']);
    expect(await distinct(sql`select distinct level::text as v from trips`)).toEqual(['1', '2', '3', '4', '5']);
    expect(await distinct(sql`select distinct status as v from trips`)).toEqual([
      'cancelled',
      'closed',
      'full',
      'open',
    ]);
    const [c] = await queryRows<{ archived: number; deleted: number; countries: number }>(
      a.db,
      sql`select count(archived_at)::int as archived, count(deleted_at)::int as deleted, count(distinct country_id)::int as countries from trips`,
    );
    expect(c!.archived).toBeGreaterThanOrEqual(2);
    expect(c!.deleted).toBe(1);
    expect(c!.countries).toBeGreaterThanOrEqual(10);
  });

  it('has invoices paid, part-paid and unpaid, with payments, refunds and a struck-out entry', async () => {
    const states = await distinct(sql`
      select distinct case when paid = 0 then 'unpaid' when paid >= total then 'paid' else 'part' end as v from (
        select i.id,
          (select coalesce(sum(amount_pence), 0) from invoice_items where invoice_id = i.id)
            + (select coalesce(sum(price_pence), 0) from invoice_addons where invoice_id = i.id) - i.discount_pence as total,
          (select coalesce(sum(case when type = 'payment' then amount_pence else -amount_pence end), 0)
             from transactions where invoice_id = i.id and deleted_at is null) as paid
        from invoices i) x`);
    expect(states).toEqual(['paid', 'part', 'unpaid']);
    expect(await distinct(sql`select distinct type as v from transactions`)).toEqual(['payment', 'refund']);
    const [d] = await queryRows<{ n: number }>(
      a.db,
      sql`select count(*)::int as n from transactions where deleted_at is not null and deleted_by is not null`,
    );
    expect(d!.n).toBeGreaterThan(0);
  });

  it('has notes, add-ons (some invoiced), custom fields with answers, documents and discounts of every validity form', async () => {
    const [c] = await queryRows<Record<string, number>>(
      a.db,
      sql`select
      (select count(*)::int from booking_notes) as notes,
      (select count(*)::int from booking_addons where invoiced) as invoiced,
      (select count(*)::int from booking_addons where not invoiced) as not_invoiced,
      (select count(*)::int from booking_custom_field_answers) as answers,
      (select count(*)::int from trip_documents where stored_file is not null) as documents,
      (select count(*)::int from discounts where valid_from is not null and valid_until is not null) as both_dates,
      (select count(*)::int from discounts where valid_from is not null and valid_until is null) as from_only,
      (select count(*)::int from discounts where valid_from is null and valid_until is not null) as until_only,
      (select count(*)::int from discounts where valid_from is null and valid_until is null) as unrestricted`,
    );
    for (const [key, value] of Object.entries(c!)) expect(value, key).toBeGreaterThan(0);
  });

  it('has users of every role and charities of every type, some with real PNG logos on disk', async () => {
    expect(await distinct(sql`select distinct user_role_id::text as v from users`)).toEqual(['1', '2', '3']);
    expect(await distinct(sql`select distinct charity_type_id::text as v from charities`)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
    ]);
    const logos = await queryRows<{ logo_file: string }>(
      a.db,
      sql`select logo_file from charities where logo_file is not null`,
    );
    expect(logos.length).toBeGreaterThan(3);
  });
});

describe('demo dates', () => {
  it('puts nothing in the future that has already happened', async () => {
    const [c] = await queryRows<Record<string, number>>(
      a.db,
      sql`select
      (select count(*)::int from transactions where date > ${'2026-11-22'}::date) as transactions,
      (select count(*)::int from bookings where deposit_payment_date > ${'2026-11-22'}::date) as deposits`,
    );
    expect(c).toEqual({ transactions: 0, deposits: 0 });
  });

  it('takes every instant it records from the today it is given, in every table', async () => {
    // every timestamp of something that happened (created, updated, uploaded, used…); expiries are in the future by design
    const columns = await queryRows<{ table_name: string; column_name: string }>(
      a.db,
      sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type = 'timestamp with time zone' and column_name not like 'expires%'
      order by table_name, column_name`,
    );
    expect(columns.length).toBeGreaterThan(20);
    const future: string[] = [];
    for (const { table_name, column_name } of columns) {
      const [row] = await queryRows<{ n: number }>(
        a.db,
        sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${sql.identifier(column_name)} > ${'2026-11-23'}::timestamptz`,
      );
      if (row!.n > 0) future.push(`${table_name}.${column_name}: ${row!.n}`);
    }
    expect(future).toEqual([]);
  });
});

describe('demo files', () => {
  it('writes logos as real PNGs under DATA_DIR/files/logos', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'demo-files-'));
    const db = await createTestDatabase();
    await seedDemo(db.db, { dataDir, today: new Date(today) });
    const [row] = await queryRows<{ logo_file: string }>(
      db.db,
      sql`select logo_file from charities where logo_file is not null limit 1`,
    );
    const file = path.join(dataDir, 'files', 'logos', row!.logo_file);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
    // the whole demo office is made: beside another test file on a two-core machine, longer than 30 s
  }, 120_000);
});
