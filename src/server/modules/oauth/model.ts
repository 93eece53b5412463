import { audit } from '../../audit/audit.ts';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import OAuth2Server from '@node-oauth/oauth2-server';

const { InvalidGrantError } = OAuth2Server;
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { oauthAccessTokens, oauthAuthCodes, oauthClients, oauthRefreshTokens } from '../../../db/schema/index.ts';
import { revokeAccessTokens, unknownScopes } from './service.ts';
import { isUuid, PREFIX, randomToken, sha256 } from './tokens.ts';

type Client = OAuth2Server.Client;
type User = OAuth2Server.User;

/** Every client may use these; implicit and password are not offered at all. */
export const GRANTS = ['authorization_code', 'refresh_token', 'client_credentials'];

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * @node-oauth/oauth2-server's model on our tables. One is made per request: a refresh grant
 * remembers the family of the token it rotates (the library does not pass it to saveToken),
 * so the new refresh token joins that family. What the library does not do itself — replayed
 * codes revoking what they issued, reused refresh tokens revoking their family — happens here,
 * where the stored rows are read (docs/decisions/007).
 */
export function createModel(db: Db) {
  /** The code was presented again: mark it, under its row lock, and revoke every token it led to. */
  const markReplayed = (codeId: string) =>
    db.transaction(async (tx) => {
      await tx.update(oauthAuthCodes).set({ replayedAt: new Date() }).where(eq(oauthAuthCodes.id, codeId));
      await revokeAccessTokens(tx, eq(oauthAccessTokens.authCodeId, codeId));
    });

  // what a refresh grant carries over from the token it rotates
  let refreshFamily: string | undefined;
  let refreshAuthCodeId: string | null = null;

  const model = {
    /**
     * Called with secret null by the authorize handler (no client authentication there) and with
     * the secret given by the token endpoint; every client of ours is confidential, so a token
     * request without its secret is refused (undefined never matches).
     */
    async getClient(clientId: string, secret: string | null | undefined): Promise<Client | null> {
      if (typeof clientId !== 'string' || !isUuid(clientId)) return null;
      const [row] = await db
        .select()
        .from(oauthClients)
        .where(and(eq(oauthClients.id, clientId), eq(oauthClients.revoked, false)));
      if (!row) return null;
      if (secret !== null && (typeof secret !== 'string' || !sameSecret(secret, row.secret))) return null;
      return { id: row.id, name: row.name, ownerId: row.userId, redirectUris: [row.redirect], grants: GRANTS };
    },

    async validateRedirectUri(uri: string, client: Client): Promise<boolean> {
      // exact, character for character (no prefix or normalised match)
      return Array.isArray(client.redirectUris) && client.redirectUris.includes(uri);
    },

    /** Only defined scopes; none at all (no `scope`, or an empty one as Passport's clients send) is a token with no scopes. */
    async validateScope(_user: User, _client: Client, scope?: string[]): Promise<string[] | false> {
      const scopes = [...new Set((scope ?? []).filter(Boolean))];
      if (!scopes.length) return [];
      return (await unknownScopes(db, scopes)).length ? false : scopes.sort();
    },

    async generateAuthorizationCode(): Promise<string> {
      return randomToken();
    },
    async generateAccessToken(): Promise<string> {
      return randomToken(PREFIX.access);
    },
    async generateRefreshToken(): Promise<string> {
      return randomToken(PREFIX.refresh);
    },

    async saveAuthorizationCode(
      code: Pick<
        OAuth2Server.AuthorizationCode,
        'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope' | 'codeChallenge' | 'codeChallengeMethod'
      >,
      client: Client,
      user: User,
    ): Promise<OAuth2Server.AuthorizationCode> {
      await db.transaction(async (tx) => {
        await tx.insert(oauthAuthCodes).values({
          codeHash: sha256(code.authorizationCode),
          userId: user.id as number,
          clientId: client.id,
          scopes: code.scope ?? [],
          redirectUri: code.redirectUri,
          // the route refuses a request without an S256 challenge before it gets here
          codeChallenge: code.codeChallenge!,
          codeChallengeMethod: code.codeChallengeMethod ?? 'S256',
          expiresAt: code.expiresAt,
        });
        const [c] = await tx
          .select({ name: oauthClients.name })
          .from(oauthClients)
          .where(eq(oauthClients.id, client.id));
        await audit(tx, {
          action: 'oauth.application.authorized',
          subject: { type: 'oauth_client', id: client.id },
          summary: `authorized the application ${c?.name ?? client.id} (${(code.scope ?? []).join(' ') || 'no scopes'})`,
          details: { scopes: code.scope ?? [] },
        });
      });
      return { ...code, client, user };
    },

    /** A code seen before is a replay (RFC 6749 §4.1.2): every token it led to is revoked, and it is refused. */
    async getAuthorizationCode(code: string): Promise<OAuth2Server.AuthorizationCode | null> {
      const [row] = await db
        .select()
        .from(oauthAuthCodes)
        .where(eq(oauthAuthCodes.codeHash, sha256(code)));
      if (!row) return null;
      if (row.usedAt) {
        await markReplayed(row.id);
        return null;
      }
      return {
        authorizationCode: code,
        expiresAt: row.expiresAt,
        redirectUri: row.redirectUri,
        scope: row.scopes,
        client: { id: row.clientId, grants: GRANTS },
        user: { id: row.userId },
        codeChallenge: row.codeChallenge,
        codeChallengeMethod: row.codeChallengeMethod,
      };
    },

    /**
     * Marks the code used. Of two requests racing with one code only one gets here first; the
     * other is a replay like any other (RFC 6749 §4.1.2), so neither keeps tokens.
     */
    async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode): Promise<boolean> {
      const hash = sha256(code.authorizationCode);
      const done = await db
        .update(oauthAuthCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(oauthAuthCodes.codeHash, hash), isNull(oauthAuthCodes.usedAt)))
        .returning({ id: oauthAuthCodes.id });
      if (done.length === 1) return true;
      const [row] = await db
        .select({ id: oauthAuthCodes.id })
        .from(oauthAuthCodes)
        .where(eq(oauthAuthCodes.codeHash, hash));
      if (row) await markReplayed(row.id);
      return false;
    },

    /** client_credentials: no user; the bearer check acts for the client's owner (decision 007). */
    async getUserFromClient(client: Client): Promise<User> {
      return { id: null, ownerId: client.ownerId };
    },

    async saveToken(token: OAuth2Server.Token, client: Client, user: User): Promise<OAuth2Server.Token> {
      await db.transaction(async (tx) => {
        // rotated tokens keep the code they descend from, so a replayed code reaches them too
        let authCodeId = refreshAuthCodeId;
        if (token.authorizationCode) {
          // locked: a replay marks the code under the same lock, so either it sees these tokens
          // (and revokes them) or they see its mark (and are never saved)
          const [code] = await tx
            .select({ id: oauthAuthCodes.id, replayedAt: oauthAuthCodes.replayedAt })
            .from(oauthAuthCodes)
            .where(eq(oauthAuthCodes.codeHash, sha256(token.authorizationCode as string)))
            .for('update');
          if (code?.replayedAt) throw new InvalidGrantError('Invalid grant: authorization code has already been used');
          authCodeId = code?.id ?? null;
        }
        const [access] = await tx
          .insert(oauthAccessTokens)
          .values({
            tokenHash: sha256(token.accessToken),
            userId: (user.id as number | null) ?? null,
            clientId: client.id,
            authCodeId,
            scopes: token.scope ?? [],
            expiresAt: token.accessTokenExpiresAt!,
          })
          .returning({ id: oauthAccessTokens.id });
        if (token.refreshToken) {
          await tx.insert(oauthRefreshTokens).values({
            tokenHash: sha256(token.refreshToken),
            accessTokenId: access!.id,
            familyId: refreshFamily ?? randomUUID(),
            expiresAt: token.refreshTokenExpiresAt!,
          });
        }
        // the client acts here, for its user (or, with client_credentials, for its owner)
        const [c] = await tx
          .select({ name: oauthClients.name, userId: oauthClients.userId })
          .from(oauthClients)
          .where(eq(oauthClients.id, client.id));
        const grant = refreshFamily
          ? 'refresh_token'
          : token.authorizationCode
            ? 'authorization_code'
            : 'client_credentials';
        await audit(tx, {
          action: 'oauth.token.issued',
          subject: { type: 'oauth_access_token', id: access!.id },
          actor: {
            type: 'oauth_client',
            userId: (user.id as number | null) ?? c?.userId ?? null,
            name: `The OAuth client ${c?.name ?? client.id}`,
            tokenId: access!.id,
            clientId: client.id,
          },
          summary: `was issued an access token (${grant}; ${(token.scope ?? []).join(' ') || 'no scopes'})`,
          details: { grant, scopes: token.scope ?? [] },
        });
      });
      return { ...token, client, user };
    },

    /** The library's own bearer check is not used (plugins/bearer.ts is), but the model type wants it. */
    async getAccessToken(accessToken: string): Promise<OAuth2Server.Token | null> {
      const [row] = await db
        .select()
        .from(oauthAccessTokens)
        .where(eq(oauthAccessTokens.tokenHash, sha256(accessToken)));
      if (!row || row.revoked) return null;
      return {
        accessToken,
        accessTokenExpiresAt: row.expiresAt,
        scope: row.scopes,
        client: { id: row.clientId, grants: GRANTS },
        user: { id: row.userId },
      };
    },

    /** A refresh token shown again after its rotation was stolen or replayed: its family ends. */
    async getRefreshToken(refreshToken: string): Promise<OAuth2Server.RefreshToken | null> {
      const [row] = await db
        .select({ refresh: oauthRefreshTokens, access: oauthAccessTokens })
        .from(oauthRefreshTokens)
        .innerJoin(oauthAccessTokens, eq(oauthAccessTokens.id, oauthRefreshTokens.accessTokenId))
        .where(eq(oauthRefreshTokens.tokenHash, sha256(refreshToken)));
      if (!row) return null;
      if (row.refresh.usedAt || row.refresh.revoked) {
        if (row.refresh.usedAt) await revokeFamily(db, row.refresh.familyId);
        return null;
      }
      if (row.access.revoked || row.access.userId === null) return null;
      refreshFamily = row.refresh.familyId;
      refreshAuthCodeId = row.access.authCodeId;
      return {
        refreshToken,
        refreshTokenExpiresAt: row.refresh.expiresAt,
        scope: row.access.scopes,
        client: { id: row.access.clientId, grants: GRANTS },
        user: { id: row.access.userId },
      };
    },

    /** Rotation: the old refresh token is used up; losing a race for it counts as reuse. */
    async revokeToken(token: OAuth2Server.RefreshToken): Promise<boolean> {
      const done = await db
        .update(oauthRefreshTokens)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(oauthRefreshTokens.tokenHash, sha256(token.refreshToken)),
            isNull(oauthRefreshTokens.usedAt),
            eq(oauthRefreshTokens.revoked, false),
          ),
        )
        .returning({ id: oauthRefreshTokens.id });
      if (done.length === 1) return true;
      if (refreshFamily) await revokeFamily(db, refreshFamily);
      return false;
    },
  };
  return model;
}

/** Every refresh token of the family and every access token issued with them. */
export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const accessIds = tx
      .select({ id: oauthRefreshTokens.accessTokenId })
      .from(oauthRefreshTokens)
      .where(eq(oauthRefreshTokens.familyId, familyId));
    await tx.update(oauthAccessTokens).set({ revoked: true }).where(inArray(oauthAccessTokens.id, accessIds));
    await tx.update(oauthRefreshTokens).set({ revoked: true }).where(eq(oauthRefreshTokens.familyId, familyId));
  });
}
