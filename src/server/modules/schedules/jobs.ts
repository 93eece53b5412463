import type { Db } from '../../../db/client.ts';
import type { QueueDefinition } from '../../jobs/queue.ts';
import { ScheduleService } from './service.ts';

export const BACKFILL_BATCH = 500;

/**
 * Bookings made before payment plans existed get their schedules, a batch per job; a full batch
 * sends the next one. Sent at every start (one job however many servers start).
 */
export const scheduleBackfillQueue = (db: Db): QueueDefinition => ({
  name: 'schedule-backfill',
  handler: async (_job, queue) => {
    const done = await new ScheduleService(db).backfill(BACKFILL_BATCH);
    if (done === BACKFILL_BATCH) await queue.send('schedule-backfill', {});
    return { bookings: done };
  },
});
