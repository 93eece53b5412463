import { sql } from 'drizzle-orm';
import type { Places } from '../../../contract/online-booking.ts';
import { queryRows, type Db, type Tx } from '../../../db/client.ts';
import { notFound } from '../../errors.ts';

/**
 * A trip's places: taken (confirmed, and provisional not on hold), held (bookings on hold for
 * their deposits, and the places a waiting list's offer holds until it expires), and what is
 * left of its capacity. `exceptOffer`: an offer whose own places count as free (its holder books).
 */
export async function placesOf(
  db: Db | Tx,
  tripId: number,
  now: Date,
  exceptOffer: number | null = null,
): Promise<Places> {
  const [row] = await queryRows<{ capacity: number | null; taken: number; held: number; offered: number }>(
    db,
    sql`select t.capacity, p.taken, p.held, p.offered
      from trips t cross join lateral trip_places(t.id, ${now}::timestamptz, ${exceptOffer}::int) p
      where t.id = ${tripId}`,
  );
  if (!row) throw notFound('Trip not found');
  return placesFrom(row);
}

/** The places from a trip's capacity and its `trip_places` counts (the database's function, migration 0054). */
export function placesFrom(row: { capacity: number | null; taken: number; held: number; offered: number }): Places {
  const capacity = row.capacity === null ? null : Number(row.capacity);
  const taken = Number(row.taken);
  const held = Number(row.held) + Number(row.offered);
  return { capacity, taken, held, left: capacity === null ? null : Math.max(0, capacity - taken - held) };
}
