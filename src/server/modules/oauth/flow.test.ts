import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../../db/factories/users.ts';
import { oauthAccessTokens, oauthAuthCodes, oauthRefreshTokens } from '../../../db/schema/index.ts';
import { createTestApp, PASSWORD, type TestApp } from '../../../../tests/support/test-app.ts';
import { sha256 } from './tokens.ts';

/**
 * The authorization code + PKCE flow over real HTTP (the app listening on a port, Node's fetch):
 * a browser that signs in and answers the consent page, and a client application that swaps
 * the code for tokens and calls the API.
 */
let t: TestApp;
let base: string;
const REDIRECT = 'https://partner.example/callback';
let client: { id: string; secret: string; name: string };

class Browser {
  private cookies = new Map<string, string>();
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(base + path, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    return res;
  }
  async signIn(email: string) {
    const res = await this.fetch('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status).toBe(204);
  }
  form(path: string, fields: Record<string, string>) {
    return this.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

const authorizeUrl = (over: Record<string, string | undefined> = {}) => {
  const q = new URLSearchParams();
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.id,
    redirect_uri: REDIRECT,
    scope: 'bookings:read trips:read',
    state: 'xyz-123',
    code_challenge_method: 'S256',
    ...over,
  };
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q}`;
};

const tokenRequest = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

const withSecret = (fields: Record<string, string>) => ({
  client_id: client.id,
  client_secret: client.secret,
  ...fields,
});

const api = (token: string, path = '/api/bookings') =>
  fetch(base + path, { headers: { authorization: `Bearer ${token}` } });

let browser: Browser;

/** Signs in (once), asks, approves: the code and the verifier that goes with it. */
async function getCode(over: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const page = await browser.fetch(authorizeUrl({ code_challenge: challenge, ...over }));
  let location: string;
  if (page.status === 200) {
    const html = await page.text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1]!,
        m[2]!.replaceAll('&amp;', '&'),
      ]),
    );
    const res = await browser.form('/oauth/authorize', { ...fields, _csrf: csrf, decision: 'approve' });
    expect(res.status).toBe(303);
    location = res.headers.get('location')!;
  } else {
    expect(page.status).toBe(302);
    location = page.headers.get('location')!;
  }
  const url = new URL(location);
  expect(url.origin + url.pathname).toBe(REDIRECT);
  return { code: url.searchParams.get('code')!, state: url.searchParams.get('state'), verifier };
}

async function exchange(code: string, verifier: string) {
  const res = await tokenRequest(
    withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    token_type: string;
    scope: string;
  };
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // the client belongs to an administrator; the person authorizing it is another one
  const owner = await t.signedIn(1);
  const res = await owner.post('/oauth/clients', { name: 'Partner <Portal>', redirect: REDIRECT });
  client = res.json();
  await insertUser(t.db, { email: 'resource.owner@example.test', password: PASSWORD, roleId: 1 });
  browser = new Browser();
});
afterAll(() => t.close());

describe('GET /oauth/authorize', () => {
  it('sends a visitor who is not signed in to sign in, and back here after', async () => {
    const res = await browser.fetch(authorizeUrl({ code_challenge: pkce().challenge }));
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!, base);
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('next')).toMatch(/^\/oauth\/authorize\?response_type=code&client_id=/);
    await browser.signIn('resource.owner@example.test');
  });

  it('shows the consent page: who asks, what for, Authorize and Cancel', async () => {
    const res = await browser.fetch(authorizeUrl({ code_challenge: pkce().challenge }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<strong>Partner &lt;Portal&gt;</strong> is requesting permission to access your account.');
    expect(html).toContain('Read bookings and travellers');
    expect(html).toContain('Read trips');
    expect(html).toMatch(/<button type="submit" name="decision" value="approve" class="primary">Authorize<\/button>/);
    expect(html).toMatch(/value="deny">Cancel<\/button>/);
    expect(html).not.toContain('<script');
    // the form's post is answered by a redirect to the client: the page's CSP must allow that
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' https://partner.example");
  });

  it('Cancel sends the browser back with error=access_denied and the state', async () => {
    const page = await (await browser.fetch(authorizeUrl({ code_challenge: pkce().challenge }))).text();
    const fields = Object.fromEntries(
      [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
    );
    const res = await browser.form('/oauth/authorize', { ...fields, decision: 'deny' });
    expect(res.status).toBe(303);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin + to.pathname).toBe(REDIRECT);
    expect(to.searchParams.get('error')).toBe('access_denied');
    expect(to.searchParams.get('state')).toBe('xyz-123');
    expect(to.searchParams.get('code')).toBeNull();
  });

  it('refuses the approval without the session’s CSRF token', async () => {
    const res = await browser.form('/oauth/authorize', {
      response_type: 'code',
      client_id: client.id,
      redirect_uri: REDIRECT,
      scope: 'bookings:read',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      decision: 'approve',
    });
    expect(res.status).toBe(419);
  });

  it('shows an error page, without redirecting, for an unknown client or a redirect_uri that does not match exactly', async () => {
    for (const over of [
      { client_id: '00000000-0000-4000-8000-000000000000' },
      { client_id: 'nope' },
      { redirect_uri: REDIRECT + '/' },
      { redirect_uri: 'https://evil.example/callback' },
      { redirect_uri: undefined },
    ]) {
      const res = await browser.fetch(authorizeUrl({ code_challenge: pkce().challenge, ...over }));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('This authorization request cannot be completed');
    }
  });

  it('requires PKCE with S256 (plain refused), response_type=code and known scopes, answering at the callback', async () => {
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'bookings:read admin:everything' }, 'invalid_scope'],
    ];
    for (const [over, error] of cases) {
      const res = await browser.fetch(authorizeUrl({ code_challenge: pkce().challenge, ...over }));
      expect(res.status, JSON.stringify(over)).toBe(302);
      const to = new URL(res.headers.get('location')!);
      expect(to.searchParams.get('error'), JSON.stringify(over)).toBe(error);
      expect(to.searchParams.get('state')).toBe('xyz-123');
    }
  });
});

describe('GET /oauth/authorize without scopes', () => {
  it('asks consent for no scopes (none asked, or scope="" as Passport clients send) and issues a code', async () => {
    for (const scope of [undefined, '']) {
      const res = await browser.fetch(authorizeUrl({ code_challenge: pkce().challenge, scope }));
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('It asks for no scopes');
    }
  });
});

describe('POST /oauth/token: authorization_code', () => {
  it('swaps a code and its verifier for a one-hour bearer token and a refresh token that call the API', async () => {
    const { code, state, verifier } = await getCode();
    expect(state).toBe('xyz-123');
    const res = await tokenRequest(
      withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const token = await res.json();
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'bookings:read trips:read' });
    // an hour, counted from when the token was made (a second may have passed since)
    expect(token.expires_in).toBeGreaterThan(3500);
    expect(token.expires_in).toBeLessThanOrEqual(3600);
    expect(token.access_token).toMatch(/^tda_/);
    expect(token.refresh_token).toMatch(/^tdr_/);
    // stored as hashes only
    const [row] = await t.db
      .select()
      .from(oauthAccessTokens)
      .where(eq(oauthAccessTokens.tokenHash, sha256(token.access_token)));
    expect(row!.scopes).toEqual(['bookings:read', 'trips:read']);
    expect(Math.round((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000)).toBe(60);
    expect((await api(token.access_token)).status).toBe(200);
    expect((await api(token.access_token, '/api/users')).status).toBe(403);
  });

  it('skips the consent page once the same scopes were granted to that client, but not for more', async () => {
    const again = await browser.fetch(authorizeUrl({ code_challenge: pkce().challenge }));
    expect(again.status).toBe(302);
    expect(new URL(again.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    const fewer = await browser.fetch(authorizeUrl({ code_challenge: pkce().challenge, scope: 'trips:read' }));
    expect(fewer.status).toBe(302);
    const more = await browser.fetch(
      authorizeUrl({ code_challenge: pkce().challenge, scope: 'bookings:read users:read' }),
    );
    expect(more.status).toBe(200);
  });

  it('takes the client’s credentials by HTTP Basic too, and refuses wrong ones', async () => {
    const { code, verifier } = await getCode();
    const basic = 'Basic ' + Buffer.from(`${client.id}:${client.secret}`).toString('base64');
    const ok = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier },
      { authorization: basic },
    );
    expect(ok.status).toBe(200);

    const wrong = 'Basic ' + Buffer.from(`${client.id}:not-the-secret`).toString('base64');
    const bad = await tokenRequest({ grant_type: 'client_credentials', scope: 'trips:read' }, { authorization: wrong });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await bad.json()).error).toBe('invalid_client');
    const noSecret = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: client.id,
      scope: 'trips:read',
    });
    expect(noSecret.status).toBe(400);
    // a confidential client must authenticate even with PKCE
    const { code: c2, verifier: v2 } = await getCode();
    const pkceOnly = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: client.id,
      code: c2,
      redirect_uri: REDIRECT,
      code_verifier: v2,
    });
    expect(pkceOnly.status).toBe(400);
    expect((await pkceOnly.json()).error).toBe('invalid_client');
  });

  it('refuses a wrong verifier, and the code is used up by the attempt', async () => {
    const { code, verifier } = await getCode();
    const res = await tokenRequest(
      withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: pkce().verifier }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid grant: code verifier is invalid',
    });
    const missing = await getCode();
    const none = await tokenRequest(
      withSecret({ grant_type: 'authorization_code', code: missing.code, redirect_uri: REDIRECT }),
    );
    expect((await none.json()).error).toBe('invalid_grant');
    const retry = await tokenRequest(
      withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }),
    );
    expect((await retry.json()).error).toBe('invalid_grant');
  });

  it('refuses a redirect_uri that is not the one the code was issued for', async () => {
    const { code, verifier } = await getCode();
    const res = await tokenRequest(
      withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT + '?x=1', code_verifier: verifier }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_request');
  });

  it('refuses a replayed code and revokes every token it led to, refreshed ones included', async () => {
    const { code, verifier } = await getCode();
    const first = await exchange(code, verifier);
    expect((await api(first.access_token)).status).toBe(200);
    const refreshed = await (
      await tokenRequest(withSecret({ grant_type: 'refresh_token', refresh_token: first.refresh_token }))
    ).json();
    expect(refreshed.access_token).toMatch(/^tda_/);

    const replay = await tokenRequest(
      withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }),
    );
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe('invalid_grant');
    expect((await api(first.access_token)).status).toBe(401);
    expect((await api(refreshed.access_token)).status).toBe(401);
    const refresh = await tokenRequest(
      withSecret({ grant_type: 'refresh_token', refresh_token: refreshed.refresh_token }),
    );
    expect((await refresh.json()).error).toBe('invalid_grant');
  });

  it('leaves no working token when one code is redeemed twice at once', async () => {
    const { code, verifier } = await getCode();
    const both = await Promise.all(
      [1, 2].map(() =>
        tokenRequest(
          withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }),
        ),
      ),
    );
    const bodies = await Promise.all(both.map((r) => r.json()));
    expect(bodies.some((b) => b.error === 'invalid_grant')).toBe(true);
    for (const b of bodies.filter((x) => x.access_token)) expect((await api(b.access_token)).status).toBe(401);
  });

  it('refuses a code older than ten minutes', async () => {
    const { code, verifier } = await getCode();
    await t.db
      .update(oauthAuthCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthAuthCodes.codeHash, sha256(code)));
    const res = await tokenRequest(
      withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid grant: authorization code has expired',
    });
    // codes live ten minutes
    const fresh = await getCode();
    const [row] = await t.db
      .select()
      .from(oauthAuthCodes)
      .where(eq(oauthAuthCodes.codeHash, sha256(fresh.code)));
    const minutes = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000;
    expect(Math.round(minutes)).toBe(10);
  });

  it('refuses a code issued to another client', async () => {
    const owner = await t.signedIn(3);
    const other = (await owner.post('/oauth/clients', { name: 'Other', redirect: REDIRECT })).json();
    const { code, verifier } = await getCode();
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: other.id,
      client_secret: other.secret,
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect((await res.json()).error).toBe('invalid_grant');
  });
});

describe('POST /oauth/token: refresh_token', () => {
  it('rotates: a refresh gives new tokens, and reusing the old refresh token revokes the whole family', async () => {
    const { code, verifier } = await getCode();
    const first = await exchange(code, verifier);
    const res = await tokenRequest(withSecret({ grant_type: 'refresh_token', refresh_token: first.refresh_token }));
    expect(res.status).toBe(200);
    const second = await res.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe('bookings:read trips:read');
    const [a, b] = await Promise.all(
      [first, second].map((x) =>
        t.db
          .select()
          .from(oauthRefreshTokens)
          .where(eq(oauthRefreshTokens.tokenHash, sha256(x.refresh_token))),
      ),
    );
    expect(a![0]!.familyId).toBe(b![0]!.familyId);
    expect((await api(second.access_token)).status).toBe(200);

    // the old refresh token again: someone else has it
    const reuse = await tokenRequest(withSecret({ grant_type: 'refresh_token', refresh_token: first.refresh_token }));
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe('invalid_grant');
    expect((await api(second.access_token)).status).toBe(401);
    expect((await api(first.access_token)).status).toBe(401);
    const next = await tokenRequest(withSecret({ grant_type: 'refresh_token', refresh_token: second.refresh_token }));
    expect((await next.json()).error).toBe('invalid_grant');
  });

  it('may narrow the scopes but never widen them', async () => {
    const { code, verifier } = await getCode();
    const first = await exchange(code, verifier);
    const wider = await tokenRequest(
      withSecret({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        scope: 'bookings:read users:write',
      }),
    );
    expect((await wider.json()).error).toBe('invalid_scope');
    const { code: c2, verifier: v2 } = await getCode();
    const other = await exchange(c2, v2);
    const narrower = await tokenRequest(
      withSecret({ grant_type: 'refresh_token', refresh_token: other.refresh_token, scope: 'trips:read' }),
    );
    expect((await narrower.json()).scope).toBe('trips:read');
  });
});

describe('POST /oauth/token: client_credentials and the rest', () => {
  it('gives a client a token of its own (no refresh token) that acts for the client’s owner, within its scopes', async () => {
    const res = await tokenRequest(withSecret({ grant_type: 'client_credentials', scope: 'trips:read' }));
    expect(res.status).toBe(200);
    const token = await res.json();
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'trips:read' });
    expect(token.expires_in).toBeGreaterThan(3500);
    expect(token.refresh_token).toBeUndefined();
    const [row] = await t.db
      .select()
      .from(oauthAccessTokens)
      .where(eq(oauthAccessTokens.tokenHash, sha256(token.access_token)));
    expect(row!.userId).toBeNull();
    expect((await api(token.access_token, '/api/trips')).status).toBe(200);
    expect((await api(token.access_token, '/api/bookings')).status).toBe(403);
  });

  it('takes scope: "" (as Laravel Passport documents it) or no scope as a token with no scopes', async () => {
    for (const body of [
      withSecret({ grant_type: 'client_credentials', scope: '' }),
      withSecret({ grant_type: 'client_credentials' }),
    ]) {
      const res = await tokenRequest(body);
      expect(res.status).toBe(200);
      const token = await res.json();
      expect(token.scope ?? '').toBe('');
      const [row] = await t.db
        .select()
        .from(oauthAccessTokens)
        .where(eq(oauthAccessTokens.tokenHash, sha256(token.access_token)));
      expect(row!.scopes).toEqual([]);
      expect((await api(token.access_token, '/api/trips')).status).toBe(403);
    }
    expect((await tokenRequest(withSecret({ grant_type: 'client_credentials', scope: 'nope:read' }))).status).toBe(400);
  });

  it('answers a multipart or JSON body with invalid_request, never a server error', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(withSecret({ grant_type: 'client_credentials', scope: 'trips:read' })))
      form.set(k, v);
    const multipart = await fetch(`${base}/oauth/token`, { method: 'POST', body: form });
    expect(multipart.status).toBe(400);
    expect((await multipart.json()).error).toBe('invalid_request');
    const nul = await tokenRequest(withSecret({ grant_type: 'client_credentials', scope: 'trips:read\u0000' }));
    expect(nul.status).toBe(400);
    expect((await nul.json()).error).toBe('invalid_request');
  });

  it('a client_credentials token of a Charity user’s client is held to that role', async () => {
    const owner = await t.signedIn(2);
    const c = (await owner.post('/oauth/clients', { name: 'Charity tool', redirect: REDIRECT })).json();
    const token = await (
      await tokenRequest({
        grant_type: 'client_credentials',
        client_id: c.id,
        client_secret: c.secret,
        scope: 'trips:read',
      })
    ).json();
    expect((await api(token.access_token, '/api/trips')).status).toBe(403);
  });

  it('offers no password or implicit grant, and wants a form body', async () => {
    const password = await tokenRequest(withSecret({ grant_type: 'password', username: 'a', password: 'b' }));
    expect(password.status).toBe(400);
    expect((await password.json()).error).toBe('unsupported_grant_type');
    const json = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(withSecret({ grant_type: 'client_credentials', scope: 'trips:read' })),
    });
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe('invalid_request');
    const noGrant = await tokenRequest(withSecret({}));
    expect((await noGrant.json()).error).toBe('invalid_request');
  });

  it('deleting the client revokes its tokens and refuses it at the token endpoint', async () => {
    const owner = await t.signedIn(1);
    const c = (await owner.post('/oauth/clients', { name: 'Short-lived', redirect: REDIRECT })).json();
    const token = await (
      await tokenRequest({
        grant_type: 'client_credentials',
        client_id: c.id,
        client_secret: c.secret,
        scope: 'trips:read',
      })
    ).json();
    expect((await api(token.access_token, '/api/trips')).status).toBe(200);
    expect((await owner.delete(`/oauth/clients/${c.id}`)).statusCode).toBe(204);
    expect((await api(token.access_token, '/api/trips')).status).toBe(401);
    const again = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: c.id,
      client_secret: c.secret,
      scope: 'trips:read',
    });
    expect((await again.json()).error).toBe('invalid_client');
  });

  it('takes a client id that is not a uuid (36 dashes) for an unknown client, never a server error', async () => {
    const res = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: '-'.repeat(36),
      client_secret: 'x',
      scope: 'trips:read',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_client');
    expect(
      (await browser.fetch(authorizeUrl({ client_id: '-'.repeat(36), code_challenge: pkce().challenge }))).status,
    ).toBeLessThan(500);
  });

  it('a new password for the owner ends the client_credentials tokens of their clients', async () => {
    const owner = await t.signedIn(1, 'cc.owner@example.test');
    const c = (await owner.post('/oauth/clients', { name: 'Owner app', redirect: REDIRECT })).json();
    const token = await (
      await tokenRequest({
        grant_type: 'client_credentials',
        client_id: c.id,
        client_secret: c.secret,
        scope: 'trips:read',
      })
    ).json();
    expect((await api(token.access_token, '/api/trips')).status).toBe(200);
    const admin = await t.signedIn(1);
    const me = (await admin.get('/api/users?search=cc.owner')).json().data[0];
    const changed = await admin.request({
      method: 'PATCH',
      url: '/api/users/update',
      payload: {
        id: me.id,
        email: 'cc.owner@example.test',
        first_name: 'Cee',
        last_name: 'Owner',
        user_role_id: 1,
        password: 'a brand new long password',
        confirm_password: 'a brand new long password',
      },
    });
    expect(changed.statusCode).toBe(200);
    expect((await api(token.access_token, '/api/trips')).status).toBe(401);
  });

  it('revoking the application on the developer page ends its tokens at once', async () => {
    const { code, verifier } = await getCode();
    const token = await exchange(code, verifier);
    const apps = await (await browser.fetch('/oauth/tokens')).json();
    const app = apps.find((a: { client: { id: string } }) => a.client.id === client.id);
    expect(app.scopes).toEqual(['bookings:read', 'trips:read']);
    const page = await (await browser.fetch('/developer')).text();
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page)![1]!;
    const res = await browser.fetch(`/oauth/tokens/${app.id}`, { method: 'DELETE', headers: { 'x-csrf-token': csrf } });
    expect(res.status).toBe(204);
    expect((await api(token.access_token)).status).toBe(401);
    expect(
      (await tokenRequest(withSecret({ grant_type: 'refresh_token', refresh_token: token.refresh_token }))).status,
    ).toBe(400);
    // and the consent page is asked again
    expect((await browser.fetch(authorizeUrl({ code_challenge: pkce().challenge }))).status).toBe(200);
  });

  it('revoking the application also retires a code it has not exchanged yet', async () => {
    const first = await getCode();
    await exchange(first.code, first.verifier);
    const pending = await getCode();
    const apps = await (await browser.fetch('/oauth/tokens')).json();
    const app = apps.find((a: { client: { id: string } }) => a.client.id === client.id);
    const page = await (await browser.fetch('/developer')).text();
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page)![1]!;
    expect(
      (await browser.fetch(`/oauth/tokens/${app.id}`, { method: 'DELETE', headers: { 'x-csrf-token': csrf } })).status,
    ).toBe(204);
    const res = await tokenRequest(
      withSecret({
        grant_type: 'authorization_code',
        code: pending.code,
        redirect_uri: REDIRECT,
        code_verifier: pending.verifier,
      }),
    );
    expect((await res.json()).error).toBe('invalid_grant');
  });

  it('is rate limited per address', async () => {
    let status = 0;
    for (let i = 0; i < 70 && status !== 429; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        remoteAddress: '10.20.30.40',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials',
      });
      status = res.statusCode;
    }
    expect(status).toBe(429);
  });
});
