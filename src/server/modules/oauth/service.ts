import { audit, describeChanges, diff } from '../../audit/audit.ts';
import { and, asc, desc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type {
  AuthorizedApplication,
  ClientInput,
  CreatedPersonalToken,
  OAuthClient,
  PersonalToken,
  PersonalTokenInput,
  Scope,
} from '../../../contract/oauth.ts';
import { clientInputSchema, personalTokenInputSchema } from '../../../contract/oauth.ts';
import type { Db } from '../../../db/client.ts';
import {
  oauthAccessTokens,
  oauthAuthCodes,
  oauthClients,
  oauthRefreshTokens,
  oauthScopes,
  personalAccessTokens,
} from '../../../db/schema/index.ts';
import { notFound, validationError } from '../../errors.ts';
import { addSeconds, clientSecret, isUuid, PREFIX, randomToken, sha256 } from './tokens.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

const toClient = (r: typeof oauthClients.$inferSelect): OAuthClient => ({
  id: r.id,
  name: r.name,
  secret: r.secret,
  redirect: r.redirect,
  created_at: r.createdAt.toISOString(),
});

const toPersonalToken = (r: typeof personalAccessTokens.$inferSelect): PersonalToken => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes,
  created_at: r.createdAt.toISOString(),
  expires_at: r.expiresAt.toISOString(),
  last_used_at: iso(r.lastUsedAt),
});

/** Access tokens, and the refresh tokens issued with them, that a person or a rule ends. */
export async function revokeAccessTokens(tx: Db | Tx, where: SQL | undefined): Promise<void> {
  const ids = tx.select({ id: oauthAccessTokens.id }).from(oauthAccessTokens).where(where);
  await tx.update(oauthRefreshTokens).set({ revoked: true }).where(inArray(oauthRefreshTokens.accessTokenId, ids));
  await tx.update(oauthAccessTokens).set({ revoked: true }).where(where);
}

/** Marks unexchanged authorization codes used, so none of them can be turned into tokens any more. */
export async function retireCodes(tx: Db | Tx, where: SQL | undefined): Promise<void> {
  await tx
    .update(oauthAuthCodes)
    .set({ usedAt: new Date() })
    .where(and(where, isNull(oauthAuthCodes.usedAt)));
}

/** The defined scopes (seeded by migration 0002), in a stable order. */
export async function listScopes(db: Db): Promise<Scope[]> {
  return db
    .select({ id: oauthScopes.id, description: oauthScopes.description })
    .from(oauthScopes)
    .orderBy(asc(oauthScopes.id));
}

/** Which of these ids are not defined scopes. */
export async function unknownScopes(db: Db, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const known = new Set(
    (await db.select({ id: oauthScopes.id }).from(oauthScopes).where(inArray(oauthScopes.id, ids))).map((r) => r.id),
  );
  return ids.filter((id) => !known.has(id));
}

/** A user's own OAuth clients (spec §6): someone else's client is simply not found. */
export class ClientService {
  constructor(private readonly db: Db) {}

  async list(userId: number): Promise<OAuthClient[]> {
    const rows = await this.db
      .select()
      .from(oauthClients)
      .where(and(eq(oauthClients.userId, userId), eq(oauthClients.revoked, false)))
      .orderBy(asc(oauthClients.createdAt), asc(oauthClients.id));
    return rows.map(toClient);
  }

  async create(userId: number, input: ClientInput): Promise<OAuthClient> {
    const v = clientInputSchema.parse(input);
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(oauthClients)
        .values({ userId, name: v.name, redirect: v.redirect, secret: clientSecret() })
        .returning();
      // never the secret
      await audit(tx, {
        action: 'oauth.client.created',
        subject: { type: 'oauth_client', id: row!.id },
        summary: `created the OAuth client ${row!.name}`,
        details: { redirect: row!.redirect },
      });
      return toClient(row!);
    });
  }

  async update(userId: number, id: string, input: ClientInput): Promise<OAuthClient> {
    const v = clientInputSchema.parse(input);
    if (!isUuid(id)) throw notFound('Client not found.');
    return this.db.transaction(async (tx) => {
      const mine = and(eq(oauthClients.id, id), eq(oauthClients.userId, userId), eq(oauthClients.revoked, false));
      const [before] = await tx.select().from(oauthClients).where(mine).for('update');
      if (!before) throw notFound('Client not found.');
      const [row] = await tx
        .update(oauthClients)
        .set({ name: v.name, redirect: v.redirect, updatedAt: new Date() })
        .where(mine)
        .returning();
      const changes = diff({ name: [before.name, row!.name], redirect: [before.redirect, row!.redirect] });
      await audit(tx, {
        action: 'oauth.client.updated',
        subject: { type: 'oauth_client', id },
        changes,
        summary: describeChanges(changes, `the OAuth client ${row!.name}`),
      });
      return toClient(row!);
    });
  }

  /**
   * The client is marked revoked rather than removed (its tokens' history stays readable), and
   * every token it holds stops working in the same transaction.
   */
  async delete(userId: number, id: string): Promise<void> {
    if (!isUuid(id)) throw notFound('Client not found.');
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(oauthClients)
        .set({ revoked: true, updatedAt: new Date() })
        .where(and(eq(oauthClients.id, id), eq(oauthClients.userId, userId), eq(oauthClients.revoked, false)))
        .returning({ id: oauthClients.id, name: oauthClients.name });
      if (!row) throw notFound('Client not found.');
      await revokeAccessTokens(tx, eq(oauthAccessTokens.clientId, id));
      await audit(tx, {
        action: 'oauth.client.deleted',
        subject: { type: 'oauth_client', id },
        summary: `deleted the OAuth client ${row.name} (its tokens stop working)`,
      });
    });
  }
}

export class PersonalTokenService {
  constructor(
    private readonly db: Db,
    private readonly lifetimeDays: number,
  ) {}

  async list(userId: number): Promise<PersonalToken[]> {
    const rows = await this.db
      .select()
      .from(personalAccessTokens)
      .where(and(eq(personalAccessTokens.userId, userId), eq(personalAccessTokens.revoked, false)))
      .orderBy(asc(personalAccessTokens.createdAt), asc(personalAccessTokens.id));
    return rows.map(toPersonalToken);
  }

  /** The plain text is in this reply only; the database keeps its SHA-256. */
  async create(userId: number, input: PersonalTokenInput): Promise<CreatedPersonalToken> {
    const v = personalTokenInputSchema.parse(input);
    const scopes = [...new Set(v.scopes)];
    const unknown = await unknownScopes(this.db, scopes);
    if (unknown.length) throw validationError({ scopes: [`The selected scopes are invalid: ${unknown.join(', ')}.`] });
    const accessToken = randomToken(PREFIX.personal);
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(personalAccessTokens)
        .values({
          userId,
          name: v.name,
          scopes,
          tokenHash: sha256(accessToken),
          expiresAt: addSeconds(new Date(), this.lifetimeDays * 86_400),
        })
        .returning();
      await audit(tx, {
        action: 'oauth.personal_token.created',
        subject: { type: 'personal_token', id: row!.id },
        summary: `created the personal access token ${row!.name}`,
        details: { scopes },
      });
      return { token: toPersonalToken(row!), accessToken };
    });
  }

  /** Spec §4: deleting a token revokes it; it is refused from the next request on. */
  async delete(userId: number, id: string): Promise<void> {
    if (!isUuid(id)) throw notFound('Token not found.');
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(personalAccessTokens)
        .set({ revoked: true })
        .where(
          and(
            eq(personalAccessTokens.id, id),
            eq(personalAccessTokens.userId, userId),
            eq(personalAccessTokens.revoked, false),
          ),
        )
        .returning({ id: personalAccessTokens.id, name: personalAccessTokens.name });
      if (!row) throw notFound('Token not found.');
      await audit(tx, {
        action: 'oauth.personal_token.deleted',
        subject: { type: 'personal_token', id },
        summary: `deleted the personal access token ${row.name}`,
      });
    });
  }
}

/**
 * An access token still stands for a grant while it works, or while a refresh token issued with
 * it can still be exchanged (an app that refreshes once a day holds expired access tokens).
 */
const liveGrant = (userId: number, now: Date) =>
  and(
    eq(oauthAccessTokens.userId, userId),
    eq(oauthAccessTokens.revoked, false),
    eq(oauthClients.revoked, false),
    or(
      gt(oauthAccessTokens.expiresAt, now),
      sql`exists (select 1 from ${oauthRefreshTokens} r where r.access_token_id = ${oauthAccessTokens.id}
        and not r.revoked and r.used_at is null and r.expires_at > ${now.toISOString()})`,
    ),
  );

/** Applications a user has let act for them (authorization code grant), one per client. */
export class GrantService {
  constructor(private readonly db: Db) {}

  async list(userId: number): Promise<AuthorizedApplication[]> {
    const rows = await this.db
      .select({
        id: oauthAccessTokens.id,
        clientId: oauthClients.id,
        clientName: oauthClients.name,
        scopes: oauthAccessTokens.scopes,
        createdAt: oauthAccessTokens.createdAt,
        lastUsedAt: oauthAccessTokens.lastUsedAt,
      })
      .from(oauthAccessTokens)
      .innerJoin(oauthClients, eq(oauthClients.id, oauthAccessTokens.clientId))
      .where(liveGrant(userId, new Date()))
      .orderBy(desc(oauthAccessTokens.createdAt), desc(oauthAccessTokens.id));
    const apps = new Map<string, AuthorizedApplication & { since: Date; used: Date | null }>();
    for (const r of rows) {
      const app = apps.get(r.clientId);
      if (!app) {
        // rows come newest first: the first one of a client names the application
        apps.set(r.clientId, {
          id: r.id,
          client: { id: r.clientId, name: r.clientName },
          scopes: [...r.scopes],
          created_at: '',
          last_used_at: null,
          since: r.createdAt,
          used: r.lastUsedAt,
        });
        continue;
      }
      for (const s of r.scopes) if (!app.scopes.includes(s)) app.scopes.push(s);
      if (r.createdAt < app.since) app.since = r.createdAt;
      if (r.lastUsedAt && (!app.used || r.lastUsedAt > app.used)) app.used = r.lastUsedAt;
    }
    return [...apps.values()]
      .map(({ since, used, ...app }) => ({
        ...app,
        scopes: app.scopes.sort(),
        created_at: since.toISOString(),
        last_used_at: iso(used),
      }))
      .sort((a, b) => a.client.name.localeCompare(b.client.name) || a.client.id.localeCompare(b.client.id));
  }

  /** Revoke: every token of that application for this user, not only the one named. */
  async revoke(userId: number, tokenId: string): Promise<void> {
    if (!isUuid(tokenId)) throw notFound('Token not found.');
    await this.db.transaction(async (tx) => {
      const [token] = await tx
        .select({ clientId: oauthAccessTokens.clientId, revoked: oauthAccessTokens.revoked })
        .from(oauthAccessTokens)
        .where(and(eq(oauthAccessTokens.id, tokenId), eq(oauthAccessTokens.userId, userId)));
      if (!token) throw notFound('Token not found.');
      await revokeAccessTokens(
        tx,
        and(eq(oauthAccessTokens.userId, userId), eq(oauthAccessTokens.clientId, token.clientId)),
      );
      // a code the application got but has not exchanged yet would bring it straight back
      await retireCodes(tx, and(eq(oauthAuthCodes.userId, userId), eq(oauthAuthCodes.clientId, token.clientId)));
      const [client] = await tx
        .select({ name: oauthClients.name })
        .from(oauthClients)
        .where(eq(oauthClients.id, token.clientId));
      await audit(tx, {
        action: 'oauth.application.revoked',
        subject: { type: 'oauth_client', id: token.clientId },
        summary: `revoked the application ${client?.name ?? token.clientId}`,
      });
    });
  }

  /** Whether the user already granted this client at least these scopes (the consent page is then skipped). */
  async hasGranted(userId: number, clientId: string, scopes: string[]): Promise<boolean> {
    const [row] = await this.db
      .select({ id: oauthAccessTokens.id })
      .from(oauthAccessTokens)
      .innerJoin(oauthClients, eq(oauthClients.id, oauthAccessTokens.clientId))
      .where(
        and(
          liveGrant(userId, new Date()),
          eq(oauthAccessTokens.clientId, clientId),
          sql`${oauthAccessTokens.scopes} @> ${sql`array[${sql.join(
            scopes.map((s) => sql`${s}`),
            sql`, `,
          )}]::text[]`}`,
        ),
      )
      .limit(1);
    return Boolean(row);
  }
}
