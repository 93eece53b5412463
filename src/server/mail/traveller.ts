import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings, trips } from '../../db/schema/index.ts';
import { emailDate, type TemplateContext } from './templates.ts';

/** What an email about a booking needs of it: whom it goes to, and the trip. */
export async function travellerOf(db: Db, bookingId: number) {
  const [b] = await db
    .select({
      id: bookings.id,
      userId: bookings.userId,
      ref: bookings.ref,
      title: bookings.title,
      firstName: bookings.firstName,
      lastName: bookings.lastName,
      preferredName: bookings.preferredName,
      email: bookings.email,
      tripId: bookings.tripId,
      tripName: trips.name,
      departure: trips.departureDate,
    })
    .from(bookings)
    .innerJoin(trips, eq(trips.id, bookings.tripId))
    .where(eq(bookings.id, bookingId));
  return b ?? null;
}
export type TravellerOf = NonNullable<Awaited<ReturnType<typeof travellerOf>>>;

/** The traveller and trip of a template's context. */
export const travellerContext = (b: TravellerOf): Pick<Required<TemplateContext>, 'traveller' | 'trip'> => ({
  traveller: { title: b.title, first_name: b.firstName, last_name: b.lastName, preferred_name: b.preferredName },
  trip: { name: b.tripName, departure: emailDate(b.departure) },
});
