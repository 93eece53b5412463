import type { Db } from '../../db/client.ts';
import { purgeAuditEvents } from '../audit/retention.ts';
import type { Config } from '../config.ts';
import { sweepOrphanFiles } from '../files-sweep.ts';
import { purgeExpired } from '../modules/auth/service.ts';
import { purgeSignInLinks } from '../modules/my/service.ts';
import { purgeExpiredOAuth } from '../modules/oauth/purge.ts';
import type { FileStore } from '../../shared/storage/index.ts';
import type { JobDeps, QueueDefinition } from '../common/jobs.ts';

/**
 * Expired sessions, sign-in failures and emailed sign-in links, OAuth rows long expired, history past its retention,
 * and uploaded files no record names: once an hour, by one worker however many servers run.
 */
export async function housekeeping(db: Db, config: Config, files: FileStore): Promise<{ files: number }> {
  await purgeExpired(db);
  await purgeExpiredOAuth(db);
  await purgeSignInLinks(db);
  await purgeAuditEvents(db, config.auditRetentionDays);
  const swept = await sweepOrphanFiles(db, files);
  return { files: swept.logos + swept.documents + swept.passports };
}

export function jobs({ db, config, files: store }: Pick<JobDeps, 'db' | 'config' | 'files'>): QueueDefinition[] {
  return [
    {
      name: 'housekeeping',
      cron: '17 * * * *',
      // a run that fails is simply the next hour's work
      options: { retryLimit: 1, retryDelay: 300 },
      handler: async () => {
        const { files } = await housekeeping(db, config, store);
        if (files) console.log(`Removed ${files} uploaded file${files === 1 ? '' : 's'} that no record names.`);
        return { files };
      },
    },
  ];
}
