import { and, desc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allows, FULL_ACCESS, type Permission, type TeamPermissions } from '../../../contract/teams.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { auditEvents, teams, users } from '../../../db/schema/index.ts';
import { buildApp } from '../../app.ts';
import { SESSION_COOKIE } from '../../plugins/auth.ts';
import { UserService } from '../users/service.ts';
import { createTestApp, PASSWORD, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let t: TestApp;
let admin: TestClient;
let adminId: number;
let members = 0;
const teamId = async (name: string) => (await t.db.select().from(teams).where(eq(teams.name, name)))[0]!.id;

/** A signed-in Administrator in the team named. */
async function memberOf(team: string): Promise<{ client: TestClient; id: number }> {
  members += 1;
  const email = `member${members}@example.test`;
  const row = await insertUser(t.db, {
    email,
    password: PASSWORD,
    roleId: 1,
    firstName: 'Mo',
    lastName: `Member${members}`,
  });
  await t.db
    .update(users)
    .set({ teamId: await teamId(team) })
    .where(eq(users.id, row.id));
  const client = t.client();
  expect((await client.login(email, PASSWORD)).statusCode).toBe(204);
  return { client, id: row.id };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1, 'chief@example.test');
  adminId = (await admin.get('/api/me')).json().id;
});
afterAll(() => t.close());

const body = (name: string, permissions: Partial<TeamPermissions> = {}) => ({
  name,
  permissions: {
    bookings: 'read',
    trips: 'read',
    finance: 'none',
    charities: 'none',
    people: 'none',
    settings: 'none',
    traveller_data: 'none',
    ...permissions,
  },
});

describe('the teams Tripdesk starts with', () => {
  it('puts every Administrator in Full access, and offers Finance, Operations, Sales and Read only', async () => {
    const res = await admin.get('/api/teams');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as Array<{
      name: string;
      full_access: boolean;
      permissions: TeamPermissions;
      members: Array<{ id: number }>;
    }>;
    expect(list.map((x) => x.name)).toEqual(['Full access', 'Finance', 'Operations', 'Read only', 'Sales']);
    const full = list[0]!;
    expect(full.full_access).toBe(true);
    expect(full.permissions).toEqual(FULL_ACCESS);
    expect(full.members.map((m) => m.id)).toContain(adminId);
    const of = (name: string) => list.find((x) => x.name === name)!.permissions;
    expect(of('Finance')).toEqual({
      bookings: 'read',
      trips: 'read',
      finance: 'change',
      charities: 'read',
      people: 'none',
      settings: 'none',
      traveller_data: 'none',
    });
    expect(of('Operations')).toEqual({
      bookings: 'change',
      trips: 'change',
      finance: 'read',
      charities: 'read',
      people: 'none',
      settings: 'none',
      traveller_data: 'change',
    });
    expect(of('Sales')).toEqual({
      bookings: 'change',
      trips: 'read',
      finance: 'read',
      charities: 'read',
      people: 'none',
      settings: 'none',
      traveller_data: 'none',
    });
    expect(of('Read only')).toEqual({
      bookings: 'read',
      trips: 'read',
      finance: 'read',
      charities: 'read',
      people: 'none',
      settings: 'none',
      traveller_data: 'none',
    });
  });

  it('reports the signed-in member’s team and permissions at /api/me, and a new Administrator joins Full access', async () => {
    const me = (await admin.get('/api/me')).json();
    expect(me.team).toEqual({ id: await teamId('Full access'), name: 'Full access' });
    expect(me.permissions).toEqual(FULL_ACCESS);
    const made = await admin.post('/api/users', {
      email: 'fresh.admin@example.test',
      first_name: 'Fresh',
      last_name: 'Admin',
      user_role_id: 1,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().team).toEqual({ id: await teamId('Full access'), name: 'Full access' });
    const traveller = await t.signedIn(3);
    expect((await traveller.get('/api/me')).json()).toMatchObject({ team: null, permissions: null });
  });
});

describe('every route against each starting team', () => {
  const fill = (url: string) => url.replace(/:[A-Za-z]+/g, (p) => (/id$/i.test(p) ? '999999' : 'x'));

  for (const team of ['Finance', 'Operations', 'Sales', 'Read only', 'Full access']) {
    it(`${team}: allowed where its permissions reach the route's need, 403 naming the permission where not`, async () => {
      const { client } = await memberOf(team);
      const perms = (await client.get('/api/me')).json().permissions as TeamPermissions;
      const routes = t.app.routeScopes.filter(
        (r) => r.access === 'admin' && r.method !== 'HEAD' && !r.url.includes('*') && r.url !== '/api/me',
      );
      expect(routes.length).toBeGreaterThan(100);
      const wrong: string[] = [];
      for (const route of routes) {
        const res = await client.request({
          method: route.method as 'GET',
          url: fill(route.url),
          payload: route.method === 'GET' ? undefined : ({} as never),
        });
        const may = route.permissions.every((n) => allows(perms, n.permission, n.level));
        const refused = res.statusCode === 403 && res.headers['x-permission-needed'] !== undefined;
        if (may === refused) wrong.push(`${route.method} ${route.url} → ${res.statusCode}`);
        if (refused) {
          const [permission, level] = String(res.headers['x-permission-needed']).split(':') as [Permission, string];
          expect(route.permissions.some((n) => n.permission === permission && n.level === level)).toBe(true);
          expect(res.json().message).toMatch(/^Your team does not have the .+ (read|change) permission\.$/);
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it('names the area each route needs from the one table: bookings, finance, the passport images with traveller data', async () => {
    const need = (method: string, url: string) =>
      t.app.routeScopes
        .find((r) => r.method === method && r.url === url)!
        .permissions.map((n) => `${n.permission}:${n.level}`);
    expect(need('GET', '/api/bookings')).toEqual(['bookings:read']);
    expect(need('POST', '/api/transactions')).toEqual(['finance:change']);
    expect(need('POST', '/api/discounts')).toEqual(['charities:change']);
    expect(need('PUT', '/api/email-templates/:key')).toEqual(['settings:change']);
    expect(need('POST', '/api/teams')).toEqual(['people:change']);
    expect(need('GET', '/api/bookings/:id/passport-image')).toEqual(['bookings:read', 'traveller_data:read']);
    expect(need('GET', '/api/trips/:id/manifest')).toEqual(['bookings:read', 'traveller_data:read']);
    expect(need('GET', '/api/me')).toEqual([]);
    // cancelling a departure ends the trip as well as its bookings
    expect(need('POST', '/api/trips/:id/cancel')).toEqual(['bookings:change', 'trips:change']);
    const { client } = await memberOf('Sales');
    const refused = await client.post('/api/trips/999999/cancel', { reason: 'Too few', notify: false });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your team does not have the trips change permission.');
  });
});

describe('a token never does more than its owner', () => {
  it('refuses a Finance member’s token with bookings:write on bookings, and lets it read them', async () => {
    const { client } = await memberOf('Finance');
    const made = await client.post('/oauth/personal-access-tokens', {
      name: 'Finance sync',
      scopes: ['bookings:read', 'bookings:write'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const token = made.json().accessToken as string;
    const call = (method: 'GET' | 'POST', url: string) =>
      t.app.inject({
        method,
        url,
        payload: method === 'POST' ? {} : undefined,
        headers: { authorization: `Bearer ${token}` },
      });
    const write = await call('POST', '/api/bookings');
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toBe('Your team does not have the bookings change permission.');
    expect((await call('GET', '/api/bookings')).statusCode).toBe(200);
  });
});

describe('changing teams', () => {
  it('adds, renames, changes and deletes a team, each an event in the History naming the actor’s team', async () => {
    const made = await admin.post('/api/teams', body('Seasonal helpers'));
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as number;
    expect(made.json()).toMatchObject({ name: 'Seasonal helpers', full_access: false, members: [] });
    const changed = await admin.put(`/api/teams/${id}`, body('Summer helpers', { finance: 'read' }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().permissions.finance).toBe('read');
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectType, 'team'), eq(auditEvents.subjectId, String(id))))
      .orderBy(desc(auditEvents.id));
    expect(events[0]!.summary).toMatch(
      /saved the team Seasonal helpers: renamed it Summer helpers; changed finance from none to read$/,
    );
    expect(events[0]!.changes).toEqual({ name: ['Seasonal helpers', 'Summer helpers'], finance: ['none', 'read'] });
    expect(events[0]!.actorTeam).toBe('Full access');
    const history = (await admin.get(`/api/audit?action=team.updated`)).json();
    expect(history.data[0].actor.team).toBe('Full access');
    expect((await admin.delete(`/api/teams/${id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/teams/${id}`)).statusCode).toBe(404);
  });

  it('refuses a bad level, a blank or taken name, and changes nothing', async () => {
    const before = (await admin.get('/api/teams')).json().length;
    const bad = await admin.post('/api/teams', {
      name: '',
      permissions: { ...body('x').permissions, finance: 'write' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      name: ['The name field is required.'],
      'permissions.finance': ['The finance permission must be none, read or change.'],
    });
    const taken = await admin.post('/api/teams', body('sales'));
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ name: ['Another team already has this name.'] });
    expect((await admin.get('/api/teams')).json().length).toBe(before);
  });

  it('keeps Full access whole: its permissions cannot change, it cannot be deleted, but it can be renamed', async () => {
    const full = await teamId('Full access');
    const less = await admin.put(`/api/teams/${full}`, {
      name: 'Full access',
      permissions: { ...FULL_ACCESS, people: 'read' },
    });
    expect(less.statusCode).toBe(422);
    expect(less.json().errors.permissions).toEqual(['Full access keeps every permission: only its name can change.']);
    const gone = await admin.delete(`/api/teams/${full}`);
    expect(gone.statusCode).toBe(422);
    expect(gone.json().message).toBe('Full access cannot be deleted.');
    const renamed = await admin.put(`/api/teams/${full}`, { name: 'Directors', permissions: FULL_ACCESS });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await admin.put(`/api/teams/${full}`, { name: 'Full access', permissions: FULL_ACCESS })).statusCode).toBe(
      200,
    );
  });

  it('refuses to delete a team with members', async () => {
    await memberOf('Sales');
    const res = await admin.delete(`/api/teams/${await teamId('Sales')}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('This team has members: move them to another team first.');
  });

  it('lets no one give more than their own team has', async () => {
    const people = await admin.post('/api/teams', body('Office manager', { people: 'change' }));
    expect(people.statusCode, people.body).toBe(201);
    const { client } = await memberOf('Office manager');
    const wider = await client.post('/api/teams', body('Wider', { finance: 'change' }));
    expect(wider.statusCode).toBe(422);
    expect(wider.json().errors.permissions).toEqual(['You cannot give more than your own team has: finance.']);
    const made = await client.post('/api/users', {
      email: 'wannabe@example.test',
      first_name: 'Wanna',
      last_name: 'Be',
      user_role_id: 1,
    });
    expect(made.statusCode).toBe(422);
    expect(made.json().errors.team_id[0]).toMatch(/^You cannot give more than your own team has: /);
    expect((await client.post('/api/teams', body('Narrower'))).statusCode).toBe(201);
    // nor takes over an account whose team may do more: a new password for the chief is refused
    const chief = (await admin.get(`/api/users/${adminId}`)).json();
    const takeover = await client.patch('/api/users/update', {
      id: adminId,
      email: chief.email,
      first_name: chief.first_name,
      last_name: chief.last_name,
      user_role_id: 1,
      password: 'a brand new password',
      confirm_password: 'a brand new password',
    });
    expect(takeover.statusCode).toBe(403);
    expect(takeover.json().message).toBe('You cannot change a member whose team may do more than yours.');
    expect((await client.delete(`/api/users/${adminId}`)).statusCode).toBe(403);
    // nor changes or deletes a team that may do more than theirs
    const finance = await teamId('Finance');
    const lowered = await client.put(`/api/teams/${finance}`, body('Finance'));
    expect(lowered.statusCode).toBe(403);
    expect(lowered.json().message).toBe('You cannot change a team that may do more than yours.');
    expect((await client.delete(`/api/teams/${finance}`)).statusCode).toBe(403);
    expect(
      (await client.put(`/api/teams/${await teamId('Full access')}`, { name: 'Mine', permissions: FULL_ACCESS }))
        .statusCode,
    ).toBe(403);
    // a traveller's account is still theirs to change
    const traveller = await admin.post('/api/users', {
      email: 'tess.t@example.test',
      first_name: 'Tess',
      last_name: 'T',
      user_role_id: 3,
    });
    const mine = await client.patch('/api/users/update', {
      id: traveller.json().id,
      email: 'tess.t@example.test',
      first_name: 'Tessa',
      last_name: 'T',
      user_role_id: 3,
    });
    expect(mine.statusCode, mine.body).toBe(200);
  });
});

describe('a member’s team', () => {
  it('is set on the user form, shown on the user, and is an event; their own is not theirs to change', async () => {
    const { id } = await memberOf('Read only');
    const user = (await admin.get(`/api/users/${id}`)).json();
    expect(user.team).toEqual({ id: await teamId('Read only'), name: 'Read only' });
    const moved = await admin.patch('/api/users/update', {
      id,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      user_role_id: 1,
      team_id: await teamId('Finance'),
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().team.name).toBe('Finance');
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'user.team_changed'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(event!.summary).toMatch(/moved Mo Member\d+ from the team Read only to Finance$/);
    const me = (await admin.get(`/api/users/${adminId}`)).json();
    const own = await admin.patch('/api/users/update', {
      id: adminId,
      email: me.email,
      first_name: me.first_name,
      last_name: me.last_name,
      user_role_id: 1,
      team_id: await teamId('Sales'),
    });
    expect(own.statusCode).toBe(422);
    expect(own.json().errors.team_id).toEqual(['You cannot change your own team.']);
    const badTeam = await admin.patch('/api/users/update', {
      id,
      email: user.email,
      first_name: 'Mo',
      last_name: user.last_name,
      user_role_id: 1,
      team_id: 999999,
    });
    expect(badTeam.statusCode).toBe(422);
    expect(badTeam.json().errors.team_id).toEqual(['The selected team is invalid.']);
  });

  it('keeps one member of Full access: the last cannot be moved out, demoted or deleted', async () => {
    const full = await teamId('Full access');
    const readOnly = await teamId('Read only');
    // the chief is made the only member of Full access
    await t.db
      .update(users)
      .set({ teamId: readOnly })
      .where(and(eq(users.teamId, full), ne(users.id, adminId)));
    // someone else who may change people (but is not in Full access) tries to take the chief out
    const made = await admin.post(
      '/api/teams',
      body('People desk', { finance: 'read', charities: 'read', people: 'change' }),
    );
    expect(made.statusCode, made.body).toBe(201);
    const { client } = await memberOf('People desk');
    const me = (await admin.get(`/api/users/${adminId}`)).json();
    const as = (over: Record<string, unknown>) => ({
      id: adminId,
      email: me.email,
      first_name: me.first_name,
      last_name: me.last_name,
      user_role_id: 1,
      ...over,
    });
    // through the API a member below Full access may not touch a Full access account at all
    for (const res of [
      await client.patch('/api/users/update', as({ team_id: readOnly })),
      await client.patch('/api/users/update', as({ user_role_id: 3 })),
      await client.delete(`/api/users/${adminId}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You cannot change a member whose team may do more than yours.');
    }
    // and the service's own rule holds whoever asks (here with no team to bound them)
    const service = new UserService(t.db);
    const last = 'Tripdesk needs at least one member of Full access: add another member to it first.';
    const refused = async (p: Promise<unknown>) => {
      const error = (await p.catch((e: unknown) => e)) as {
        statusCode: number;
        message: string;
        errors?: Record<string, string[]>;
      };
      expect(error.statusCode).toBe(422);
      return error;
    };
    expect(
      (await refused(service.update({ userId: 0 }, { ...as({ team_id: readOnly }), password: null }))).errors?.team_id,
    ).toEqual([last]);
    expect(
      (await refused(service.update({ userId: 0 }, { ...as({ user_role_id: 3 }), password: null }))).errors
        ?.user_role_id,
    ).toEqual([last]);
    expect((await refused(service.delete({ userId: 0 }, adminId))).message).toBe(last);
    expect((await admin.get('/api/me')).json().team.name).toBe('Full access');
    // with a second member of Full access, the chief may be moved
    const second = await memberOf('Full access');
    const now = await second.client.patch('/api/users/update', as({ team_id: readOnly }));
    expect(now.statusCode, now.body).toBe(200);
    await t.db.update(users).set({ teamId: full }).where(eq(users.id, adminId));
  });

  it('never takes an Administrator’s team away by setting it to none (no quiet Full access)', async () => {
    const { client, id } = await memberOf('Read only');
    const error = await t.db
      .update(users)
      .set({ teamId: null })
      .where(eq(users.id, id))
      .catch((e: unknown) => e);
    expect(String((error as { cause?: unknown }).cause ?? error)).toMatch(/An Administrator belongs to a team/);
    expect((await client.get('/api/me')).json().team.name).toBe('Read only');
    expect((await client.get('/api/users')).statusCode).toBe(403);
  });

  it('moves the last two members of Full access out at the same moment: one moves, the other is refused', async () => {
    const full = await teamId('Full access');
    const readOnly = await teamId('Read only');
    // two directors may do everything (but are not Full access): each takes one member out at once
    const made = await admin.post('/api/teams', { name: 'Directors', permissions: FULL_ACCESS });
    expect(made.statusCode, made.body).toBe(201);
    const a = await memberOf('Directors');
    const b = await memberOf('Directors');
    const x = await memberOf('Full access');
    const y = await memberOf('Full access');
    const shown = new Map([
      [x.id, (await admin.get(`/api/users/${x.id}`)).json()],
      [y.id, (await admin.get(`/api/users/${y.id}`)).json()],
    ]);
    await t.db
      .update(users)
      .set({ teamId: readOnly })
      .where(and(eq(users.teamId, full), ne(users.id, x.id), ne(users.id, y.id)));
    const moveOut = async (by: TestClient, id: number) => {
      const u = shown.get(id);
      return by.patch('/api/users/update', {
        id,
        email: u.email,
        first_name: u.first_name,
        last_name: u.last_name,
        user_role_id: 1,
        team_id: readOnly,
      });
    };
    try {
      const both = await Promise.all([moveOut(a.client, x.id), moveOut(b.client, y.id)]);
      expect(both.map((r) => r.statusCode).sort(), both.map((r) => r.body).join('\n')).toEqual([200, 422]);
      expect(both.find((r) => r.statusCode === 422)!.json().errors.team_id).toEqual([
        'Tripdesk needs at least one member of Full access: add another member to it first.',
      ]);
      expect(await t.db.select({ id: users.id }).from(users).where(eq(users.teamId, full))).toHaveLength(1);
    } finally {
      await t.db.update(users).set({ teamId: full }).where(eq(users.id, adminId));
    }
  });

  it('takes a changed team or a changed permission at the next request, on another server too', async () => {
    const other = await buildApp({ config: t.config, db: t.db, files: t.files });
    await other.ready();
    try {
      const { client, id } = await memberOf('Sales');
      const cookie = `${SESSION_COOKIE}=${client.cookies.get(SESSION_COOKIE)}`;
      const get = (url: string) => other.inject({ method: 'GET', url, headers: { cookie } });
      expect((await get('/api/money-due')).statusCode).toBe(200);
      // the member moves to a team without finance
      const made = await admin.post('/api/teams', body('Bookings desk'));
      const user = (await admin.get(`/api/users/${id}`)).json();
      const moved = await admin.patch('/api/users/update', {
        id,
        email: user.email,
        first_name: user.first_name,
        last_name: user.last_name,
        user_role_id: 1,
        team_id: made.json().id,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect((await get('/api/money-due')).statusCode).toBe(403);
      expect((await get('/api/me')).json().team.name).toBe('Bookings desk');
      // and the team is given finance read
      await admin.put(`/api/teams/${made.json().id}`, body('Bookings desk', { finance: 'read' }));
      expect((await get('/api/money-due')).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
