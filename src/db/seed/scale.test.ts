import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/support/test-app.ts';
import { BOOKING_REF_ALPHABET } from '../../shared/booking-ref.ts';
import { queryRows, type Database } from '../client.ts';
import { insertBooking } from '../factories/bookings.ts';
import { insertTrip } from '../factories/trips.ts';
import { GENERATED_REFS, generatedRef, seedScale } from './scale.ts';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const refsOf = async (like: string) =>
  (await queryRows<{ ref: string }>(database.db, sql`select ref from bookings where ref like ${like} order by id`)).map(
    (r) => r.ref,
  );

describe('the generated bookings’ references', () => {
  it('look like the app’s, each its own, and are told apart from the app’s by their length', async () => {
    const trip = await insertTrip(database.db, {
      name: 'Busy Trek',
      departureDate: '2099-05-01',
      returnDate: '2099-05-08',
    });
    const made = await insertBooking(database.db, trip.id);
    await seedScale(database.db, 150, () => {}, 100);
    const first = await refsOf(GENERATED_REFS);
    // a second run goes on from the row number the first reached
    await seedScale(database.db, 150, () => {}, 100);
    const all = await refsOf(GENERATED_REFS);

    expect(all).toHaveLength(300);
    expect(all.slice(0, 150)).toEqual(first);
    expect(new Set(all).size).toBe(300);
    const shape = new RegExp(`^TD-[${BOOKING_REF_ALPHABET}]{7}$`);
    for (const ref of all) expect(ref).toMatch(shape);
    // the app's own (TD- and six) is never taken for a generated one
    expect(made.ref).toMatch(new RegExp(`^TD-[${BOOKING_REF_ALPHABET}]{6}$`));
    expect(all).not.toContain(made.ref);
    expect(await refsOf('TD-%')).toHaveLength(301);
  });

  it('are different for every row number of a large office', async () => {
    const [counted] = await queryRows<{ n: number; distinct: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct ${generatedRef('g')})::int as distinct
        from generate_series(1, 100000) g`,
    );
    expect(counted).toEqual({ n: 100_000, distinct: 100_000 });
  });
});
