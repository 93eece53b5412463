import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertAddon, insertTrip } from '../../../db/factories/trips.ts';
import {
  auditEvents,
  bookingAddons,
  bookingCustomFieldAnswers,
  bookingNotes,
  bookings,
  invoices,
  transactions,
  tripCustomFields,
  users,
} from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { bookingDiff } from './detail.ts';

let t: TestApp;
let admin: TestClient;
let adminName: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1, 'detail.admin@example.test');
  const [me] = await t.db.select().from(users).where(eq(users.email, 'detail.admin@example.test'));
  adminName = `${me!.firstName} ${me!.lastName}`;
});
afterAll(() => t.close());

const eventsOf = (bookingId: number) =>
  t.db.select().from(auditEvents).where(eq(auditEvents.bookingId, bookingId)).orderBy(asc(auditEvents.id));

/** A personal access token of the admin, and a request that carries only it. */
async function tokenCall(scopes: string[]) {
  const made = await admin.post('/oauth/personal-access-tokens', { name: `Detail ${scopes.join(' ')}`, scopes });
  expect(made.statusCode, made.body).toBe(201);
  const { token, accessToken } = made.json() as { token: { id: string }; accessToken: string };
  return {
    tokenId: token.id,
    call: (method: 'GET' | 'PATCH', url: string, payload?: unknown) =>
      t.app.inject({ method, url, payload: payload as never, headers: { authorization: `Bearer ${accessToken}` } }),
  };
}

describe('GET /api/bookings/{id}', () => {
  it('gives every field, with the trip, add-ons and the answers to the trip’s questions', async () => {
    const trip = await insertTrip(t.db, { name: 'Detail Trek', departureDate: '2099-05-01', returnDate: '2099-05-10' });
    const addon = await insertAddon(t.db, trip.id, 'Single room', 29_500);
    const [asked] = await t.db
      .insert(tripCustomFields)
      .values({ tripId: trip.id, label: 'T-shirt size', note: 'S to XL' })
      .returning();
    await t.db.insert(tripCustomFields).values({ tripId: trip.id, label: 'Unanswered', sortOrder: 1 });
    const b = await insertBooking(t.db, trip.id, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1990-05-02',
      passportNumber: '123456789',
      passportExpiryDate: '2099-09-01',
      insuranceCompany: 'Aviva',
      nokName: 'Byron',
      medicalConditions: true,
      medicalDetail: 'Asthma',
      travelBasisDiscountPence: 15_000,
    });
    await t.db.insert(bookingAddons).values({ bookingId: b.id, addonId: addon.id, pricePence: 29_500, invoiced: true });
    await t.db.insert(bookingCustomFieldAnswers).values({ bookingId: b.id, customFieldId: asked!.id, answer: 'M' });
    const res = await admin.get(`/api/bookings/${b.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: b.id,
      ref: b.ref,
      status: 'provisional',
      trip: { id: trip.id, name: 'Detail Trek', country: 'Tanzania', deleted: false },
      first_name: 'Ada',
      age: 108,
      passport_number: '123456789',
      passport_expiry: '2099-09-01',
      passport_valid: 'expires',
      insurance_company: 'Aviva',
      nok_name: 'Byron',
      medical_conditions: true,
      medical_detail: 'Asthma',
      travel_basis_discount: 150,
      addons: [{ id: addon.id, name: 'Single room', price: 295, pivot: { invoiced: true } }],
      custom_fields: [
        { label: 'T-shirt size', note: 'S to XL', answer: 'M' },
        { label: 'Unanswered', note: null, answer: null },
      ],
    });
    expect((await admin.get('/api/bookings/999999')).statusCode).toBe(404);
  });

  it('still opens a booking whose trip was deleted', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id);
    await admin.delete(`/api/trips/${trip.id}`);
    expect((await admin.get(`/api/bookings/${b.id}`)).json().trip.deleted).toBe(true);
  });
});

describe('PATCH /api/bookings/{id}', () => {
  const changes = {
    status: 'confirmed',
    title: 'Dr',
    first_name: 'Grace',
    last_name: 'Hopper',
    preferred_name: 'Amazing Grace',
    email: 'grace@example.test',
    mobile: '+44 7700 900777',
    address_1: '1 Navy Way',
    address_2: '',
    address_3: 'Portsmouth',
    address_4: 'Hampshire',
    post_code: 'PO1 1AA',
    room_type: 'Twin',
    room_ref: 'R07',
    share_with: 'Ada Lovelace',
    double_room: false,
  };

  it('changes status, room and traveller details, and leaves invoices, payments and notes alone', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id);
    const [inv] = await t.db
      .insert(invoices)
      .values({
        bookingId: b.id,
        invoiceRef: `INV-P${b.id}`,
        type: 'deposit',
        description: 'Deposit',
        invoiceDate: '2026-11-01',
        dueDate: '2026-11-15',
      })
      .returning();
    await t.db.insert(transactions).values({
      bookingId: b.id,
      invoiceId: inv!.id,
      invoiceType: 'deposit',
      amountPence: 25_000,
      type: 'payment',
      processor: 'BACS',
      date: '2026-11-02',
    });
    await t.db.insert(bookingNotes).values({ bookingId: b.id, noteText: '<p>Keep me</p>' });
    const res = await admin.patch(`/api/bookings/${b.id}`, changes);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'confirmed',
      first_name: 'Grace',
      preferred_name: 'Amazing Grace',
      address_2: null,
      room_ref: 'R07',
      share_with: 'Ada Lovelace',
    });
    expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, b.id))).toHaveLength(1);
    expect(await t.db.select().from(transactions).where(eq(transactions.bookingId, b.id))).toHaveLength(1);
    expect(await t.db.select().from(bookingNotes).where(eq(bookingNotes.bookingId, b.id))).toHaveLength(1);
  });

  it('refuses bad values field by field and changes nothing', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id, { firstName: 'Unchanged' });
    const res = await admin.patch(`/api/bookings/${b.id}`, {
      ...changes,
      status: 'lost',
      first_name: '',
      email: 'nope',
      mobile: 'call me',
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'first_name', 'mobile', 'status']);
    expect((await admin.get(`/api/bookings/${b.id}`)).json().first_name).toBe('Unchanged');
    expect((await admin.patch('/api/bookings/999999', changes)).statusCode).toBe(404);
  });
});

describe('the history of a booking', () => {
  const changes = {
    status: 'confirmed',
    title: 'Dr',
    first_name: 'Grace',
    last_name: 'Hopper',
    preferred_name: 'Amazing Grace',
    email: 'grace@example.test',
    mobile: '+44 7700 900777',
    address_1: '1 Navy Way',
    address_2: '',
    address_3: 'Portsmouth',
    address_4: 'Hampshire',
    post_code: 'PO1 1AA',
    room_type: 'Twin',
    room_ref: 'R07',
    share_with: 'Ada Lovelace',
    double_room: false,
  };

  it('records the field changes as booking.updated and the new status apart as booking.status_changed', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id, {
      title: 'Ms',
      firstName: 'Grace',
      lastName: 'Brewster',
      preferredName: 'Amazing Grace',
      email: 'grace@example.test',
      mobile: '+44 7700 900777',
      roomType: 'Twin',
      shareWith: 'Ada Lovelace',
    });
    const res = await admin.patch(`/api/bookings/${b.id}`, changes);
    expect(res.statusCode, res.body).toBe(200);
    const events = await eventsOf(b.id);
    expect(events.map((e) => e.action)).toEqual(['booking.updated', 'booking.status_changed']);
    const [updated, status] = events;
    const about = {
      subjectType: 'booking',
      subjectId: String(b.id),
      bookingId: b.id,
      tripId: trip.id,
      actorType: 'user',
      actorName: adminName,
      source: 'web',
    };
    expect(updated).toMatchObject({
      ...about,
      changes: {
        title: ['Ms', 'Dr'],
        last_name: ['Brewster', 'Hopper'],
        address_1: [null, '1 Navy Way'],
        address_3: [null, 'Portsmouth'],
        address_4: [null, 'Hampshire'],
        post_code: [null, 'PO1 1AA'],
        room_ref: [null, 'R07'],
      },
      summary: `${adminName} changed title, last name, address 1, address 3, address 4, post code and room ref of the booking ${b.ref}`,
    });
    expect(status).toMatchObject({
      ...about,
      changes: { status: ['provisional', 'confirmed'] },
      summary: `${adminName} changed status from provisional to confirmed`,
    });
  });

  it('records a change of status alone as booking.status_changed only, and a save without changes as such', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id, {
      title: 'Dr',
      firstName: 'Grace',
      lastName: 'Hopper',
      preferredName: 'Amazing Grace',
      email: 'grace@example.test',
      mobile: '+44 7700 900777',
      address1: '1 Navy Way',
      address3: 'Portsmouth',
      address4: 'Hampshire',
      postCode: 'PO1 1AA',
      roomType: 'Twin',
      roomRef: 'R07',
      shareWith: 'Ada Lovelace',
    });
    expect((await admin.patch(`/api/bookings/${b.id}`, { ...changes, status: 'cancelled' })).statusCode).toBe(200);
    expect((await admin.patch(`/api/bookings/${b.id}`, { ...changes, status: 'cancelled' })).statusCode).toBe(200);
    const events = await eventsOf(b.id);
    expect(events.map((e) => [e.action, e.changes])).toEqual([
      ['booking.status_changed', { status: ['provisional', 'cancelled'] }],
      ['booking.updated', null],
    ]);
    expect(events[1]!.summary).toBe(`${adminName} saved the booking ${b.ref} without changes`);
  });

  it('writes nothing for a refused change', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id);
    expect((await admin.patch(`/api/bookings/${b.id}`, { ...changes, email: 'nope' })).statusCode).toBe(422);
    expect(
      (await admin.request({ method: 'PATCH', url: `/api/bookings/${b.id}`, payload: changes, csrf: false }))
        .statusCode,
    ).toBe(419);
    expect((await (await t.signedIn(2)).patch(`/api/bookings/${b.id}`, changes)).statusCode).toBe(403);
    expect(await eventsOf(b.id)).toEqual([]);
    expect((await admin.patch('/api/bookings/999999', changes)).statusCode).toBe(404);
    expect(await eventsOf(999999)).toEqual([]);
  });

  it('masks passport and insurance numbers and hides medical text in a booking’s changes', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id, {
      passportNumber: '123456789',
      insurancePolicyNumber: 'POL-55501',
      medicalDetail: 'Asthma',
      medication: 'Inhaler',
    });
    const [before] = await t.db.select().from(bookings).where(eq(bookings.id, b.id));
    const after = {
      ...before!,
      passportNumber: '987654321',
      insurancePolicyNumber: 'POL-55502',
      medicalDetail: 'Asthma and diabetes',
      medication: null,
      firstName: 'Renamed',
    };
    const diff = bookingDiff(before!, after);
    expect(diff).toEqual({
      first_name: [before!.firstName, 'Renamed'],
      passport_number: ['•••789', '•••321'],
      insurance_policy_number: ['•••501', '•••502'],
      medical_detail: ['(hidden)', '(hidden)'],
      medication: ['(hidden)', null],
    });
    expect(JSON.stringify(diff)).not.toMatch(/123456|987654|Asthma|Inhaler|diabetes/);
  });

  it('records each view of a booking that shows passport or medical data, naming the fields and never their values', async () => {
    const trip = await insertTrip(t.db, { departureDate: '2099-05-01', returnDate: '2099-05-10' });
    const b = await insertBooking(t.db, trip.id, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      passportNumber: '123456789',
      passportExpiryDate: '2099-09-01',
      medicalConditions: true,
      medicalDetail: 'Asthma',
    });
    expect((await admin.get(`/api/bookings/${b.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/bookings/${b.id}`)).statusCode).toBe(200);
    const events = await eventsOf(b.id);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      action: 'booking.sensitive_viewed',
      subjectType: 'booking',
      subjectId: String(b.id),
      bookingId: b.id,
      tripId: trip.id,
      actorType: 'user',
      actorName: adminName,
      changes: null,
      summary: `${adminName} viewed the passport and medical details of the booking ${b.ref} (Ada Lovelace)`,
      details: { ref: b.ref, fields: ['passport_number', 'passport_expiry', 'medical_conditions', 'medical_detail'] },
    });
    expect(JSON.stringify(events)).not.toMatch(/123456789|Asthma/);
  });

  it('records no view of a booking without passport or medical data, nor of one not found', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id);
    expect((await admin.get(`/api/bookings/${b.id}`)).statusCode).toBe(200);
    expect(await eventsOf(b.id)).toEqual([]);
    expect((await admin.get('/api/bookings/999998')).statusCode).toBe(404);
    expect(await eventsOf(999998)).toEqual([]);
    // a refused reader sees nothing, so nothing is recorded
    expect((await (await t.signedIn(3)).get(`/api/bookings/${b.id}`)).statusCode).toBe(403);
  });

  it('names the personal access token that read or changed a booking', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id, { passportNumber: 'X1234567' });
    const reader = await tokenCall(['bookings:read', 'bookings:write']);
    expect((await reader.call('GET', `/api/bookings/${b.id}`)).statusCode).toBe(200);
    expect((await reader.call('PATCH', `/api/bookings/${b.id}`, { ...changes, status: 'confirmed' })).statusCode).toBe(
      200,
    );
    const events = await eventsOf(b.id);
    expect(events.map((e) => e.action)).toEqual([
      'booking.sensitive_viewed',
      'booking.updated',
      'booking.status_changed',
    ]);
    for (const e of events) {
      expect(e).toMatchObject({
        actorType: 'personal_token',
        actorTokenId: reader.tokenId,
        actorName: `${adminName} (personal access token)`,
        source: 'api',
      });
    }
  });
});
