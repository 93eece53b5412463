import type { JobDeps, QueueDefinition } from '../../common/jobs.ts';
import { onlineBookingFrom } from './service.ts';

/** Each minute, the places held for deposits not paid in time are let go. */
export function jobs(d: JobDeps): QueueDefinition[] {
  const service = onlineBookingFrom(d);
  return [
    {
      name: 'online-booking-holds',
      cron: '* * * * *',
      options: { retryLimit: 2, retryDelay: 30 },
      handler: async () => service.expireHolds(),
    },
  ];
}
