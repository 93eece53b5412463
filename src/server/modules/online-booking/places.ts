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
    sql`select t.capacity,
        (select count(*) from bookings b where b.trip_id = t.id and b.status <> 'cancelled' and b.hold_expires_at is null)::int as taken,
        (select count(*) from bookings b where b.trip_id = t.id and b.status <> 'cancelled' and b.hold_expires_at is not null)::int as held,
        (select coalesce(sum(w.places - w.places_booked), 0) from waiting_list_entries w
          where w.trip_id = t.id and w.state = 'offered' and w.offer_expires_at > ${now}
            and w.id is distinct from ${exceptOffer}::int)::int as offered
      from trips t where t.id = ${tripId}`,
  );
  if (!row) throw notFound('Trip not found');
  const capacity = row.capacity === null ? null : Number(row.capacity);
  const taken = Number(row.taken);
  const held = Number(row.held) + Number(row.offered);
  return { capacity, taken, held, left: capacity === null ? null : Math.max(0, capacity - taken - held) };
}
