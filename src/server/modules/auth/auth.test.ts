import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILED } from '../../../contract/auth.ts';
import { routes } from '../../../contract/paths.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { loginFailures, sessions } from '../../../db/schema/index.ts';
import { SESSION_COOKIE } from '../../plugins/auth.ts';
import { webRoot } from '../../plugins/web.ts';
import { queryRows } from '../../../db/client.ts';
import { buildApp } from '../../app.ts';
import { createTestApp, PASSWORD, TestClient, type TestApp } from '../../../../tests/support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, {
    email: 'Admin@Example.test',
    password: PASSWORD,
    roleId: 1,
    firstName: 'Ada',
    lastName: 'Admin',
  });
  await insertUser(t.db, { email: 'charity@example.test', password: PASSWORD, roleId: 2 });
  await insertUser(t.db, { email: 'traveller@example.test', password: PASSWORD, roleId: 3 });
});
afterAll(() => t.close());

describe('sign-in', () => {
  it('answers 204 to JSON, sets an HttpOnly SameSite=Lax session cookie, and knows the user after', async () => {
    const c = t.client();
    const res = await c.login('admin@example.test', PASSWORD);
    expect(res.statusCode).toBe(204);
    const cookie = res.cookies.find((k) => k.name === SESSION_COOKIE);
    expect(cookie).toBeDefined();
    expect(cookie!.httpOnly).toBe(true);
    expect(String(cookie!.sameSite).toLowerCase()).toBe('lax');
    expect(cookie!.secure).toBeFalsy();
    const me = await c.get('/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'Admin@Example.test',
      user_role_id: 1,
      role: { display_name: 'Administrator' },
    });
  });

  it('marks the cookie Secure behind HTTPS', async () => {
    const tls = await createTestApp({ trustProxy: '127.0.0.1' });
    await insertUser(tls.db, { email: 'a@example.test', password: PASSWORD, roleId: 1 });
    const res = await tls.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'x-forwarded-proto': 'https' },
      payload: { email: 'a@example.test', password: PASSWORD },
    });
    expect(res.statusCode).toBe(204);
    expect(res.cookies.find((k) => k.name === SESSION_COOKIE)?.secure).toBe(true);
    await tls.close();
  });

  it('gives one message for a wrong password and for an unknown email', async () => {
    const wrongPassword = await t.client().login('admin@example.test', 'not the password');
    const unknownEmail = await t.client().login('nobody@example.test', PASSWORD);
    expect(wrongPassword.statusCode).toBe(422);
    expect(unknownEmail.statusCode).toBe(422);
    expect(wrongPassword.json()).toEqual({ message: LOGIN_FAILED, errors: { email: [LOGIN_FAILED] } });
    expect(unknownEmail.json()).toEqual(wrongPassword.json());
    expect(wrongPassword.cookies.find((k) => k.name === SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses an empty form with field errors', async () => {
    const res = await t
      .client()
      .request({ method: 'POST', url: '/login', payload: { email: '', password: '' }, csrf: false });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      email: ['The email field is required.'],
      password: ['The password field is required.'],
    });
  });

  it('allows 5 failures a minute per email and IP, then answers 429 even to the right password', async () => {
    const email = 'traveller@example.test';
    const c = t.client();
    for (let i = 0; i < 5; i++) expect((await c.login(email, 'wrong')).statusCode).toBe(422);
    const blocked = await c.login(email, PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many login attempts\. Please try again in \d+ seconds\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // another address from the same IP is not held back
    expect((await t.client().login('charity@example.test', PASSWORD)).statusCode).toBe(204);
    // and a minute later the address may try again
    await t.db
      .update(loginFailures)
      .set({ attemptedAt: new Date(Date.now() - 61_000) })
      .where(eq(loginFailures.email, email));
    expect((await c.login(email, PASSWORD)).statusCode).toBe(204);
  });

  it('gives a new session id at sign-in, and the old id is worth nothing', async () => {
    const c = t.client();
    await c.refreshCsrf('/login');
    const before = c.cookies.get(SESSION_COOKIE);
    expect(before).toBeDefined();
    await c.login('admin@example.test', PASSWORD);
    const after = c.cookies.get(SESSION_COOKIE);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const replay = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `${SESSION_COOKIE}=${before}` },
    });
    expect(replay.statusCode).toBe(401);
  });

  it('stores sessions in the database', async () => {
    const c = t.client();
    await c.login('admin@example.test', PASSWORD);
    const rows = await t.db.select().from(sessions);
    expect(rows.some((r) => r.userId !== null)).toBe(true);
  });

  it('accepts a form post and redirects to a local next path only', async () => {
    const form = (body: string) =>
      t.app.inject({
        method: 'POST',
        url: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
    const ok = await form(`email=admin%40example.test&password=${encodeURIComponent(PASSWORD)}&next=%2Fcharities`);
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/charities');
    const offsite = await form(
      `email=admin%40example.test&password=${encodeURIComponent(PASSWORD)}&next=%2F%2Fevil.test`,
    );
    expect(offsite.headers.location).toBe('/');
  });

  it('shows a failed form sign-in as a flash message on the next page, once', async () => {
    const c = t.client();
    const res = await c.request({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=admin%40example.test&password=nope',
      csrf: false,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login');
    const page = await c.get('/login');
    expect(page.body).toContain(LOGIN_FAILED);
    const again = await c.get('/login');
    expect(again.body).not.toContain(LOGIN_FAILED);
  });

  it('refuses a sign-in form posted from another site', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { origin: 'https://evil.test' },
      payload: { email: 'admin@example.test', password: PASSWORD },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('sessions end', () => {
  it('signs out, and the cookie no longer works', async () => {
    const c = await t.signedIn(1);
    const cookie = c.cookies.get(SESSION_COOKIE);
    const out = await c.post('/logout');
    expect(out.statusCode).toBe(204);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `${SESSION_COOKIE}=${cookie}` },
    });
    expect(after.statusCode).toBe(401);
  });

  it('ends a session left idle too long, and one older than the absolute limit', async () => {
    const idle = await createTestApp({ sessionIdleMs: 50 });
    const c = await idle.signedIn(1);
    await new Promise((r) => setTimeout(r, 120));
    expect((await c.get('/api/me')).statusCode).toBe(401);
    await idle.close();

    const absolute = await createTestApp({ sessionAbsoluteMs: 50 });
    const d = await absolute.signedIn(1);
    await new Promise((r) => setTimeout(r, 120));
    expect((await d.get('/api/me')).statusCode).toBe(401);
    await absolute.close();
  });

  it('leaves the cookie alone on a probe or a static file, even when its session has just ended', async () => {
    // a sign-in replaces the session while the page's other requests are still in flight with the
    // old cookie: those that need no session must not answer with a cookie that undoes the sign-in
    const c = await t.signedIn(1, 'probe@example.test');
    const cookie = `${SESSION_COOKIE}=${c.cookies.get(SESSION_COOKIE)}`;
    await t.db.delete(sessions).where(eq(sessions.id, c.cookies.get(SESSION_COOKIE)!.split('.')[0]!));
    const assets = path.join(webRoot, 'assets');
    const asset = existsSync(assets) ? readdirSync(assets).find((f) => f.endsWith('.js')) : undefined;
    for (const url of ['/healthz', '/readyz', '/favicon.svg', ...(asset ? [`/assets/${asset}`] : [])]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.headers['set-cookie'], url).toBeUndefined();
    }
    // an address that reads the session clears the stale cookie: what the others must not do
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode).toBe(401);
    expect(String(me.headers['set-cookie'])).toContain(`${SESSION_COOKIE}=;`);
  });

  it('ends the session of a user who is deleted', async () => {
    const c = await t.signedIn(1, 'leaving@example.test');
    expect((await c.get('/api/me')).statusCode).toBe(200);
    const { users } = await import('../../../db/schema/index.ts');
    await t.db.delete(users).where(eq(users.email, 'leaving@example.test'));
    expect((await c.get('/api/me')).statusCode).toBe(401);
  });

  it('takes a changed role, a deleted session and a deleted user at the very next request, on another app server too', async () => {
    const { users } = await import('../../../db/schema/index.ts');
    // a second app on the same database: another server behind the load balancer
    const other = await buildApp({ config: t.config, db: t.db, files: t.files });
    await other.ready();
    try {
      const c = await t.signedIn(1, 'moving@example.test');
      const cookie = `${SESSION_COOKIE}=${c.cookies.get(SESSION_COOKIE)}`;
      const me = () => other.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
      expect((await me()).json().user_role_id).toBe(1);
      expect((await c.get('/api/users')).statusCode).toBe(200);
      await t.db.update(users).set({ userRoleId: 3 }).where(eq(users.email, 'moving@example.test'));
      expect((await me()).json().user_role_id).toBe(3);
      expect((await c.get('/api/users')).statusCode).toBe(403);
      expect((await other.inject({ method: 'GET', url: '/api/users', headers: { cookie } })).statusCode).toBe(403);
      await t.db.delete(sessions).where(eq(sessions.id, c.cookies.get(SESSION_COOKIE)!.split('.')[0]!));
      expect((await me()).statusCode).toBe(401);
      expect((await c.get('/api/me')).statusCode).toBe(401);

      const d = await t.signedIn(1, 'gone@example.test');
      const dCookie = `${SESSION_COOKIE}=${d.cookies.get(SESSION_COOKIE)}`;
      expect((await other.inject({ method: 'GET', url: '/api/me', headers: { cookie: dCookie } })).statusCode).toBe(
        200,
      );
      await t.db.delete(users).where(eq(users.email, 'gone@example.test'));
      expect((await other.inject({ method: 'GET', url: '/api/me', headers: { cookie: dCookie } })).statusCode).toBe(
        401,
      );
    } finally {
      await other.close();
    }
  });
});

describe('CSRF', () => {
  it('refuses a cookie-authenticated change without the token with 419', async () => {
    const c = await t.signedIn(1);
    const res = await c.request({ method: 'POST', url: '/logout', csrf: false });
    expect(res.statusCode).toBe(419);
    expect(res.json()).toEqual({ message: 'CSRF token mismatch.' });
    expect((await c.get('/api/me')).statusCode).toBe(200);
  });

  it('refuses a wrong token and accepts the one from the page', async () => {
    const c = await t.signedIn(1);
    const wrong = await c.request({
      method: 'POST',
      url: '/logout',
      csrf: false,
      headers: { 'x-csrf-token': 'forged' },
    });
    expect(wrong.statusCode).toBe(419);
    const right = await c.post('/logout');
    expect(right.statusCode).toBe(204);
  });

  it('does not accept a token from another session', async () => {
    const a = await t.signedIn(1);
    const b = await t.signedIn(1);
    const res = await b.request({
      method: 'POST',
      url: '/logout',
      csrf: false,
      headers: { 'x-csrf-token': a.csrfToken! },
    });
    expect(res.statusCode).toBe(419);
  });

  it('puts the token in a meta tag of every page', async () => {
    const c = await t.signedIn(1);
    for (const page of ['/', '/charities', '/no-such-screen']) {
      const res = await c.get(page);
      expect(res.body).toMatch(/<meta name="csrf-token" content="[^"]+">/);
    }
  });
});

describe('roles', () => {
  it('answers 401 to a back-office call without a session', async () => {
    const res = await t.client().get('/api/countries');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('lets an Administrator use the back office', async () => {
    const c = await t.signedIn(1);
    const res = await c.get('/api/countries');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(249);
  });

  it.each([2, 3])('answers 403 to role %i on the back office, but lets it know who it is', async (role) => {
    const c = await t.signedIn(role);
    const res = await c.get('/api/countries');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'This action is unauthorized.' });
    expect((await c.get('/api/me')).statusCode).toBe(200);
  });
});

describe('encoded paths', () => {
  it('get no more access than the route they reach', async () => {
    for (const url of ['/%61pi/users', '/%61pi/countries', '/ap%69/charities']) {
      expect((await t.client().get(url)).statusCode, url).toBe(401);
    }
    const forged = await t.client().request({
      method: 'POST',
      url: '/%61pi/users',
      payload: { email: 'x@evil.test', first_name: 'X', last_name: 'Y', user_role_id: 1 },
      csrf: false,
    });
    expect(forged.statusCode).toBe(401);
    const traveller = await t.signedIn(3);
    expect((await traveller.get('/%61pi/users')).statusCode).toBe(403);
  });
});

describe('where a sign-in leads', () => {
  it('is only ever a path of this site', async () => {
    const { safeNextPath } = await import('../../../contract/safe-next-path.ts');
    expect(safeNextPath('/charities?name=x#top')).toBe('/charities?name=x#top');
    for (const bad of [
      '//evil.test',
      '/\\evil.test',
      '/\tevil.test',
      '/\t/evil.test',
      'https://evil.test',
      'javascript:alert(1)',
      '',
      null,
    ]) {
      expect(safeNextPath(bad as string), String(bad)).toBe('/');
    }
  });

  it('is checked on a form sign-in too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=admin%40example.test&password=${encodeURIComponent(PASSWORD)}&next=%2F%5Cevil.test`,
    });
    expect(res.headers.location).toBe('/');
  });
});

describe('sign-in from one address', () => {
  it('is limited to 30 tries a minute, whatever the accounts', async () => {
    const LOGINS_PER_MINUTE_PER_IP = 30;
    const fresh = await createTestApp({ loginRateLimit: LOGINS_PER_MINUTE_PER_IP });
    const codes: number[] = [];
    for (let i = 0; i <= LOGINS_PER_MINUTE_PER_IP; i++)
      codes.push((await fresh.client().login(`spray${i}@example.test`, 'Summer2026!')).statusCode);
    expect(codes.slice(0, LOGINS_PER_MINUTE_PER_IP).every((c) => c === 422)).toBe(true);
    expect(codes[LOGINS_PER_MINUTE_PER_IP]).toBe(429);
    await fresh.close();
  });

  it('is counted once across app servers sharing the database', async () => {
    const LIMIT = 6;
    const one = await createTestApp({ loginRateLimit: LIMIT });
    // a second server on the same database, as behind a load balancer
    const two = await buildApp({ config: one.config, db: one.db });
    const login = (app: typeof two, i: number) => new TestClient(app).login(`spread${i}@example.test`, 'Summer2026!');
    const codes: number[] = [];
    for (let i = 0; i < LIMIT; i++) codes.push((await login(i % 2 ? two : one.app, i)).statusCode);
    expect(
      codes.every((c) => c === 422),
      codes.join(),
    ).toBe(true);
    expect((await login(one.app, 98)).statusCode).toBe(429);
    expect((await login(two, 99)).statusCode).toBe(429);
    // the window is one row per route and address, with when it ends
    const [row] = await queryRows<{ hits: number; reset_at: Date | string }>(
      one.db,
      sql`select hits, reset_at from rate_limits where key like 'POST /login %'`,
    );
    expect(Number(row!.hits)).toBe(LIMIT + 2);
    // an ended window starts again from one
    await one.db.execute(sql`update rate_limits set reset_at = now() - interval '1 second'`);
    expect((await login(two, 100)).statusCode).toBe(422);
    await two.close();
    await one.close();
  });
});

describe('throttling under load', () => {
  it('lets no more than 5 of many simultaneous wrong guesses through to the password check', async () => {
    const email = 'parallel@example.test';
    await insertUser(t.db, { email, password: PASSWORD, roleId: 3 });
    const results = await Promise.all(Array.from({ length: 12 }, () => t.client().login(email, 'wrong guess')));
    const checked = results.filter((r) => r.statusCode === 422).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(7);
  });
});

describe('pages', () => {
  it('sends a visitor who is not signed in to the sign-in page, keeping where they were going', async () => {
    const res = await t.client().get('/charities?name=x');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?next=%2Fcharities%3Fname%3Dx');
  });

  it('serves the sign-in page to visitors and sends signed-in users home from it', async () => {
    expect((await t.client().get('/login')).statusCode).toBe(200);
    const c = await t.signedIn(1);
    const res = await c.get('/login');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
  });

  it('serves the app page on the path of every screen', async () => {
    const c = await t.signedIn(1);
    for (const pattern of Object.values(routes)) {
      if (pattern === routes.login) continue;
      const res = await c.get(pattern.replace(/:[A-Za-z]+/g, '7'));
      expect([pattern, res.statusCode]).toEqual([pattern, 200]);
    }
  });

  it('answers 404 with the app page for a path no screen serves', async () => {
    const c = await t.signedIn(1);
    const res = await c.get('/no-such-screen');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it("keeps a name with replacement patterns ($' and $&) out of the page template", async () => {
    const c = t.client();
    await insertUser(t.db, {
      email: 'dollar@example.test',
      password: PASSWORD,
      roleId: 3,
      firstName: "Dollar$'",
      lastName: '$&',
    });
    await c.login('dollar@example.test', PASSWORD);
    const page = await c.get('/developer');
    const boot = /<script id="tripdesk-bootstrap" type="application\/json">(.*?)<\/script>/.exec(page.body);
    expect(JSON.parse(boot![1]!).user.first_name).toBe("Dollar$'");
  });

  it('keeps script-closing text out of the page bootstrap', async () => {
    const c = t.client();
    await insertUser(t.db, {
      email: 'x</script>@example.test',
      password: PASSWORD,
      roleId: 3,
      firstName: '</script><script>alert(1)</script>',
    });
    await c.login('x</script>@example.test', PASSWORD);
    const page = await c.get('/developer');
    expect(page.body).not.toContain('<script>alert(1)');
  });
});
