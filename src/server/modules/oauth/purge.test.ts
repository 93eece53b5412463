import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../../db/factories/users.ts';
import {
  oauthAccessTokens,
  oauthAuthCodes,
  oauthClients,
  oauthRefreshTokens,
  personalAccessTokens,
} from '../../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { purgeExpiredOAuth } from './purge.ts';
import { randomToken, sha256 } from './tokens.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
const hash = () => sha256(randomToken());

describe('purgeExpiredOAuth', () => {
  it('deletes what expired over 30 days ago and nothing that a kept token still needs', async () => {
    const user = await insertUser(t.db, { email: 'purge@example.test', password: 'a long enough password', roleId: 1 });
    const [client] = await t.db
      .insert(oauthClients)
      .values({ userId: user.id, name: 'Old app', secret: 's', redirect: 'https://old.example/cb' })
      .returning();
    const code = (expiresAt: Date) => ({
      codeHash: hash(),
      userId: user.id,
      clientId: client!.id,
      redirectUri: 'https://old.example/cb',
      codeChallenge: 'x',
      expiresAt,
      usedAt: expiresAt,
    });
    const [oldCode, liveFamilyCode, recentCode] = await t.db
      .insert(oauthAuthCodes)
      .values([code(daysAgo(40)), code(daysAgo(40)), code(daysAgo(5))])
      .returning();
    const access = (expiresAt: Date, authCodeId: string | null) => ({
      tokenHash: hash(),
      userId: user.id,
      clientId: client!.id,
      authCodeId,
      expiresAt,
    });
    const [oldAccess, familyAccess, recentAccess] = await t.db
      .insert(oauthAccessTokens)
      .values([
        access(daysAgo(40), oldCode!.id),
        access(daysAgo(40), liveFamilyCode!.id),
        access(daysAgo(5), recentCode!.id),
      ])
      .returning();
    await t.db.insert(oauthRefreshTokens).values([
      { tokenHash: hash(), accessTokenId: oldAccess!.id, familyId: randomUUID(), expiresAt: daysAgo(35) },
      // an old access token whose refresh token still works: kept, with its code
      { tokenHash: hash(), accessTokenId: familyAccess!.id, familyId: randomUUID(), expiresAt: daysAgo(-10) },
    ]);
    const [, livePat] = await t.db
      .insert(personalAccessTokens)
      .values([
        { userId: user.id, name: 'old', tokenHash: hash(), expiresAt: daysAgo(31) },
        { userId: user.id, name: 'recently expired', tokenHash: hash(), expiresAt: daysAgo(1) },
      ])
      .returning();

    await purgeExpiredOAuth(t.db);

    const ids = async <T extends { id: string }>(rows: Promise<T[]>) => (await rows).map((r) => r.id).sort();
    expect(
      await ids(
        t.db
          .select({ id: oauthAccessTokens.id })
          .from(oauthAccessTokens)
          .where(eq(oauthAccessTokens.clientId, client!.id)),
      ),
    ).toEqual([familyAccess!.id, recentAccess!.id].sort());
    expect(
      await ids(
        t.db.select({ id: oauthAuthCodes.id }).from(oauthAuthCodes).where(eq(oauthAuthCodes.clientId, client!.id)),
      ),
    ).toEqual([liveFamilyCode!.id, recentCode!.id].sort());
    expect(
      await ids(
        t.db
          .select({ id: personalAccessTokens.id })
          .from(personalAccessTokens)
          .where(eq(personalAccessTokens.userId, user.id)),
      ),
    ).toEqual([livePat!.id]);
  });
});
