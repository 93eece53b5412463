import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/support/test-app.ts';
import { queryRows, type Database } from './client.ts';
import { insertBooking } from './factories/bookings.ts';
import { insertTrip } from './factories/trips.ts';
import { insertUser } from './factories/users.ts';
import { bookings, charityTypes, discounts, invoices, transactions, trips, userRoles } from './schema/index.ts';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

// drizzle wraps the driver's error; the constraint's name is in the cause
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const e = error as { message?: string; cause?: { message?: string; constraint?: string } };
    return `${e.cause?.constraint ?? ''} ${e.cause?.message ?? ''} ${e.message ?? ''}`;
  }
  throw new Error('the database accepted it');
}

describe('reference data', () => {
  it('holds the roles and charity types of the spec and every ISO 3166 country', async () => {
    const db = database.db;
    expect(await db.select().from(userRoles).orderBy(userRoles.id)).toEqual([
      { id: 1, name: 'administrator', displayName: 'Administrator' },
      { id: 2, name: 'charity', displayName: 'Charity' },
      { id: 3, name: 'end_user', displayName: 'End User' },
    ]);
    expect((await db.select().from(charityTypes).orderBy(charityTypes.id)).map((t) => t.description)).toEqual([
      'Animal Charity',
      'Armed Forces Charity',
      "Children's Charity",
      'Health/Medical Charity',
      'Hospice',
      'International Aid Charity',
      'Community Charity',
      'Other',
    ]);
    const [c] = await queryRows<{ n: number; gb: string }>(
      db,
      sql`select count(*)::int as n, max(name) filter (where code = 'GB') as gb from countries`,
    );
    expect(c).toEqual({ n: 249, gb: 'United Kingdom' });
  });
});

describe('constraints', () => {
  it('refuses negative money, unknown enum values and impossible dates', async () => {
    const db = database.db;
    const trip = await insertTrip(db);
    expect(await refusal(insertTrip(db, { costPence: -1 }))).toContain('trips_cost_check');
    expect(await refusal(insertTrip(db, { type: 'cruise' }))).toContain('trips_type_check');
    expect(await refusal(insertTrip(db, { level: 6 }))).toContain('trips_level_check');
    expect(await refusal(insertTrip(db, { departureDate: '2027-05-10', returnDate: '2027-05-01' }))).toContain(
      'trips_dates_check',
    );
    expect(await refusal(insertBooking(db, trip.id, { status: 'pending' }))).toContain('bookings_status_check');
    expect(await refusal(insertBooking(db, trip.id, { fundingType: 'lottery' }))).toContain(
      'bookings_funding_type_check',
    );
    expect(await refusal(db.insert(discounts).values({ code: 'X', name: 'x', amountPence: -5 }))).toContain(
      'discounts_amount_check',
    );
    expect(
      await refusal(
        db.insert(discounts).values({
          code: 'Y',
          name: 'y',
          amountPence: 5,
          validFrom: new Date('2027-02-01'),
          validUntil: new Date('2027-01-01'),
        }),
      ),
    ).toContain('discounts_validity_check');
  });

  it('keeps emails and discount codes unique whatever their case', async () => {
    const db = database.db;
    await insertUser(db, { email: 'Same@Example.test' });
    expect(await refusal(insertUser(db, { email: 'same@example.TEST' }))).toContain('users_email_lower_unique');
    await db.insert(discounts).values({ code: 'SUMMER', name: 'Summer', amountPence: 100 });
    expect(await refusal(db.insert(discounts).values({ code: 'summer', name: 'Again', amountPence: 100 }))).toContain(
      'discounts_code_lower_unique',
    );
  });

  it('refuses a payment of nothing and a transaction of an unknown processor', async () => {
    const db = database.db;
    const trip = await insertTrip(db);
    const booking = await insertBooking(db, trip.id);
    const [invoice] = await db
      .insert(invoices)
      .values({
        bookingId: booking.id,
        invoiceRef: 'INV-T1',
        type: 'deposit',
        description: 'Deposit',
        invoiceDate: '2026-11-01',
        dueDate: '2026-11-15',
      })
      .returning();
    const base = {
      bookingId: booking.id,
      invoiceId: invoice!.id,
      invoiceType: 'deposit',
      type: 'payment',
      processor: 'BACS',
      date: '2026-11-02',
    };
    expect(await refusal(db.insert(transactions).values({ ...base, amountPence: 0 }))).toContain(
      'transactions_amount_check',
    );
    expect(await refusal(db.insert(transactions).values({ ...base, amountPence: 100, processor: 'PAYPAL' }))).toContain(
      'transactions_processor_check',
    );
  });

  it('keeps a booking and its invoices when someone tries to delete the trip or the booking outright', async () => {
    const db = database.db;
    const trip = await insertTrip(db);
    const booking = await insertBooking(db, trip.id);
    await db.insert(invoices).values({
      bookingId: booking.id,
      invoiceRef: 'INV-T2',
      type: 'deposit',
      description: 'Deposit',
      invoiceDate: '2026-11-01',
      dueDate: '2026-11-15',
    });
    expect(await refusal(db.delete(trips).where(sql`${trips.id} = ${trip.id}`))).toMatch(/foreign key|violates/);
    expect(await refusal(db.delete(bookings).where(sql`${bookings.id} = ${booking.id}`))).toMatch(
      /foreign key|violates/,
    );
  });
});

describe('the booking’s copy of its trip’s departure date', () => {
  it('is set on insert, follows a move to another trip and a change of the trip’s date', async () => {
    const db = database.db;
    const a = await insertTrip(db, { departureDate: '2099-01-10', returnDate: '2099-01-20' });
    const b = await insertTrip(db, { departureDate: '2099-02-10', returnDate: '2099-02-20' });
    const booking = await insertBooking(db, a.id);
    const departure = async () =>
      (
        await db
          .select({ d: bookings.tripDeparture })
          .from(bookings)
          .where(sql`${bookings.id} = ${booking.id}`)
      )[0]!.d;
    expect(await departure()).toBe('2099-01-10');
    await db
      .update(bookings)
      .set({ tripId: b.id })
      .where(sql`${bookings.id} = ${booking.id}`);
    expect(await departure()).toBe('2099-02-10');
    await db
      .update(trips)
      .set({ departureDate: '2099-02-12' })
      .where(sql`${trips.id} = ${b.id}`);
    expect(await departure()).toBe('2099-02-12');
  });
});

describe('indexes', () => {
  it('serve the booking list: the default sort, the trip filter and the text searches', async () => {
    const rows = await queryRows<{ indexname: string }>(
      database.db,
      sql`select indexname from pg_indexes where tablename = 'bookings'`,
    );
    expect(rows.map((r) => r.indexname)).toEqual(
      expect.arrayContaining([
        'bookings_created_idx',
        'bookings_trip_created_idx',
        'bookings_user_idx',
        'bookings_name_trgm_idx',
        'bookings_email_trgm_idx',
        'bookings_ref_trgm_idx',
        'bookings_deposit_paid_idx',
        'bookings_room_ref_idx',
        'bookings_traveller_name_idx',
      ]),
    );
  });
});

describe('the trigger functions’ plans', () => {
  it('are kept once per session: every PL/pgSQL function runs with plan_cache_mode = force_generic_plan', async () => {
    // CREATE OR REPLACE FUNCTION drops the setting: a migration that replaces one must set it again
    const rows = await queryRows<{ name: string; config: string[] | null }>(
      database.db,
      sql`select p.proname as name, p.proconfig as config
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
          where n.nspname = current_schema() and l.lanname = 'plpgsql' order by 1`,
    );
    expect(rows.length).toBeGreaterThan(10);
    expect(
      rows.filter((r) => !(r.config ?? []).includes('plan_cache_mode=force_generic_plan')).map((r) => r.name),
    ).toEqual([]);
  });
});

describe('the connections', () => {
  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))(
    'run each query without parallel workers, on every connection of the pool (decision 034)',
    async () => {
      const db = database.db;
      // several at once, so that the pool opens more than one connection
      const settings = await Promise.all(
        Array.from({ length: 4 }, () =>
          queryRows<{ workers: string; pid: number }>(
            db,
            sql`select current_setting('max_parallel_workers_per_gather') as workers, pg_backend_pid() as pid, pg_sleep(0.05)`,
          ),
        ),
      );
      expect(new Set(settings.map(([r]) => r!.pid)).size).toBeGreaterThan(1);
      expect(settings.map(([r]) => r!.workers)).toEqual(['0', '0', '0', '0']);
    },
  );
});
