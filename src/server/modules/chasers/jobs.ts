import type { QueueDefinition } from '../../jobs/queue.ts';
import type { ChaserService } from './service.ts';

export const chaserQueue = (service: ChaserService): QueueDefinition => ({
  name: 'chasers',
  // every hour at twenty past: the day's passport and forms chasers, in sending hours (a refused one is tried again next hour)
  cron: '20 * * * *',
  options: { retryLimit: 2, retryDelay: 300 },
  handler: async () => service.run(),
});
