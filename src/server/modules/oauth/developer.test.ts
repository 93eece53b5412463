import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthAccessTokens, oauthClients, oauthRefreshTokens, personalAccessTokens } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { ACCESS_TOKEN_SECONDS, addSeconds, PREFIX, randomToken, sha256 } from './tokens.ts';

let t: TestApp;
let alice: TestClient;
let bob: TestClient;
beforeAll(async () => {
  t = await createTestApp({ personalTokenDays: 30 });
  // the developer area is for every role: a Charity and an End User
  alice = await t.signedIn(2);
  bob = await t.signedIn(3);
});
afterAll(() => t.close());

const client = (over: Record<string, unknown> = {}) => ({
  name: 'Booking sync',
  redirect: 'https://partner.example/callback',
  ...over,
});

async function createClient(who: TestClient, over: Record<string, unknown> = {}) {
  const res = await who.post('/oauth/clients', client(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string; secret: string; redirect: string };
}

describe('OpenAPI', () => {
  it('describes the OAuth calls and the token endpoint', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/oauth/clients',
      '/oauth/clients/{id}',
      '/oauth/personal-access-tokens',
      '/oauth/scopes',
      '/oauth/tokens',
      '/oauth/token',
      '/oauth/authorize',
    ]) {
      expect(paths, p).toContain(p);
    }
  });
});

describe('GET /oauth/scopes', () => {
  it('lists the defined scopes with what they allow; the charity portal’s fundraising to Charity users only', async () => {
    const res = await alice.get('/oauth/scopes');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((s: { id: string }) => s.id)).toEqual([
      'bookings:read',
      'bookings:write',
      'finance:read',
      'finance:write',
      'fundraising',
      'trips:read',
      'trips:write',
      'users:read',
    ]);
    expect(res.json()[0]).toEqual({ id: 'bookings:read', description: 'Read bookings and travellers' });
    for (const role of [1, 3]) {
      const other = (await (await t.signedIn(role)).get('/oauth/scopes')).json() as Array<{ id: string }>;
      expect(other.map((s) => s.id)).toEqual([
        'bookings:read',
        'bookings:write',
        'finance:read',
        'finance:write',
        'trips:read',
        'trips:write',
        'users:read',
      ]);
    }
  });

  it('wants a signed-in user', async () => {
    expect((await t.client().get('/oauth/scopes')).statusCode).toBe(401);
  });
});

describe('OAuth clients', () => {
  it('creates a client with an id and a secret shown to its owner, and lists it', async () => {
    const created = await createClient(alice);
    expect(created).toMatchObject({ name: 'Booking sync', redirect: 'https://partner.example/callback' });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.secret.length).toBeGreaterThanOrEqual(40);
    const list = await alice.get('/oauth/clients');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(
      expect.objectContaining({ id: created.id, name: 'Booking sync', secret: created.secret }),
    );
  });

  it('updates name and redirect (the form also sends the id)', async () => {
    const c = await createClient(alice, { name: 'Old name' });
    const res = await alice.put(`/oauth/clients/${c.id}`, {
      id: c.id,
      name: ' New name ',
      redirect: 'http://localhost:8080/cb',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: c.id,
      name: 'New name',
      redirect: 'http://localhost:8080/cb',
      secret: c.secret,
    });
  });

  it('validates name and redirect with 422 field errors', async () => {
    const empty = await alice.post('/oauth/clients', { name: '', redirect: '' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      name: ['The name field is required.'],
      redirect: ['The redirect field is required.'],
    });
    const missing = await alice.post('/oauth/clients', {});
    expect(missing.json().errors).toEqual({
      name: ['The name field is required.'],
      redirect: ['The redirect field is required.'],
    });
    for (const [redirect, message] of [
      ['not a url', 'The redirect must be a valid URL.'],
      ['http://partner.example/cb', 'The redirect must start with https:// (http:// is accepted for localhost only).'],
      ['javascript:alert(1)', 'The redirect must start with https:// (http:// is accepted for localhost only).'],
      ['https://partner.example/cb#frag', 'The redirect must not contain a fragment (#).'],
      ['https://a;b.example/cb', 'The redirect’s host name may only contain letters, digits, dots and dashes.'],
      ['https://user:pw@partner.example/cb', 'The redirect must not contain a user name or password.'],
    ]) {
      const res = await alice.post('/oauth/clients', client({ redirect }));
      expect(res.statusCode, redirect).toBe(422);
      expect(res.json().errors, redirect).toEqual({ redirect: [message] });
    }
    const long = await alice.post('/oauth/clients', client({ name: 'x'.repeat(256) }));
    expect(long.json().errors).toEqual({ name: ['The name must not be longer than 255 characters.'] });
    const c = await createClient(alice);
    const bad = await alice.put(`/oauth/clients/${c.id}`, { name: '', redirect: 'ftp://x' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['name', 'redirect']);
  });

  it('deletes a client without asking, and revokes every token it holds', async () => {
    const c = await createClient(alice);
    const [token] = await t.db
      .insert(oauthAccessTokens)
      .values({
        tokenHash: sha256(randomToken(PREFIX.access)),
        userId: null,
        clientId: c.id,
        scopes: ['trips:read'],
        expiresAt: addSeconds(new Date(), ACCESS_TOKEN_SECONDS),
      })
      .returning();
    await t.db.insert(oauthRefreshTokens).values({
      tokenHash: sha256('r' + c.id),
      accessTokenId: token!.id,
      familyId: crypto.randomUUID(),
      expiresAt: addSeconds(new Date(), 3600),
    });
    const res = await alice.delete(`/oauth/clients/${c.id}`);
    expect(res.statusCode).toBe(204);
    expect((await alice.get('/oauth/clients')).json().map((x: { id: string }) => x.id)).not.toContain(c.id);
    const [row] = await t.db.select().from(oauthClients).where(eq(oauthClients.id, c.id));
    expect(row!.revoked).toBe(true);
    expect((await t.db.select().from(oauthAccessTokens).where(eq(oauthAccessTokens.id, token!.id)))[0]!.revoked).toBe(
      true,
    );
    expect(
      (await t.db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.accessTokenId, token!.id)))[0]!.revoked,
    ).toBe(true);
    expect((await alice.delete(`/oauth/clients/${c.id}`)).statusCode).toBe(404);
    expect((await alice.put(`/oauth/clients/${c.id}`, client())).statusCode).toBe(404);
  });

  it('keeps each user to their own clients: another user’s is not found', async () => {
    const c = await createClient(alice, { name: 'Alice only' });
    expect((await bob.get('/oauth/clients')).json().map((x: { id: string }) => x.id)).not.toContain(c.id);
    expect((await bob.put(`/oauth/clients/${c.id}`, client({ name: 'Stolen' }))).statusCode).toBe(404);
    expect((await bob.delete(`/oauth/clients/${c.id}`)).statusCode).toBe(404);
    const still = (await alice.get('/oauth/clients')).json().find((x: { id: string }) => x.id === c.id);
    expect(still).toMatchObject({ name: 'Alice only' });
  });

  it('answers 404 for a malformed or unknown id', async () => {
    expect((await alice.put('/oauth/clients/not-a-uuid', client())).statusCode).toBe(404);
    expect((await alice.delete('/oauth/clients/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('needs a session and its CSRF token', async () => {
    expect((await t.client().post('/oauth/clients', client())).statusCode).toBe(401);
    expect(
      (await alice.request({ method: 'POST', url: '/oauth/clients', payload: client(), csrf: false })).statusCode,
    ).toBe(419);
  });
});

describe('Personal access tokens', () => {
  it('creates a token: the record as token, the plain text once as accessToken; only its hash is kept', async () => {
    const res = await alice.post('/oauth/personal-access-tokens', {
      name: 'Reporting',
      scopes: ['bookings:read', 'trips:read', 'bookings:read'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.token).toMatchObject({
      name: 'Reporting',
      scopes: ['bookings:read', 'trips:read'],
      last_used_at: null,
    });
    expect(body.accessToken).toMatch(/^tdp_[A-Za-z0-9_-]{43}$/);
    // PERSONAL_TOKEN_DAYS (30 here) from now
    const days = (Date.parse(body.token.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const [row] = await t.db.select().from(personalAccessTokens).where(eq(personalAccessTokens.id, body.token.id));
    expect(row!.tokenHash).toBe(sha256(body.accessToken));
    expect(JSON.stringify(row)).not.toContain(body.accessToken);
    const list = (await alice.get('/oauth/personal-access-tokens')).json();
    expect(list).toContainEqual(expect.objectContaining({ id: body.token.id, name: 'Reporting' }));
    expect(JSON.stringify(list)).not.toContain(body.accessToken);
  });

  it('takes no scopes at all', async () => {
    const res = await alice.post('/oauth/personal-access-tokens', { name: 'Bare' });
    expect(res.statusCode).toBe(201);
    expect(res.json().token.scopes).toEqual([]);
  });

  it('validates name and scopes', async () => {
    const empty = await alice.post('/oauth/personal-access-tokens', { name: ' ', scopes: [] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({ name: ['The name field is required.'] });
    const unknown = await alice.post('/oauth/personal-access-tokens', {
      name: 'x',
      scopes: ['bookings:read', 'admin:all'],
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ scopes: ['The selected scopes are invalid: admin:all.'] });
    const notList = await alice.post('/oauth/personal-access-tokens', { name: 'x', scopes: 'bookings:read' });
    expect(notList.statusCode).toBe(422);
    expect(notList.json().errors).toEqual({ scopes: ['The scopes must be a list of scope ids.'] });
  });

  it('deletes (revokes) a token; another user cannot see or delete it', async () => {
    const { token } = (await alice.post('/oauth/personal-access-tokens', { name: 'Short lived', scopes: [] })).json();
    expect((await bob.get('/oauth/personal-access-tokens')).json().map((x: { id: string }) => x.id)).not.toContain(
      token.id,
    );
    expect((await bob.delete(`/oauth/personal-access-tokens/${token.id}`)).statusCode).toBe(404);
    expect((await alice.delete(`/oauth/personal-access-tokens/${token.id}`)).statusCode).toBe(204);
    expect((await alice.get('/oauth/personal-access-tokens')).json().map((x: { id: string }) => x.id)).not.toContain(
      token.id,
    );
    const [row] = await t.db.select().from(personalAccessTokens).where(eq(personalAccessTokens.id, token.id));
    expect(row!.revoked).toBe(true);
    expect((await alice.delete(`/oauth/personal-access-tokens/${token.id}`)).statusCode).toBe(404);
    expect((await alice.delete('/oauth/personal-access-tokens/nope')).statusCode).toBe(404);
  });
});

describe('Authorized applications', () => {
  async function grant(
    userId: number,
    clientId: string,
    scopes: string[],
    over: Partial<typeof oauthAccessTokens.$inferInsert> = {},
  ) {
    const [row] = await t.db
      .insert(oauthAccessTokens)
      .values({
        tokenHash: sha256(randomToken(PREFIX.access)),
        userId,
        clientId,
        scopes,
        expiresAt: addSeconds(new Date(), ACCESS_TOKEN_SECONDS),
        ...over,
      })
      .returning();
    return row!;
  }
  const me = async (who: TestClient) => (await who.get('/api/me')).json().id as number;

  it('lists one row per application with the union of its scopes; revoke ends every token of it', async () => {
    const owner = await t.signedIn(3);
    const app1 = await createClient(owner, { name: 'Zeta Reports' });
    const app2 = await createClient(owner, { name: 'Alpha Sync' });
    const bobId = await me(bob);
    const older = await grant(bobId, app1.id, ['bookings:read'], { createdAt: new Date(Date.now() - 60_000) });
    const newer = await grant(bobId, app1.id, ['trips:read']);
    await grant(bobId, app2.id, ['users:read']);
    // expired with no refresh token, or revoked: no longer a grant
    await grant(bobId, app2.id, ['finance:write'], { expiresAt: new Date(Date.now() - 1000) });
    await grant(bobId, app2.id, ['finance:read'], { revoked: true });
    // expired but still refreshable: still a grant
    const refreshable = await grant(bobId, app2.id, ['trips:write'], { expiresAt: new Date(Date.now() - 1000) });
    await t.db.insert(oauthRefreshTokens).values({
      tokenHash: sha256(randomToken()),
      accessTokenId: refreshable.id,
      familyId: crypto.randomUUID(),
      expiresAt: addSeconds(new Date(), 3600),
    });

    const list = (await bob.get('/oauth/tokens')).json();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      client: { id: app2.id, name: 'Alpha Sync' },
      scopes: ['trips:write', 'users:read'],
    });
    expect(list[1]).toMatchObject({
      id: newer.id,
      client: { id: app1.id, name: 'Zeta Reports' },
      scopes: ['bookings:read', 'trips:read'],
      last_used_at: null,
    });
    expect(list[1].created_at).toBe(older.createdAt.toISOString());
    // the owner of the clients authorized nothing
    expect((await owner.get('/oauth/tokens')).json()).toEqual([]);

    expect((await alice.delete(`/oauth/tokens/${newer.id}`)).statusCode).toBe(404);
    expect((await bob.delete(`/oauth/tokens/${newer.id}`)).statusCode).toBe(204);
    const after = (await bob.get('/oauth/tokens')).json();
    expect(after.map((a: { client: { name: string } }) => a.client.name)).toEqual(['Alpha Sync']);
    const [o] = await t.db.select().from(oauthAccessTokens).where(eq(oauthAccessTokens.id, older.id));
    expect(o!.revoked).toBe(true);
    expect((await bob.delete('/oauth/tokens/garbage')).statusCode).toBe(404);
  });
});
