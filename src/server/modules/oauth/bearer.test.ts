import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { personalAccessTokens } from '../../../db/schema/index.ts';
import { requiredScope } from '../../plugins/scopes.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { PREFIX, randomToken, sha256 } from './tokens.ts';

let t: TestApp;
let admin: TestClient;
let charity: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  charity = await t.signedIn(2);
  const trip = await insertTrip(t.db, { name: 'Token Trek', departureDate: '2099-06-01', returnDate: '2099-06-10' });
  await insertBooking(t.db, trip.id, { firstName: 'Tess', lastName: 'Token' });
});
afterAll(() => t.close());

async function pat(who: TestClient, scopes: string[]) {
  const res = await who.post('/oauth/personal-access-tokens', { name: `PAT ${scopes.join(' ')}`, scopes });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { token: { id: string }; accessToken: string };
}

/** A request carrying only the token: no cookie, no CSRF token. */
const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token}` } });

describe('a personal access token calling the API', () => {
  it('reads bookings with bookings:read, and is refused without it', async () => {
    const good = await pat(admin, ['bookings:read']);
    const res = await call(good.accessToken, 'GET', '/api/bookings?timing=all');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((b: { last_name: string }) => b.last_name)).toContain('Token');
    expect(res.headers['set-cookie']).toBeUndefined();

    const other = await pat(admin, ['trips:read', 'bookings:write']);
    const refused = await call(other.accessToken, 'GET', '/api/bookings');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'This token does not have the bookings:read scope.' });
    expect(refused.headers['www-authenticate']).toBe(
      'Bearer realm="Tripdesk", error="insufficient_scope", scope="bookings:read"',
    );
    expect((await call(other.accessToken, 'GET', '/api/trips')).statusCode).toBe(200);
  });

  it('is held to its user’s role: a Charity user’s token cannot reach the back office', async () => {
    const token = await pat(charity, ['bookings:read', 'users:read']);
    const res = await call(token.accessToken, 'GET', '/api/bookings');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'This action is unauthorized.' });
    // a route every user may call works (/api/me needs users:read)
    const me = await call(token.accessToken, 'GET', '/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().user_role_id).toBe(2);
  });

  it('writes without a CSRF token when it has the write scope', async () => {
    const token = await pat(admin, ['trips:write']);
    const res = await call(token.accessToken, 'POST', '/api/charities', { name: 'Token Charity', charity_type_id: 5 });
    expect(res.statusCode, res.body).toBe(201);
    const read = await call(token.accessToken, 'GET', '/api/charities');
    expect(read.statusCode).toBe(403);
  });

  it('answers 401 invalid_token for an unknown, malformed, expired or revoked token', async () => {
    const expect401 = async (token: string) => {
      const res = await call(token, 'GET', '/api/bookings');
      expect(res.statusCode, token).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="Tripdesk", error="invalid_token"/);
    };
    await expect401('tdp_nothing-like-this');
    await expect401('garbage');
    await expect401('');
    await expect401(randomToken(PREFIX.access));

    const expired = randomToken(PREFIX.personal);
    const adminId = (await admin.get('/api/me')).json().id;
    await t.db.insert(personalAccessTokens).values({
      userId: adminId,
      name: 'Old',
      tokenHash: sha256(expired),
      scopes: ['bookings:read'],
      expiresAt: new Date(Date.now() - 1000),
    });
    await expect401(expired);

    const token = await pat(admin, ['bookings:read']);
    expect((await call(token.accessToken, 'GET', '/api/bookings')).statusCode).toBe(200);
    expect((await admin.delete(`/oauth/personal-access-tokens/${token.token.id}`)).statusCode).toBe(204);
    // at once: the very next request is refused
    await expect401(token.accessToken);
  });

  it('uses the token alone: a valid session beside a bad token does not help', async () => {
    const res = await admin.request({
      method: 'GET',
      url: '/api/bookings',
      headers: { authorization: 'Bearer tdp_wrong' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('cannot manage clients or tokens (no token may mint tokens)', async () => {
    const token = await pat(admin, ['users:read']);
    for (const [method, url] of [
      ['GET', '/oauth/clients'],
      ['POST', '/oauth/personal-access-tokens'],
      ['GET', '/oauth/tokens'],
    ] as const) {
      const res = await call(
        token.accessToken,
        method,
        url,
        method === 'POST' ? { name: 'x', scopes: ['users:read'] } : undefined,
      );
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ message: 'This address cannot be called with an access token.' });
    }
  });

  it('records when it was last used, and shows it', async () => {
    const token = await pat(admin, ['bookings:read']);
    expect((await call(token.accessToken, 'GET', '/api/bookings')).statusCode).toBe(200);
    const list = (await admin.get('/oauth/personal-access-tokens')).json();
    const row = list.find((x: { id: string }) => x.id === token.token.id);
    expect(row.last_used_at).not.toBeNull();
    const [stored] = await t.db.select().from(personalAccessTokens).where(eq(personalAccessTokens.id, token.token.id));
    expect(stored!.lastUsedAt).toBeInstanceOf(Date);
  });

  it('downloads the booking export with bookings:read', async () => {
    const token = await pat(admin, ['bookings:read']);
    const res = await call(token.accessToken, 'GET', '/bookings/export?format=xls&timing=all');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
  });

  it('reads the emails’ wording with finance:read, and never changes, previews or test-sends it', async () => {
    const token = await pat(admin, ['finance:read', 'finance:write']);
    expect((await call(token.accessToken, 'GET', '/api/email-templates/reminder_due')).statusCode).toBe(200);
    const changed = await call(token.accessToken, 'PUT', '/api/email-templates/reminder_due', {
      subject: 'Pay now',
      body: 'Pay {{ invoice.outstanding }}',
    });
    expect(changed.statusCode).toBe(403);
    expect(changed.json().message).toBe('This address cannot be called with an access token.');
    expect((await call(token.accessToken, 'DELETE', '/api/email-templates/reminder_due')).statusCode).toBe(403);
    expect(
      (await call(token.accessToken, 'POST', '/api/email-templates/reminder_due/preview', { booking_id: 1 }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(token.accessToken, 'POST', '/api/email-templates/reminder_due/test', { booking_id: 1 })).statusCode,
    ).toBe(403);
    expect((await admin.get('/api/email-templates/reminder_due')).json().is_default).toBe(true);
  });

  it('reads the details of history events (the text of emails) only with users:read and bookings:read both', async () => {
    const [booking] = (await admin.get('/api/bookings?per_page=1')).json().data as Array<{ id: number }>;
    // an event with details: the export records its filters
    expect((await admin.get('/bookings/export?format=xls&timing=all')).statusCode).toBe(200);
    const users = await pat(admin, ['users:read']);
    const both = await pat(admin, ['users:read', 'bookings:read']);
    const bookingsOnly = await pat(admin, ['bookings:read']);
    const events = (token: string) => call(token, 'GET', '/api/audit?action=export.bookings');
    const withUsers = (await events(users.accessToken)).json();
    expect(withUsers.data.length).toBeGreaterThan(0);
    expect(withUsers.data.every((e: { details: unknown }) => e.details === null)).toBe(true);
    const withBoth = (await events(both.accessToken)).json();
    expect(withBoth.data[0].details).toMatchObject({ format: 'xls' });
    const history = (await call(bookingsOnly.accessToken, 'GET', `/api/bookings/${booking!.id}/history`)).json();
    expect(history.data.every((e: { details: unknown }) => e.details === null)).toBe(true);
    const emails = await call(bookingsOnly.accessToken, 'GET', `/api/bookings/${booking!.id}/emails`);
    expect(emails.statusCode).toBe(403);
    expect(emails.json().message).toMatch(/users:read and the bookings:read/);
    expect((await call(both.accessToken, 'GET', `/api/bookings/${booking!.id}/emails`)).statusCode).toBe(200);
    // a signed-in Administrator reads them as before
    expect((await admin.get('/api/audit?action=export.bookings')).json().data[0].details).toMatchObject({
      format: 'xls',
    });
  });
});

/**
 * Every route a token could reach, with the scope it needs (null: no token). A new route is added
 * here by hand, so its area is looked at, not only its read/write level.
 */
const EVERY_ROUTE = `
  GET /api/my/bookings null
  GET /api/my/bookings/:id null
  POST /api/bookings/:id/sign-in-link bookings:write
  PUT /api/my/bookings/:id/details null
  POST /api/my/bookings/:id/consent null
  GET /api/trips/:id/groups bookings:read
  POST /api/trips/:id/groups bookings:write
  GET /api/groups/:id bookings:read
  PUT /api/groups/:id bookings:write
  GET /api/groups/:id/invoice finance:read
  GET /api/groups/:id/invoice/pdf finance:read
  POST /api/groups/:id/payments finance:write
  GET /api/my/groups null
  GET /api/my/groups/:id null
  POST /api/my/groups/:id/pupils null
  POST /api/my/groups/:id/pupils/import null
  POST /api/my/groups/:id/reminders null
  GET /api/my/groups/:id/list null
  GET /api/my/groups/:id/invoice/pdf null
  DELETE /api/my/bookings/:id/consent null
  GET /api/my/bookings/:id/changes null
  POST /api/my/bookings/:id/changes null
  POST /api/my/sign-out-everywhere null
  PUT /api/my/bookings/:id/answers null
  POST /api/my/bookings/:id/fundraising/total null
  GET /api/my/bookings/:id/invoices/:invoiceId/pdf null
  POST /api/my/bookings/:id/passport-image null
  PUT /api/bookings/:id/answers bookings:write
  POST /api/bookings/:id/passport-image bookings:write
  GET /api/bookings/:id/passport-image bookings:read
  POST /api/bookings/:id/passport-image/checked bookings:write
  POST /api/users/:id/end-sessions null
  PUT /api/bookings/:id/traveller-form bookings:write
  DELETE /api/addons/:id trips:write
  DELETE /api/bookingNotes/:id bookings:write
  DELETE /api/charities/:id/logo trips:write
  DELETE /api/charities/:id trips:write
  DELETE /api/customFields/:id trips:write
  DELETE /api/discounts/:id finance:write
  DELETE /api/documents/:id trips:write
  DELETE /api/email-templates/:key null
  DELETE /api/invoices/:id finance:write
  DELETE /api/transactions/:id finance:write
  DELETE /api/trips/:id trips:write
  DELETE /api/users/:id null
  GET /api/teams users:read
  POST /api/teams null
  GET /api/teams/:id users:read
  PUT /api/teams/:id null
  DELETE /api/teams/:id null
  DELETE /oauth/clients/:id null
  DELETE /oauth/personal-access-tokens/:id null
  DELETE /oauth/tokens/:id null
  GET /api/admin/jobs null
  GET /api/audit users:read
  GET /api/bookingNotes bookings:read
  GET /api/bookings/:id/emails bookings:read
  GET /api/bookings/:id/fundraising bookings:read
  GET /api/bookings/:id/history bookings:read
  GET /api/bookings/:id/readiness bookings:read
  GET /api/bookings/:id/schedule finance:read
  GET /api/bookings/:id bookings:read
  GET /api/bookings bookings:read
  GET /api/charities/:id/fundraisers bookings:read
  GET /api/charities/:id/logo trips:read
  GET /api/charities/:id trips:read
  GET /api/charities trips:read
  GET /api/charity/fundraisers/:booking_id fundraising
  GET /api/charity/fundraisers fundraising
  GET /api/countries/:id/passport-rule trips:read
  GET /api/countries/passport-rules trips:read
  GET /api/countries trips:read
  GET /api/customFields trips:read
  GET /api/dashboard finance:read
  GET /api/discounts/:id finance:read
  GET /api/discounts finance:read
  GET /api/email-templates/:key finance:read
  GET /api/email-templates finance:read
  GET /api/invoices/:id/pdf finance:read
  GET /api/invoices/:id finance:read
  GET /api/invoices finance:read
  GET /api/me users:read
  GET /api/money-due/export finance:read
  GET /api/money-due finance:read
  GET /api/money-due/refunds finance:read
  GET /api/refunds-owed finance:read
  GET /api/change-requests bookings:read
  GET /api/settings/changes finance:read
  GET /api/trips/:id/changes finance:read
  GET /api/bookings/:id/cancel/preview bookings:read
  GET /api/bookings/:id/transfer/preview bookings:read
  GET /api/bookings/:id/move/trips bookings:read
  GET /api/bookings/:id/move/preview bookings:read
  GET /api/bookings/:id/funding/preview bookings:read
  GET /api/overview bookings:read
  GET /api/reports/:name finance:read
  GET /api/retention/preview bookings:read
  GET /api/trips/:id/addons trips:read
  GET /api/trips/:id/documents trips:read
  GET /api/trips/:id/fundraising trips:read
  GET /api/trips/:id/history trips:read
  GET /api/trips/:id/manifest bookings:read
  GET /api/trips/:id/payment-plan finance:read
  GET /api/trips/:id/online-booking trips:read
  GET /api/trips/:id/waiting-list trips:read
  GET /api/trips/:id/cancel/preview bookings:read
  GET /api/trips/:id/readiness bookings:read
  GET /api/trips/:id trips:read
  GET /api/trips/select trips:read
  GET /api/trips trips:read
  GET /api/users/:id users:read
  GET /api/users users:read
  GET /audit/export null
  GET /bookings/export bookings:read
  GET /oauth/clients null
  GET /oauth/personal-access-tokens null
  GET /oauth/scopes null
  GET /oauth/tokens null
  PATCH /api/addons/:id trips:write
  PATCH /api/bookingNotes/:id bookings:write
  PATCH /api/bookings/:id bookings:write
  PATCH /api/charities/:id trips:write
  PATCH /api/discounts/:id finance:write
  PATCH /api/schedule-rows/:id finance:write
  PATCH /api/trips/:id trips:write
  PATCH /api/users/update null
  POST /api/admin/jobs/:queue/:id/retry null
  POST /api/bookingNotes bookings:write
  POST /api/bookings/:id/emails/:emailId/resend bookings:write
  POST /api/bookings/:id/fundraising/entries bookings:write
  POST /api/bookings/:id/invoices/:invoiceId/send finance:write
  POST /api/bookings/:id/invoices finance:write
  POST /api/bookings/:id/reminders finance:write
  POST /api/bookings/:id/schedule/rebuild finance:write
  POST /api/bookings bookings:write
  POST /api/charities/:id/logo trips:write
  POST /api/charities trips:write
  POST /api/charity/fundraisers/:booking_id/acknowledge fundraising
  POST /api/charity/fundraisers/:booking_id/entries fundraising
  POST /api/charity/fundraisers/:booking_id/notes fundraising
  POST /api/customFields trips:write
  POST /api/discounts finance:write
  POST /api/documents/:id/upload trips:write
  POST /api/documents trips:write
  POST /api/email-templates/:key/preview null
  POST /api/email-templates/:key/test null
  POST /api/fundraising-entries/:id/strike bookings:write
  POST /api/invoices finance:write
  POST /api/invoices/:id/pay-link finance:write
  POST /api/reminders finance:write
  POST /api/transactions finance:write
  POST /api/trips/:id/addons trips:write
  POST /api/trips/:id/archive trips:write
  POST /api/trips/:id/cancel bookings:write
  POST /api/trips/:id/chasers bookings:write
  POST /api/trips/:id/documents/send bookings:write
  POST /api/trips trips:write
  POST /api/users null
  POST /logout null
  POST /oauth/authorize null
  POST /oauth/clients null
  POST /oauth/personal-access-tokens null
  PUT /api/bookings/:id/chasers bookings:write
  PUT /api/bookings/:id/fundraising bookings:write
  PUT /api/bookings/:id/keep-until bookings:write
  PUT /api/bookings/:id/reminders finance:write
  PUT /api/countries/:id/passport-rule trips:write
  PUT /api/customFields/:id trips:write
  PUT /api/email-templates/:key null
  PUT /api/trips/:id/fundraising trips:write
  PUT /api/trips/:id/payment-plan finance:write
  PUT /api/trips/:id/online-booking trips:write
  PUT /api/settings/changes finance:write
  PUT /api/trips/:id/changes finance:write
  DELETE /api/trips/:id/changes finance:write
  POST /api/bookings/:id/cancel bookings:write
  POST /api/bookings/:id/transfer bookings:write
  POST /api/bookings/:id/move bookings:write
  POST /api/change-requests/:id/close bookings:write
  PUT /api/bookings/:id/funding bookings:write
  PATCH /api/trips/:id/waiting-list/:entryId trips:write
  DELETE /api/trips/:id/waiting-list/:entryId trips:write
  POST /api/trips/:id/waiting-list/:entryId/offer trips:write
  PUT /api/trips/:id/reminders finance:write
  PUT /oauth/clients/:id null
`;

// routes for anyone (the pay page's too): no token is asked for or used
const anyone = (access: string) => access === 'public' || access === 'guest';

describe('the route → scope table', () => {
  it('gives each route the scope of its area', () => {
    const expected = EVERY_ROUTE.trim()
      .split('\n')
      .map((line) => line.trim());
    const actual = [
      ...new Set(
        t.app.routeScopes
          .filter((r) => r.method !== 'HEAD' && (!anyone(r.access) || r.scope !== null))
          .map((r) => `${r.method} ${r.url} ${r.scope}`),
      ),
    ].sort();
    expect(actual).toEqual([...expected].sort());
    // a HEAD needs what its GET needs
    for (const head of t.app.routeScopes.filter((r) => r.method === 'HEAD')) {
      expect(t.app.routeScopes.find((r) => r.method === 'GET' && r.url === head.url)?.scope, head.url).toBe(head.scope);
    }
  });

  it('gives every non-public /api route a scope (or a token could never call it, or worse)', () => {
    const api = t.app.routeScopes.filter((r) => r.url.startsWith('/api') && !anyone(r.access));
    expect(api.length).toBeGreaterThan(40);
    // account and team changes (they set passwords, roles and permissions), the job queue's administration and a traveller's own
    // pages (a browser's, signed in) only: no token may use them
    const write = (r: { method: string }) => r.method !== 'GET' && r.method !== 'HEAD';
    const closed = (r: { url: string; method: string }) =>
      ((r.url.startsWith('/api/users') || r.url.startsWith('/api/teams') || r.url.startsWith('/api/email-templates')) &&
        write(r)) ||
      r.url.startsWith('/api/admin/') ||
      r.url.startsWith('/api/my/');
    expect(api.filter((r) => r.scope === null).every(closed)).toBe(true);
    expect(
      api
        .filter((r) => r.scope === null)
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual(
      api
        .filter(closed)
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    );
    // the charity portal's one scope does both
    const portal = api.filter((x) => x.url.startsWith('/api/charity/'));
    expect(portal.length).toBeGreaterThan(4);
    expect(portal.every((r) => r.scope === 'fundraising' && r.access === 'charity')).toBe(true);
    // elsewhere reads need :read, everything else :write
    for (const r of api.filter((x) => x.scope !== null && x.scope !== 'fundraising'))
      expect(
        r.scope!.endsWith(r.method === 'GET' || r.method === 'HEAD' ? ':read' : ':write'),
        `${r.method} ${r.url}`,
      ).toBe(true);
  });

  it('keeps /oauth management and pages closed to tokens', () => {
    const oauth = t.app.routeScopes.filter((r) => r.url.startsWith('/oauth/') && r.access !== 'public');
    expect(oauth.length).toBeGreaterThan(5);
    expect(oauth.every((r) => r.scope === null)).toBe(true);
  });

  it('maps the areas, the lead’s coming routes and unknown ones', () => {
    expect(requiredScope('GET', '/api/bookings')).toBe('bookings:read');
    expect(requiredScope('PATCH', '/api/bookings/:id')).toBe('bookings:write');
    expect(requiredScope('HEAD', '/api/bookings/:id')).toBe('bookings:read');
    expect(requiredScope('POST', '/api/bookings/:id/invoices')).toBe('finance:write');
    expect(requiredScope('POST', '/api/bookings/:bookingId/invoices/:invoiceId/send')).toBe('finance:write');
    expect(requiredScope('GET', '/api/invoices')).toBe('finance:read');
    expect(requiredScope('POST', '/api/transactions')).toBe('finance:write');
    expect(requiredScope('DELETE', '/api/bookingNotes/:id')).toBe('bookings:write');
    expect(requiredScope('GET', '/api/trips/:id/documents')).toBe('trips:read');
    expect(requiredScope('GET', '/api/countries')).toBe('trips:read');
    expect(requiredScope('PATCH', '/api/charities/:id')).toBe('trips:write');
    expect(requiredScope('GET', '/api/discounts')).toBe('finance:read');
    expect(requiredScope('PATCH', '/api/users/update')).toBeNull();
    expect(requiredScope('GET', '/api/users/:id')).toBe('users:read');
    expect(requiredScope('GET', '/api/overview')).toBe('bookings:read');
    expect(requiredScope('GET', '/bookings/export')).toBe('bookings:read');
    expect(requiredScope('GET', '/api/charity/fundraisers')).toBe('fundraising');
    expect(requiredScope('POST', '/api/charity/fundraisers/:booking_id/entries')).toBe('fundraising');
    expect(requiredScope('GET', '/api/charities/:id/fundraisers')).toBe('bookings:read');
    expect(requiredScope('GET', '/api/charityextra')).toBeNull();
    // fail closed: no mapping, no token
    expect(requiredScope('GET', '/api/bookingsextra')).toBeNull();
    expect(requiredScope('GET', '/api/something-new')).toBeNull();
    expect(requiredScope('GET', '/oauth/clients')).toBeNull();
    // a route's own config wins
    expect(requiredScope('GET', '/api/something-new', 'trips:read')).toBe('trips:read');
    expect(requiredScope('GET', '/api/bookings', null)).toBeNull();
  });
});
