import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertAddon, insertTrip } from '../../../db/factories/trips.ts';
import { bookingAddons, bookingCustomFieldAnswers, bookingNotes, invoices, transactions, tripCustomFields } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
});
afterAll(() => t.close());

describe('GET /api/bookings/{id}', () => {
  it('gives every field, with the trip, add-ons and the answers to the trip’s questions', async () => {
    const trip = await insertTrip(t.db, { name: 'Detail Trek', departureDate: '2099-05-01', returnDate: '2099-05-10' });
    const addon = await insertAddon(t.db, trip.id, 'Single room', 29_500);
    const [asked] = await t.db.insert(tripCustomFields).values({ tripId: trip.id, label: 'T-shirt size', note: 'S to XL' }).returning();
    await t.db.insert(tripCustomFields).values({ tripId: trip.id, label: 'Unanswered', sortOrder: 1 });
    const b = await insertBooking(t.db, trip.id, {
      firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1990-05-02', passportNumber: '123456789', passportExpiryDate: '2099-09-01',
      insuranceCompany: 'Aviva', nokName: 'Byron', medicalConditions: true, medicalDetail: 'Asthma', travelBasisDiscountPence: 15_000,
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
    status: 'confirmed', title: 'Dr', first_name: 'Grace', last_name: 'Hopper', preferred_name: 'Amazing Grace', email: 'grace@example.test',
    mobile: '+44 7700 900777', address_1: '1 Navy Way', address_2: '', address_3: 'Portsmouth', address_4: 'Hampshire', post_code: 'PO1 1AA',
    room_type: 'Twin', room_ref: 'R07', share_with: 'Ada Lovelace', double_room: false,
  };

  it('changes status, room and traveller details, and leaves invoices, payments and notes alone', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id);
    const [inv] = await t.db.insert(invoices).values({ bookingId: b.id, invoiceRef: `INV-P${b.id}`, type: 'deposit', description: 'Deposit', invoiceDate: '2026-11-01', dueDate: '2026-11-15' }).returning();
    await t.db.insert(transactions).values({ bookingId: b.id, invoiceId: inv!.id, invoiceType: 'deposit', amountPence: 25_000, type: 'payment', processor: 'BACS', date: '2026-11-02' });
    await t.db.insert(bookingNotes).values({ bookingId: b.id, noteText: '<p>Keep me</p>' });
    const res = await admin.patch(`/api/bookings/${b.id}`, changes);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'confirmed', first_name: 'Grace', preferred_name: 'Amazing Grace', address_2: null, room_ref: 'R07', share_with: 'Ada Lovelace' });
    expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, b.id))).toHaveLength(1);
    expect(await t.db.select().from(transactions).where(eq(transactions.bookingId, b.id))).toHaveLength(1);
    expect(await t.db.select().from(bookingNotes).where(eq(bookingNotes.bookingId, b.id))).toHaveLength(1);
  });

  it('refuses bad values field by field and changes nothing', async () => {
    const trip = await insertTrip(t.db);
    const b = await insertBooking(t.db, trip.id, { firstName: 'Unchanged' });
    const res = await admin.patch(`/api/bookings/${b.id}`, { ...changes, status: 'lost', first_name: '', email: 'nope', mobile: 'call me' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'first_name', 'mobile', 'status']);
    expect((await admin.get(`/api/bookings/${b.id}`)).json().first_name).toBe('Unchanged');
    expect((await admin.patch('/api/bookings/999999', changes)).statusCode).toBe(404);
  });
});
