import type { JobDeps, QueueDefinition } from '../../common/jobs.ts';
import { onlineBookingFrom } from './service.ts';
import { waitingListFrom } from './waiting-list.ts';

/** A setup this old is its server's no longer: it stopped before making it. */
const SETUP_LEFT_MS = 30_000;

/**
 * Each minute, the setups of bookings that replied from their rows alone and that their server
 * left (it stopped first) are made, and the places held for deposits not paid in time are let go;
 * then the waiting lists' offers that ran out pass on, and places that are free are offered to the
 * first in line.
 */
export function jobs(d: JobDeps): QueueDefinition[] {
  const service = onlineBookingFrom(d);
  const waitingList = waitingListFrom(d);
  return [
    {
      name: 'online-booking-holds',
      cron: '* * * * *',
      options: { retryLimit: 2, retryDelay: 30 },
      // the holds first: a setup that fails never keeps a place held
      handler: async () => {
        const holds = await service.expireHolds();
        return { ...holds, setups: await service.setups.finishAll(SETUP_LEFT_MS) };
      },
    },
    {
      name: 'waiting-list-offers',
      cron: '* * * * *',
      options: { retryLimit: 2, retryDelay: 30 },
      handler: async () => waitingList.run(),
    },
  ];
}
