import { z } from 'zod';

/** The start page of the back office: what is coming up and how bookings stand. */
export const overviewSchema = z.object({
  bookings: z.object({
    total: z.number().int(),
    provisional: z.number().int(),
    confirmed: z.number().int(),
    cancelled: z.number().int(),
    received_last_30_days: z.number().int(),
  }),
  upcoming_trips: z.number().int(),
  charities: z.number().int(),
  next_departures: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      country: z.string(),
      departure: z.string(),
      return: z.string(),
      status: z.string(),
      booking_count: z.number().int(),
    }),
  ),
});
export type Overview = z.infer<typeof overviewSchema>;
