import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { oauthAccessTokens, oauthClients, personalAccessTokens, users } from '../../../db/schema/index.ts';
import { authColumns, type AuthUser } from '../auth/service.ts';
import { PREFIX, sha256 } from './tokens.ts';

export type BearerGrant = {
  kind: 'personal' | 'oauth';
  tokenId: string;
  scopes: string[];
  /** the OAuth client, for access tokens */
  clientId: string | null;
  /** the user the token acts for: its user, or for a client_credentials token the client's owner */
  user: AuthUser;
};

// last_used_at is written at most this often, so a busy integration costs no write per request
const TOUCH_EVERY_MS = 60_000;

const userColumns = authColumns;

/** The grant a bearer token carries, or null when it is unknown, revoked or expired. */
export async function findBearer(db: Db, token: string): Promise<BearerGrant | null> {
  const now = new Date();
  const hash = sha256(token);
  const stale = new Date(now.getTime() - TOUCH_EVERY_MS);

  if (token.startsWith(PREFIX.personal)) {
    const [row] = await db
      .select({
        id: personalAccessTokens.id,
        scopes: personalAccessTokens.scopes,
        revoked: personalAccessTokens.revoked,
        expiresAt: personalAccessTokens.expiresAt,
        lastUsedAt: personalAccessTokens.lastUsedAt,
        user: userColumns,
      })
      .from(personalAccessTokens)
      .innerJoin(users, eq(users.id, personalAccessTokens.userId))
      .where(eq(personalAccessTokens.tokenHash, hash));
    if (!row || row.revoked || row.expiresAt <= now) return null;
    if (!row.lastUsedAt || row.lastUsedAt < stale) {
      await db
        .update(personalAccessTokens)
        .set({ lastUsedAt: now })
        .where(
          and(
            eq(personalAccessTokens.id, row.id),
            or(isNull(personalAccessTokens.lastUsedAt), lt(personalAccessTokens.lastUsedAt, stale)),
          ),
        );
    }
    return { kind: 'personal', tokenId: row.id, scopes: row.scopes, clientId: null, user: row.user };
  }

  if (token.startsWith(PREFIX.access)) {
    const [row] = await db
      .select({
        id: oauthAccessTokens.id,
        scopes: oauthAccessTokens.scopes,
        revoked: oauthAccessTokens.revoked,
        expiresAt: oauthAccessTokens.expiresAt,
        lastUsedAt: oauthAccessTokens.lastUsedAt,
        clientId: oauthClients.id,
        clientRevoked: oauthClients.revoked,
        user: userColumns,
      })
      .from(oauthAccessTokens)
      .innerJoin(oauthClients, eq(oauthClients.id, oauthAccessTokens.clientId))
      // a client_credentials token has no user of its own: it acts for the client's owner
      .innerJoin(users, eq(users.id, sql`coalesce(${oauthAccessTokens.userId}, ${oauthClients.userId})`))
      .where(eq(oauthAccessTokens.tokenHash, hash));
    if (!row || row.revoked || row.clientRevoked || row.expiresAt <= now) return null;
    if (!row.lastUsedAt || row.lastUsedAt < stale) {
      await db
        .update(oauthAccessTokens)
        .set({ lastUsedAt: now })
        .where(
          and(
            eq(oauthAccessTokens.id, row.id),
            or(isNull(oauthAccessTokens.lastUsedAt), lt(oauthAccessTokens.lastUsedAt, stale)),
          ),
        );
    }
    return { kind: 'oauth', tokenId: row.id, scopes: row.scopes, clientId: row.clientId, user: row.user };
  }

  return null;
}
