import type { Db } from '../../../db/client.ts';
import type { QueueDefinition } from '../../jobs/queue.ts';
import { ScheduleService } from './service.ts';

export const BACKFILL_BATCH = 500;

/**
 * Bookings made before payment plans existed get their schedules, a batch per job; a full batch
 * sends the next one. Sent at every start (one job however many servers start).
 */
export const scheduleBackfillQueue = (db: Db): QueueDefinition<{ after?: number }> => ({
  name: 'schedule-backfill',
  handler: async (job, queue) => {
    const { looked, last } = await new ScheduleService(db).backfill(BACKFILL_BATCH, job.data.after ?? 0, queue.stopping);
    // the next batch starts after this one's last booking, so a booking that gets no schedule
    // (its trip has no price yet) is not looked at again and again; stopped early, the next
    // start picks up where this one left off
    if (looked === BACKFILL_BATCH && !queue.stopping.aborted) await queue.send('schedule-backfill', { after: last });
    return { bookings: looked };
  },
});
