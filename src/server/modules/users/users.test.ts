import { asc, desc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { auditEvents, bookings, charities, personalAccessTokens, sessions, users } from '../../../db/schema/index.ts';
import { verifyPassword } from '../../../shared/password.ts';
import { UserService } from './service.ts';
import { createTestApp, PASSWORD, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let t: TestApp;
let admin: TestClient;
let adminId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1, 'chief@example.test');
  adminId = (await admin.get('/api/me')).json().id;
});
afterAll(() => t.close());

const newUser = (over: Record<string, unknown> = {}) => ({
  email: 'new.person@example.test',
  first_name: 'New',
  last_name: 'Person',
  user_role_id: 3,
  ...over,
});

async function makeUser(over: Record<string, unknown>) {
  const res = await admin.post('/api/users', newUser(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; email: string; password: string; user_role_id: number };
}

describe('POST /api/users', () => {
  it('creates a user with a strong generated password, returned once and stored only as an argon2id hash', async () => {
    const res = await admin.post('/api/users', newUser());
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      email: 'new.person@example.test',
      first_name: 'New',
      last_name: 'Person',
      user_role_id: 3,
      role: { display_name: 'End User' },
      bookings_count: 0,
    });
    expect(body.password).toMatch(/^[A-Za-z0-9]{20}$/);
    const [row] = await t.db.select().from(users).where(eq(users.id, body.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain(body.password);
    expect(await verifyPassword(row!.passwordHash!, body.password)).toBe(true);
    // the new user can sign in with it
    expect((await t.client().login('new.person@example.test', body.password)).statusCode).toBe(204);
    // and no later read shows it
    expect((await admin.get(`/api/users/${body.id}`)).json().password).toBeUndefined();
  });

  it('wants email, first name, last name and role', async () => {
    const res = await admin.post('/api/users', { email: '', first_name: '', last_name: ' ', user_role_id: '' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      email: ['The email field is required.'],
      first_name: ['The first name field is required.'],
      last_name: ['The last name field is required.'],
      user_role_id: ['The role field is required.'],
    });
    const bad = await admin.post('/api/users', newUser({ email: 'not-an-email', user_role_id: 7 }));
    expect(bad.json().errors).toEqual({
      email: ['The email must be a valid email address.'],
      user_role_id: ['The selected role is invalid.'],
    });
  });

  it('refuses an email already taken, whatever its case', async () => {
    await makeUser({ email: 'taken@example.test' });
    const res = await admin.post('/api/users', newUser({ email: 'TAKEN@Example.test' }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The email has already been taken.',
      errors: { email: ['The email has already been taken.'] },
    });
  });

  it('is refused to Charity and End User accounts', async () => {
    for (const role of [2, 3]) {
      const c = await t.signedIn(role);
      expect(
        (await c.post('/api/users', newUser({ email: `sneaky${role}@example.test`, user_role_id: 1 }))).statusCode,
      ).toBe(403);
      expect((await c.get('/api/users')).statusCode).toBe(403);
      expect(
        (await c.request({ method: 'PATCH', url: '/api/users/update', payload: { id: adminId } })).statusCode,
      ).toBe(403);
    }
  });
});

describe('GET /api/users', () => {
  it('pages newest first, with the role and number of bookings, and searches name or email', async () => {
    const u = await makeUser({ email: 'alice.walker@example.test', first_name: 'Alice', last_name: 'Walker' });
    const trip = await insertTrip(t.db);
    await insertBooking(t.db, trip.id, { userId: u.id });
    await insertBooking(t.db, trip.id, { userId: u.id });
    const page = (await admin.get('/api/users?page=1')).json();
    expect(page).toMatchObject({ current_page: 1, per_page: 25, from: 1 });
    expect(page.data[0].email).toBe('alice.walker@example.test');
    expect(page.data[0].bookings_count).toBe(2);
    expect(page.total).toBe(page.data.length);

    const byName = (await admin.get('/api/users?search=alice walk')).json();
    expect(byName.data.map((x: { email: string }) => x.email)).toEqual(['alice.walker@example.test']);
    const byEmail = (await admin.get('/api/users?search=WALKER@EXAMPLE')).json();
    expect(byEmail.total).toBe(1);
    const none = (await admin.get('/api/users?search=nobody-at-all')).json();
    expect(none).toMatchObject({ data: [], total: 0, from: null, to: null, last_page: 1 });
  });

  it('pages 25 at a time', async () => {
    for (let i = 0; i < 30; i++)
      await insertUser(t.db, { email: `bulk${i}@paging.test`, firstName: 'Bulk', lastName: `Person${i}` });
    const first = (await admin.get('/api/users?search=paging.test&page=1')).json();
    const second = (await admin.get('/api/users?search=paging.test&page=2')).json();
    expect(first).toMatchObject({ total: 30, from: 1, to: 25, last_page: 2 });
    expect(second).toMatchObject({ total: 30, from: 26, to: 30, current_page: 2 });
    expect((await admin.get('/api/users?page=0')).statusCode).toBe(422);
    expect((await admin.get('/api/users?page=abc')).statusCode).toBe(422);
  });
});

describe('PATCH /api/users/update', () => {
  it('changes names, email and role; stripe_customer_id is read-only', async () => {
    const u = await makeUser({ email: 'change.me@example.test' });
    const res = await admin.patch('/api/users/update', {
      id: u.id,
      email: 'changed@example.test',
      first_name: 'Changed',
      last_name: 'Name',
      user_role_id: 2,
      stripe_customer_id: 'cus_hack',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: u.id,
      email: 'changed@example.test',
      first_name: 'Changed',
      role: { display_name: 'Charity' },
      stripe_customer_id: null,
    });
  });

  it('links a Charity user to one charity (an event; their sessions and tokens end), and never another role', async () => {
    const [charity] = await t.db.insert(charities).values({ name: 'Linked Charity' }).returning();
    const u = await makeUser({ email: 'charity.link@example.test' });
    const base = { id: u.id, email: u.email, first_name: 'Cara', last_name: 'Link', user_role_id: 2 };
    expect((await admin.patch('/api/users/update', { ...base, charity_id: 999999 })).json().errors).toEqual({
      charity_id: ['The selected charity is invalid.'],
    });
    const res = await admin.patch('/api/users/update', { ...base, charity_id: charity!.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().charity).toEqual({ id: charity!.id, name: 'Linked Charity' });
    expect((await admin.get(`/api/users/${u.id}`)).json().charity).toEqual({ id: charity!.id, name: 'Linked Charity' });
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.charity_changed'));
    expect(event?.summary).toMatch(/linked Cara Link to the charity Linked Charity$/);
    // a save without charity_id keeps it; an End User speaks for no charity
    expect((await admin.patch('/api/users/update', base)).json().charity).toEqual({
      id: charity!.id,
      name: 'Linked Charity',
    });
    expect(
      (await admin.patch('/api/users/update', { ...base, user_role_id: 3, charity_id: charity!.id })).json().charity,
    ).toBeNull();
  });

  it('wants the fields of the edit form', async () => {
    const u = await makeUser({ email: 'edit.rules@example.test' });
    const res = await admin.patch('/api/users/update', {
      id: u.id,
      email: '',
      first_name: '',
      last_name: '',
      user_role_id: '',
    });
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'first_name', 'last_name', 'user_role_id']);
    expect(
      (await admin.patch('/api/users/update', { ...newUser({ email: 'x@example.test' }), id: 999999 })).statusCode,
    ).toBe(404);
  });

  it('sets a new password only when it is long enough and confirmed', async () => {
    const u = await makeUser({ email: 'pw.change@example.test' });
    const base = { id: u.id, email: u.email, first_name: 'Pw', last_name: 'Change', user_role_id: 3 };
    const mismatch = await admin.patch('/api/users/update', {
      ...base,
      password: 'a brand new passphrase',
      confirm_password: 'something else',
    });
    expect(mismatch.json().errors).toEqual({ confirm_password: ['The password confirmation does not match.'] });
    const short = await admin.patch('/api/users/update', { ...base, password: 'short', confirm_password: 'short' });
    expect(short.json().errors).toEqual({ password: ['The password must be at least 12 characters.'] });
    expect((await t.client().login(u.email, u.password)).statusCode).toBe(204);
    const ok = await admin.patch('/api/users/update', {
      ...base,
      password: 'a brand new passphrase',
      confirm_password: 'a brand new passphrase',
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.client().login(u.email, 'a brand new passphrase')).statusCode).toBe(204);
    // a blank password keeps the current one
    await admin.patch('/api/users/update', { ...base, password: '', confirm_password: '' });
    expect((await t.client().login(u.email, 'a brand new passphrase')).statusCode).toBe(204);
  });

  it('refuses an email another user has', async () => {
    const a = await makeUser({ email: 'first.owner@example.test' });
    const b = await makeUser({ email: 'second.owner@example.test' });
    const res = await admin.patch('/api/users/update', {
      id: b.id,
      email: 'First.Owner@example.test',
      first_name: 'B',
      last_name: 'B',
      user_role_id: 3,
    });
    expect(res.json().errors).toEqual({ email: ['The email has already been taken.'] });
    // keeping one's own email is fine
    expect(
      (
        await admin.patch('/api/users/update', {
          id: a.id,
          email: a.email,
          first_name: 'A',
          last_name: 'A',
          user_role_id: 3,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('ends the other sessions and revokes the tokens of a user whose password or role changes', async () => {
    const u = await makeUser({ email: 'session.holder@example.test', user_role_id: 1 });
    const theirs = t.client();
    await theirs.login(u.email, u.password);
    expect((await theirs.get('/api/me')).statusCode).toBe(200);
    await t.db
      .insert(personalAccessTokens)
      .values({ userId: u.id, name: 'ci', tokenHash: 'hash-1', expiresAt: new Date(Date.now() + 86_400_000) });
    const res = await admin.patch('/api/users/update', {
      id: u.id,
      email: u.email,
      first_name: 'S',
      last_name: 'H',
      user_role_id: 3,
    });
    expect(res.statusCode).toBe(200);
    expect((await theirs.get('/api/me')).statusCode).toBe(401);
    const [token] = await t.db.select().from(personalAccessTokens).where(eq(personalAccessTokens.userId, u.id));
    expect(token!.revoked).toBe(true);
  });

  it('keeps the session of an administrator who changes their own password, and ends their others', async () => {
    const me = await t.signedIn(1, 'self.change@example.test');
    const meId = (await me.get('/api/me')).json().id;
    const elsewhere = t.client();
    await elsewhere.login('self.change@example.test', PASSWORD);
    const res = await me.patch('/api/users/update', {
      id: meId,
      email: 'self.change@example.test',
      first_name: 'Self',
      last_name: 'Change',
      user_role_id: 1,
      password: 'my new long passphrase',
      confirm_password: 'my new long passphrase',
    });
    expect(res.statusCode).toBe(200);
    expect((await me.get('/api/me')).statusCode).toBe(200);
    expect((await elsewhere.get('/api/me')).statusCode).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, meId))).toHaveLength(1);
  });

  it('does not let an administrator demote themselves', async () => {
    const res = await admin.patch('/api/users/update', {
      id: adminId,
      email: 'chief@example.test',
      first_name: 'Chief',
      last_name: 'Admin',
      user_role_id: 3,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ user_role_id: ['You cannot change your own role.'] });
  });
});

describe('DELETE /api/users/{id}', () => {
  it('deletes a user but keeps their bookings, with the traveller details', async () => {
    const u = await makeUser({ email: 'leaving.traveller@example.test' });
    const trip = await insertTrip(t.db);
    const booking = await insertBooking(t.db, trip.id, {
      userId: u.id,
      firstName: 'Leaving',
      lastName: 'Traveller',
      email: 'leaving.traveller@example.test',
    });
    expect((await admin.delete(`/api/users/${u.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/users/${u.id}`)).statusCode).toBe(404);
    const [kept] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(kept).toMatchObject({
      userId: null,
      firstName: 'Leaving',
      lastName: 'Traveller',
      email: 'leaving.traveller@example.test',
    });
    expect((await admin.delete(`/api/users/${u.id}`)).statusCode).toBe(404);
  });

  it('does not let an administrator delete themselves', async () => {
    const res = await admin.delete(`/api/users/${adminId}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'You cannot delete your own account.' });
  });
});

describe('the last Administrator', () => {
  it('can never be removed or demoted, whoever asks', async () => {
    const solo = await createTestApp();
    const only = await insertUser(solo.db, { email: 'only.admin@example.test', roleId: 1 });
    const service = new UserService(solo.db);
    const someoneElse = { userId: 424242 };
    await expect(service.delete(someoneElse, only.id)).rejects.toMatchObject({
      statusCode: 422,
      message: 'Tripdesk needs at least one Administrator: make another user an Administrator first.',
    });
    await expect(
      service.update(someoneElse, {
        id: only.id,
        email: only.email,
        first_name: 'O',
        last_name: 'A',
        user_role_id: 3,
        password: null,
      }),
    ).rejects.toMatchObject({
      statusCode: 422,
      errors: {
        user_role_id: ['Tripdesk needs at least one Administrator: make another user an Administrator first.'],
      },
    });
    expect((await solo.db.select().from(users).where(eq(users.id, only.id)))[0]!.userRoleId).toBe(1);
    // with a second Administrator the first may go
    await insertUser(solo.db, { email: 'second.admin@example.test', roleId: 1 });
    await service.delete(someoneElse, only.id);
    await solo.close();
  });

  it('is kept when two administrators try to remove each other at once', async () => {
    const race = await createTestApp();
    const a = await race.signedIn(1, 'a.racer@example.test');
    const b = await race.signedIn(1, 'b.racer@example.test');
    const aId = (await a.get('/api/me')).json().id;
    const bId = (await b.get('/api/me')).json().id;
    const [x, y] = await Promise.all([a.delete(`/api/users/${bId}`), b.delete(`/api/users/${aId}`)]);
    expect(await race.db.select().from(users).where(eq(users.userRoleId, 1))).toHaveLength(1);
    expect([x.statusCode, y.statusCode]).toContain(204);
    await race.close();
  });

  it('is kept when two administrators demote each other at once', async () => {
    const race = await createTestApp();
    const a = await race.signedIn(1, 'a.demoter@example.test');
    const b = await race.signedIn(1, 'b.demoter@example.test');
    const aId = (await a.get('/api/me')).json().id;
    const bId = (await b.get('/api/me')).json().id;
    const [x, y] = await Promise.all([
      a.patch('/api/users/update', {
        id: bId,
        email: 'b.demoter@example.test',
        first_name: 'B',
        last_name: 'B',
        user_role_id: 3,
      }),
      b.patch('/api/users/update', {
        id: aId,
        email: 'a.demoter@example.test',
        first_name: 'A',
        last_name: 'A',
        user_role_id: 3,
      }),
    ]);
    expect(await race.db.select().from(users).where(eq(users.userRoleId, 1))).toHaveLength(1);
    expect([x.statusCode, y.statusCode]).toContain(200);
    await race.close();
  });
});

describe('history', () => {
  let actor: string;
  beforeAll(async () => {
    const me = (await admin.get('/api/me')).json();
    actor = `${me.first_name} ${me.last_name}`;
  });
  const lastEventId = async () =>
    (await t.db.select({ id: auditEvents.id }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1))[0]?.id ?? 0;
  const eventsSince = (id: number) =>
    t.db.select().from(auditEvents).where(gt(auditEvents.id, id)).orderBy(asc(auditEvents.id));

  it('records a user added, never with the password', async () => {
    const since = await lastEventId();
    const u = await makeUser({
      email: 'history.new@example.test',
      first_name: 'Hattie',
      last_name: 'Story',
      user_role_id: 2,
    });
    const events = await eventsSince(since);
    expect(events).toMatchObject([
      {
        action: 'user.created',
        subjectType: 'user',
        subjectId: String(u.id),
        tripId: null,
        actorType: 'user',
        actorUserId: adminId,
        actorName: actor,
        changes: null,
        summary: `${actor} added the user Hattie Story (history.new@example.test) as Charity`,
        details: { email: 'history.new@example.test', first_name: 'Hattie', last_name: 'Story', user_role_id: 2 },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(u.password);
    expect(JSON.stringify(events)).not.toMatch(/password|argon2/i);
  });

  it('records names and email changed, a new role and a new password as events of their own', async () => {
    const u = await makeUser({
      email: 'history.edit@example.test',
      first_name: 'Eddie',
      last_name: 'Tor',
      user_role_id: 3,
    });
    let since = await lastEventId();
    await admin.patch('/api/users/update', {
      id: u.id,
      email: 'history.edited@example.test',
      first_name: 'Edward',
      last_name: 'Tor',
      user_role_id: 3,
    });
    const common = { subjectType: 'user', subjectId: String(u.id), actorName: actor, actorUserId: adminId };
    expect(await eventsSince(since)).toMatchObject([
      {
        ...common,
        action: 'user.updated',
        changes: {
          first_name: ['Eddie', 'Edward'],
          email: ['history.edit@example.test', 'history.edited@example.test'],
        },
        summary: `${actor} changed first name and email of the user Edward Tor`,
      },
    ]);

    since = await lastEventId();
    const passphrase = 'a secret nobody should read';
    await admin.patch('/api/users/update', {
      id: u.id,
      email: 'history.edited@example.test',
      first_name: 'Edward',
      last_name: 'Tor',
      user_role_id: 1,
      password: passphrase,
      confirm_password: passphrase,
    });
    const events = await eventsSince(since);
    expect(events).toMatchObject([
      {
        ...common,
        action: 'user.role_changed',
        changes: { user_role_id: [3, 1] },
        summary: `${actor} changed the role of Edward Tor from End User to Administrator`,
      },
      {
        ...common,
        action: 'user.password_changed',
        changes: null,
        details: null,
        summary: `${actor} changed the password of Edward Tor`,
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(passphrase);

    // saving without changes is recorded as such
    since = await lastEventId();
    await admin.patch('/api/users/update', {
      id: u.id,
      email: 'history.edited@example.test',
      first_name: 'Edward',
      last_name: 'Tor',
      user_role_id: 1,
    });
    expect(await eventsSince(since)).toMatchObject([
      {
        ...common,
        action: 'user.updated',
        changes: null,
        summary: `${actor} saved the user Edward Tor without changes`,
      },
    ]);
  });

  it('records a user deleted, with who they were', async () => {
    const u = await makeUser({ email: 'history.gone@example.test', first_name: 'Gone', last_name: 'Soon' });
    const since = await lastEventId();
    expect((await admin.delete(`/api/users/${u.id}`)).statusCode).toBe(204);
    expect(await eventsSince(since)).toMatchObject([
      {
        action: 'user.deleted',
        subjectType: 'user',
        subjectId: String(u.id),
        actorName: actor,
        summary: `${actor} deleted the user Gone Soon (history.gone@example.test)`,
      },
    ]);
  });

  it('records nothing, and changes nothing, when a user change is refused', async () => {
    const u = await makeUser({ email: 'history.refused@example.test', first_name: 'Refused', last_name: 'Change' });
    await makeUser({ email: 'history.other@example.test' });
    const since = await lastEventId();
    expect((await admin.post('/api/users', newUser({ email: 'History.Refused@example.test' }))).statusCode).toBe(422);
    expect(
      (
        await admin.patch('/api/users/update', {
          id: u.id,
          email: 'history.other@example.test',
          first_name: 'New',
          last_name: 'Name',
          user_role_id: 1,
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await admin.patch('/api/users/update', {
          id: adminId,
          email: 'chief@example.test',
          first_name: 'Chief',
          last_name: 'Admin',
          user_role_id: 3,
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (await admin.patch('/api/users/update', { ...newUser({ email: 'ghost@example.test' }), id: 999999 })).statusCode,
    ).toBe(404);
    expect((await admin.delete(`/api/users/${adminId}`)).statusCode).toBe(422);
    expect((await admin.delete('/api/users/999999')).statusCode).toBe(404);
    expect(await eventsSince(since)).toEqual([]);
    expect((await admin.get(`/api/users/${u.id}`)).json()).toMatchObject({ first_name: 'Refused', user_role_id: 3 });
  });
});
