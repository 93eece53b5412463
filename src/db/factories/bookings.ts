import { makeBookingRef } from '../../shared/booking-ref.ts';
import type { Db } from '../client.ts';
import { bookings } from '../schema/index.ts';

type BookingRow = typeof bookings.$inferInsert;

let n = 0;
export async function insertBooking(db: Db, tripId: number, overrides: Partial<BookingRow> = {}) {
  n += 1;
  const [row] = await db
    .insert(bookings)
    .values({
      ref: makeBookingRef(),
      tripId,
      firstName: 'Traveller',
      lastName: `Number${n}`,
      email: `traveller${n}@example.test`,
      ...overrides,
    })
    .returning();
  return row!;
}
