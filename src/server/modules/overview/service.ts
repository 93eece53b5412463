import { and, asc, count, eq, gte, isNull, ne, sql } from 'drizzle-orm';
import type { Overview } from '../../../contract/overview.ts';
import type { Db } from '../../../db/client.ts';
import { bookings, charities, countries, trips } from '../../../db/schema/index.ts';

const today = () => new Date().toISOString().slice(0, 10);

export async function getOverview(db: Db): Promise<Overview> {
  const live = and(isNull(trips.deletedAt), isNull(trips.archivedAt), gte(trips.departureDate, today()));
  const [byStatus, upcoming, charityCount, next] = await Promise.all([
    db
      .select({
        total: count(),
        provisional: sql<number>`count(*) filter (where ${bookings.status} = 'provisional')`.mapWith(Number),
        confirmed: sql<number>`count(*) filter (where ${bookings.status} = 'confirmed')`.mapWith(Number),
        cancelled: sql<number>`count(*) filter (where ${bookings.status} = 'cancelled')`.mapWith(Number),
        recent: sql<number>`count(*) filter (where ${bookings.createdAt} > now() - interval '30 days')`.mapWith(Number),
      })
      .from(bookings),
    db.select({ n: count() }).from(trips).where(live),
    db.select({ n: count() }).from(charities),
    db
      .select({
        id: trips.id,
        name: trips.name,
        country: countries.name,
        departure: trips.departureDate,
        return: trips.returnDate,
        status: trips.status,
        booking_count:
          sql<number>`(select count(*) from ${bookings} b where b.trip_id = ${trips}.id and b.status <> 'cancelled')`.mapWith(
            Number,
          ),
      })
      .from(trips)
      .innerJoin(countries, eq(countries.id, trips.countryId))
      .where(and(live, ne(trips.status, 'cancelled')))
      .orderBy(asc(trips.departureDate), asc(trips.id))
      .limit(6),
  ]);
  const b = byStatus[0]!;
  return {
    bookings: {
      total: Number(b.total),
      provisional: b.provisional,
      confirmed: b.confirmed,
      cancelled: b.cancelled,
      received_last_30_days: b.recent,
    },
    upcoming_trips: Number(upcoming[0]?.n ?? 0),
    charities: Number(charityCount[0]?.n ?? 0),
    next_departures: next,
  };
}
