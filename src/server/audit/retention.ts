import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { audit, asSystem } from './audit.ts';

/**
 * Removes events older than the retention period (AUDIT_RETENTION_DAYS, seven years by default)
 * and records one event saying how many went. The database lets these deletes through only in
 * a transaction that says it is this job, and only for events over a year old (migration 0010).
 */
export async function purgeAuditEvents(db: Db, retentionDays: number): Promise<number> {
  return asSystem('audit retention', () =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('tripdesk.audit_retention', 'purge', true)`);
      const removed = await tx.execute(
        sql`delete from audit_events where at < now() - make_interval(days => ${retentionDays})`,
      );
      const n = Number(
        (removed as { affectedRows?: number; rowCount?: number }).affectedRows ??
          (removed as { rowCount?: number }).rowCount ??
          0,
      );
      await tx.execute(sql`select set_config('tripdesk.audit_retention', '', true)`);
      if (n > 0) {
        await audit(tx, {
          action: 'audit.purged',
          subject: { type: 'audit_events', id: null },
          summary: `removed ${n.toLocaleString('en-GB')} history event${n === 1 ? '' : 's'} older than ${retentionDays} days`,
          details: { removed: n, retention_days: retentionDays },
        });
      }
      return n;
    }),
  );
}
