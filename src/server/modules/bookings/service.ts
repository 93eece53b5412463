import { eq } from 'drizzle-orm';
import type { CreatedBooking } from '../../../contract/bookings.ts';
import type { Db } from '../../../db/client.ts';
import { bookings, trips } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { validationError } from '../../errors.ts';
import { makeBookingRef } from '../../../shared/booking-ref.ts';
import { ukToday } from '../../../contract/dates.ts';
import { endUserFor, isNewBookingClash } from '../users/end-user.ts';
import { fundingOf } from './funding.ts';
import type { FundingType } from '../../../contract/booking-constants.ts';
import { ScheduleService } from '../schedules/service.ts';

type NewBooking = {
  trip_id: number;
  title: string;
  first_name: string;
  last_name: string;
  preferred_name: string;
  email: string;
  mobile: string | null;
  funding_type: FundingType;
  charity_id: number | null;
};

export class BookingService {
  constructor(private readonly db: Db) {}

  /**
   * A new booking is provisional (its registration fee is not paid yet), has its own reference,
   * and belongs to the user with that email, made as an End User when there is none.
   */
  async create(v: NewBooking): Promise<CreatedBooking> {
    const [trip] = await this.db
      .select({
        id: trips.id,
        name: trips.name,
        status: trips.status,
        deletedAt: trips.deletedAt,
        charityId: trips.charityId,
        type: trips.type,
        funding: trips.funding,
      })
      .from(trips)
      .where(eq(trips.id, v.trip_id));
    if (!trip || trip.deletedAt) throw validationError({ trip_id: ['The selected trip is invalid.'] });
    if (trip.status !== 'open')
      throw validationError({ trip_id: [`This trip is ${trip.status} and is not taking bookings.`] });
    const funding = await fundingOf(this.db, trip, v.funding_type, v.charity_id);
    if (!funding.ok) throw validationError(funding.errors);

    // a reference is random; on the rare clash, draw again
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction(async (tx) => {
          const account = await endUserFor(tx, v);
          const userId = account.id;
          const now = new Date();
          const [row] = await tx
            .insert(bookings)
            .values({
              ref: makeBookingRef(),
              tripId: v.trip_id,
              userId,
              charityId: funding.charity?.id ?? null,
              fundingType: funding.fundingType,
              status: 'provisional',
              title: v.title,
              firstName: v.first_name,
              lastName: v.last_name,
              preferredName: v.preferred_name,
              email: v.email,
              mobile: v.mobile,
              asOnPassport: true,
              termsAcceptedAt: now,
            })
            .returning();
          await audit(tx, {
            action: 'booking.created',
            subject: { type: 'booking', id: row!.id },
            bookingId: row!.id,
            tripId: row!.tripId,
            summary: `made the booking ${row!.ref} for ${row!.firstName} ${row!.lastName} on ${trip.name}`,
            details: {
              ref: row!.ref,
              status: row!.status,
              new_user: account.created,
              funding_type: row!.fundingType,
              charity: funding.charity?.name ?? null,
            },
          });
          // what the traveller will pay when, from the trip's payment plan
          await new ScheduleService(this.db).createFor(tx, {
            id: row!.id,
            tripId: row!.tripId,
            bookedOn: ukToday(now),
          });
          return {
            id: row!.id,
            ref: row!.ref,
            status: row!.status,
            trip_id: row!.tripId,
            user_id: row!.userId,
            title: row!.title,
            first_name: row!.firstName,
            last_name: row!.lastName,
            preferred_name: row!.preferredName,
            email: row!.email,
            mobile: row!.mobile,
            funding_type: row!.fundingType as FundingType,
            charity_id: row!.charityId,
            created_at: row!.createdAt.toISOString(),
          };
        });
      } catch (error) {
        if (attempt < 4 && isNewBookingClash(error)) continue;
        throw error;
      }
    }
  }
}
