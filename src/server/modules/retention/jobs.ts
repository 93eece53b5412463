import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../clock.ts';
import type { QueueDefinition } from '../../jobs/queue.ts';
import type { FileStore } from '../../../shared/storage/index.ts';
import { RetentionService } from './service.ts';

/** Erasure after return (issue 18): each night, by one worker however many servers run. */
export const retentionQueue = (db: Db, files: FileStore, days: number, clock: Pick<Clock, 'now'>): QueueDefinition => ({
  name: 'retention',
  cron: '30 2 * * *',
  // a run that fails is simply the next night's work; each booking is erased at most once
  options: { retryLimit: 2, retryDelay: 600 },
  handler: async () => new RetentionService(db, files, days, clock).run(),
});
