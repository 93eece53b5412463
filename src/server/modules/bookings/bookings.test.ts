import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTrip } from '../../../db/factories/trips.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { users } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let t: TestApp;
let admin: TestClient;
let tripId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  tripId = (await insertTrip(t.db)).id;
});
afterAll(() => t.close());

const booking = (over: Record<string, unknown> = {}) => ({
  trip_id: tripId,
  title: 'Ms',
  first_name: 'Joanne',
  last_name: 'Walker',
  preferred_name: 'Jo',
  email: 'jo.walker@example.test',
  mobile: '07700 900123',
  as_on_passport: true,
  terms_accepted: true,
  ...over,
});

describe('POST /api/bookings', () => {
  it('makes a provisional booking with a readable reference, and an End User for a new email', async () => {
    const res = await admin.post('/api/bookings', booking());
    expect(res.statusCode, res.body).toBe(201);
    const b = res.json();
    expect(b).toMatchObject({ status: 'provisional', trip_id: tripId, first_name: 'Joanne', preferred_name: 'Jo', mobile: '07700 900123' });
    expect(b.ref).toMatch(/^TD-[2-9A-HJKMNP-Z]{6}$/);
    const [user] = await t.db.select().from(users).where(eq(users.id, b.user_id));
    expect(user).toMatchObject({ email: 'jo.walker@example.test', userRoleId: 3, passwordHash: null });
  });

  it('links to the existing user with that email, whatever its case', async () => {
    const existing = await insertUser(t.db, { email: 'Known.Person@example.test' });
    const res = await admin.post('/api/bookings', booking({ email: 'known.person@EXAMPLE.test' }));
    expect(res.json().user_id).toBe(existing.id);
  });

  it('wants title, names, preferred name, email and both confirmations; mobile is optional', async () => {
    const res = await admin.post('/api/bookings', { trip_id: tripId, title: '', first_name: '', last_name: '', preferred_name: '', email: '', as_on_passport: false, terms_accepted: false });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      title: ['The title field is required.'],
      first_name: ['The first name field is required.'],
      last_name: ['The last name field is required.'],
      preferred_name: ['The preferred name field is required.'],
      email: ['The email field is required.'],
      as_on_passport: ['Please confirm the details are as shown on the passport.'],
      terms_accepted: ['The terms and conditions must be accepted.'],
    });
    expect((await admin.post('/api/bookings', booking({ email: 'no.mobile@example.test', mobile: '' }))).json().mobile).toBeNull();
    expect((await admin.post('/api/bookings', booking({ mobile: 'call me' }))).json().errors).toEqual({ mobile: ['The mobile may only contain digits, spaces, +, ( ) and -.'] });
  });

  it('only books trips that are open and not deleted', async () => {
    const closed = await insertTrip(t.db, { status: 'closed' });
    const res = await admin.post('/api/bookings', booking({ trip_id: closed.id }));
    expect(res.json().errors).toEqual({ trip_id: ['This trip is closed and is not taking bookings.'] });
    const deleted = await insertTrip(t.db, { deletedAt: new Date() });
    expect((await admin.post('/api/bookings', booking({ trip_id: deleted.id }))).json().errors).toEqual({ trip_id: ['The selected trip is invalid.'] });
  });

  it('gives two bookings made at once for the same new person one user between them', async () => {
    const [a, b] = await Promise.all([
      admin.post('/api/bookings', booking({ email: 'twins@example.test', first_name: 'Ann' })),
      admin.post('/api/bookings', booking({ email: 'twins@example.test', first_name: 'Bea' })),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().user_id).toBe(b.json().user_id);
    expect(a.json().ref).not.toBe(b.json().ref);
  });
});
