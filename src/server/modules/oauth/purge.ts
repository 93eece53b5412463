import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';

/** How long expired OAuth rows are kept, for the developer page's history and replay checks. */
export const OAUTH_KEEP_DAYS = 30;

/**
 * Deletes what expired more than OAUTH_KEEP_DAYS ago and nothing still depends on: refresh
 * tokens, then access tokens with no refresh token left, then codes no kept token came from
 * (a code behind a live token family stays, so a late replay still revokes it), and personal
 * tokens. Called at start and hourly beside the session purge.
 */
export async function purgeExpiredOAuth(db: Db): Promise<void> {
  const before = sql`now() - make_interval(days => ${OAUTH_KEEP_DAYS})`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from oauth_refresh_tokens where expires_at < ${before}`);
    await tx.execute(
      sql`delete from oauth_access_tokens a where a.expires_at < ${before} and not exists (select 1 from oauth_refresh_tokens r where r.access_token_id = a.id)`,
    );
    await tx.execute(
      sql`delete from oauth_auth_codes c where c.expires_at < ${before} and not exists (select 1 from oauth_access_tokens a where a.auth_code_id = c.id)`,
    );
    await tx.execute(sql`delete from personal_access_tokens where expires_at < ${before}`);
  });
}
