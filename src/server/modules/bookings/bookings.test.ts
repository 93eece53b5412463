import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTrip } from '../../../db/factories/trips.ts';
import { insertUser } from '../../../db/factories/users.ts';
import { auditEvents, users } from '../../../db/schema/index.ts';
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
    expect(b).toMatchObject({
      status: 'provisional',
      trip_id: tripId,
      first_name: 'Joanne',
      preferred_name: 'Jo',
      mobile: '07700 900123',
    });
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
    const res = await admin.post('/api/bookings', {
      trip_id: tripId,
      title: '',
      first_name: '',
      last_name: '',
      preferred_name: '',
      email: '',
      as_on_passport: false,
      terms_accepted: false,
    });
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
    expect(
      (await admin.post('/api/bookings', booking({ email: 'no.mobile@example.test', mobile: '' }))).json().mobile,
    ).toBeNull();
    expect((await admin.post('/api/bookings', booking({ mobile: 'call me' }))).json().errors).toEqual({
      mobile: ['The mobile may only contain digits, spaces, +, ( ) and -.'],
    });
  });

  it('only books trips that are open and not deleted', async () => {
    const closed = await insertTrip(t.db, { status: 'closed' });
    const res = await admin.post('/api/bookings', booking({ trip_id: closed.id }));
    expect(res.json().errors).toEqual({ trip_id: ['This trip is closed and is not taking bookings.'] });
    const deleted = await insertTrip(t.db, { deletedAt: new Date() });
    expect((await admin.post('/api/bookings', booking({ trip_id: deleted.id }))).json().errors).toEqual({
      trip_id: ['The selected trip is invalid.'],
    });
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

describe('the history of making a booking', () => {
  const eventsOfTrip = (id: number) =>
    t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tripId, id), eq(auditEvents.action, 'booking.created')))
      .orderBy(asc(auditEvents.id));

  it('records booking.created with the booking, its trip and who made it, in the same transaction', async () => {
    const trip = await insertTrip(t.db, { name: 'History Trek' });
    const clerk = await t.signedIn(1, 'history.clerk@example.test');
    const res = await clerk.post('/api/bookings', booking({ trip_id: trip.id, email: 'history.booker@example.test' }));
    expect(res.statusCode, res.body).toBe(201);
    const b = res.json();
    const [user] = await t.db.select().from(users).where(eq(users.email, 'history.clerk@example.test'));
    const events = await eventsOfTrip(trip.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'booking.created',
      subjectType: 'booking',
      subjectId: String(b.id),
      bookingId: b.id,
      tripId: trip.id,
      actorType: 'user',
      actorUserId: user!.id,
      actorName: `${user!.firstName} ${user!.lastName}`,
      source: 'web',
      ipAddress: '127.0.0.1',
      changes: null,
      summary: `${user!.firstName} ${user!.lastName} made the booking ${b.ref} for Joanne Walker on History Trek`,
      details: { ref: b.ref, status: 'provisional', new_user: true },
    });
  });

  it('writes no event for a refused booking', async () => {
    const closed = await insertTrip(t.db, { status: 'closed' });
    expect((await admin.post('/api/bookings', booking({ trip_id: closed.id }))).statusCode).toBe(422);
    const open = await insertTrip(t.db);
    expect((await admin.post('/api/bookings', booking({ trip_id: open.id, first_name: '' }))).statusCode).toBe(422);
    expect(await eventsOfTrip(closed.id)).toEqual([]);
    expect(await eventsOfTrip(open.id)).toEqual([]);
  });

  it('names the personal access token a booking was made with', async () => {
    const trip = await insertTrip(t.db);
    const made = await admin.post('/oauth/personal-access-tokens', {
      name: 'Booking robot',
      scopes: ['bookings:write'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const { token, accessToken } = made.json() as { token: { id: string }; accessToken: string };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      payload: booking({ trip_id: trip.id }),
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [event] = await eventsOfTrip(trip.id);
    expect(event).toMatchObject({
      actorType: 'personal_token',
      actorTokenId: token.id,
      source: 'api',
      bookingId: res.json().id,
    });
    expect(event!.actorName).toMatch(/^Sam Tester\d+ \(personal access token\)$/);
    expect(event!.summary).toMatch(/^Sam Tester\d+ \(personal access token\) made the booking /);
  });
});
