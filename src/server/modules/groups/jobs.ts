import type { JobDeps, QueueDefinition } from '../../common/jobs.ts';
import { PupilService } from './pupils.ts';

/** Each hour, the parents' invitations still owed (the server stopped before sending, or the mail server refused a day ago). */
export function jobs(d: JobDeps): QueueDefinition[] {
  const pupils = new PupilService(d);
  return [
    {
      name: 'group-invitations',
      cron: '17 * * * *',
      options: { retryLimit: 2, retryDelay: 60 },
      handler: async () => pupils.inviteOwed(),
    },
  ];
}
