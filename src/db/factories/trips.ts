import type { Db } from '../client.ts';
import { tripAddons, trips } from '../schema/index.ts';

type TripRow = typeof trips.$inferInsert;

let n = 0;
/** A trip, open, in Tanzania, departing in 120 days unless told otherwise. */
export async function insertTrip(db: Db, overrides: Partial<TripRow> = {}) {
  n += 1;
  const departure = new Date(Date.now() + 120 * 86_400_000);
  const back = new Date(departure.getTime() + 9 * 86_400_000);
  const [row] = await db
    .insert(trips)
    .values({
      name: `Test Trek ${n}`,
      countryId: 834,
      departureDate: departure.toISOString().slice(0, 10),
      returnDate: back.toISOString().slice(0, 10),
      depositPence: 25_000,
      costPence: 189_500,
      ...overrides,
    })
    .returning();
  return row!;
}

export async function insertAddon(db: Db, tripId: number, name = 'Single room supplement', pricePence = 25_000) {
  const [row] = await db.insert(tripAddons).values({ tripId, name, pricePence }).returning();
  return row!;
}
