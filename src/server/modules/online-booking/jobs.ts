import type { JobDeps, QueueDefinition } from '../../common/jobs.ts';
import { onlineBookingFrom } from './service.ts';
import { waitingListFrom } from './waiting-list.ts';

/**
 * Each minute, the places held for deposits not paid in time are let go; then the waiting lists'
 * offers that ran out pass on, and places that are free are offered to the first in line.
 */
export function jobs(d: JobDeps): QueueDefinition[] {
  const service = onlineBookingFrom(d);
  const waitingList = waitingListFrom(d);
  return [
    {
      name: 'online-booking-holds',
      cron: '* * * * *',
      options: { retryLimit: 2, retryDelay: 30 },
      handler: async () => service.expireHolds(),
    },
    {
      name: 'waiting-list-offers',
      cron: '* * * * *',
      options: { retryLimit: 2, retryDelay: 30 },
      handler: async () => waitingList.run(),
    },
  ];
}
