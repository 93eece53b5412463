import { asc, desc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAddon, insertTrip } from '../../../db/factories/trips.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { auditEvents, bookingAddons, bookings, trips } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { editability } from './service.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
});
afterAll(() => t.close());

const newTrip = (over: Record<string, unknown> = {}) => ({
  name: 'Atlas Trek 2099',
  country_id: 504,
  departure: '10/05/2099',
  return: '17/05/2099',
  type: 'charity',
  level: 2,
  status: 'open',
  deposit: 0,
  cost: 0,
  require_passport: 1,
  funding: 'both',
  ...over,
});

async function create(over: Record<string, unknown> = {}) {
  const res = await admin.post('/api/trips', newTrip(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('POST /api/trips', () => {
  it('creates an open trip with the fixed values, and answers with its id', async () => {
    const trip = await create({ name: 'Fixed Values Trek' });
    expect(trip).toMatchObject({
      name: 'Fixed Values Trek',
      country: { id: 504, name: 'Morocco' },
      departure: '2099-05-10',
      return: '2099-05-17',
      type: 'charity',
      level: 2,
      status: 'open',
      deposit: 0,
      cost: 0,
      require_passport: true,
      funding: 'both',
      booking_count: 0,
      editable: true,
      archived: false,
    });
    expect(trip.id).toBeGreaterThan(0);
  });

  it('defaults to type charity and level 2', async () => {
    const trip = await create({
      name: 'Defaults',
      type: undefined,
      level: undefined,
      status: undefined,
      deposit: undefined,
      cost: undefined,
      require_passport: undefined,
      funding: undefined,
    });
    expect(trip).toMatchObject({ type: 'charity', level: 2, status: 'open' });
  });

  it('refuses other values for the fixed fields rather than ignore them', async () => {
    const res = await admin.post('/api/trips', newTrip({ status: 'closed', deposit: 500, funding: 'self' }));
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['deposit', 'funding', 'status']);
  });

  it('lists every problem: name, country, dates, type and level', async () => {
    const res = await admin.post('/api/trips', {
      name: '',
      country_id: '',
      departure: '31/02/2099',
      return: '',
      type: 'cruise',
      level: 9,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      name: ['The name field is required.'],
      country_id: ['The country field is required.'],
      departure: ['The departure date must be a real date in the format DD/MM/YYYY.'],
      return: ['The return date field is required.'],
      type: ['The selected type is invalid.'],
      level: ['The selected level is invalid.'],
    });
    const backwards = await admin.post('/api/trips', newTrip({ departure: '10/05/2099', return: '09/05/2099' }));
    expect(backwards.json().errors).toEqual({ return: ['The return date must be on or after the departure date.'] });
    const country = await admin.post('/api/trips', newTrip({ country_id: 999 }));
    expect(country.json().errors).toEqual({ country_id: ['The selected country is invalid.'] });
  });
});

describe('GET /api/trips', () => {
  it('sorts by date, date descending or name, searches names, and hides archived and deleted trips', async () => {
    const fresh = await createTestApp();
    const c = await fresh.signedIn(1);
    const make = (name: string, departure: string) =>
      c.post('/api/trips', newTrip({ name, departure, return: departure })).then((r) => r.json());
    const b = await make('Bravo Trek', '01/03/2099');
    await make('alpha Trek', '01/04/2099');
    await make('Charlie Cycle', '01/02/2099');
    const names = async (qs: string) =>
      (await c.get(`/api/trips?${qs}`)).json().data.map((x: { name: string }) => x.name);
    expect(await names('sort_by=date')).toEqual(['Charlie Cycle', 'Bravo Trek', 'alpha Trek']);
    expect(await names('sort_by=date-d')).toEqual(['alpha Trek', 'Bravo Trek', 'Charlie Cycle']);
    expect(await names('sort_by=name')).toEqual(['alpha Trek', 'Bravo Trek', 'Charlie Cycle']);
    expect(await names('name_search=TREK&sort_by=name')).toEqual(['alpha Trek', 'Bravo Trek']);

    expect((await c.post(`/api/trips/${b.id}/archive`)).json()).toMatchObject({ id: b.id, archived: true });
    expect(await names('sort_by=name')).toEqual(['alpha Trek', 'Charlie Cycle']);
    expect(await names('archived=1')).toEqual(['Bravo Trek']);

    const list = (await c.get('/api/trips')).json();
    expect(list).toMatchObject({ current_page: 1, last_page: 1, total: 2, per_page: 20 });
    expect((await c.get('/api/trips?sort_by=price')).statusCode).toBe(422);
    expect((await c.get('/api/trips?archived=maybe')).statusCode).toBe(422);
    await fresh.close();
  });

  it('pages 20 at a time, or gives everything when paged=0', async () => {
    const fresh = await createTestApp();
    const c = await fresh.signedIn(1);
    for (let i = 0; i < 23; i++) await insertTrip(fresh.db, { name: `Trip ${String(i).padStart(2, '0')}` });
    const second = (await c.get('/api/trips?page=2')).json();
    expect(second).toMatchObject({ total: 23, last_page: 2, current_page: 2, from: 21, to: 23 });
    expect(second.data).toHaveLength(3);
    expect((await c.get('/api/trips?paged=0')).json().data).toHaveLength(23);
    await fresh.close();
  });

  it('counts bookings that are not cancelled', async () => {
    const trip = await insertTrip(t.db, { name: 'Counted Trek' });
    const confirmed = await insertBooking(t.db, trip.id, { status: 'confirmed' });
    const provisional = await insertBooking(t.db, trip.id, { status: 'provisional' });
    await insertBooking(t.db, trip.id, { status: 'cancelled' });
    const count = async (id: number) => (await admin.get(`/api/trips/${id}`)).json().booking_count;
    expect(await count(trip.id)).toBe(2);
    // as bookings are cancelled, moved to another trip or deleted
    const other = await insertTrip(t.db, { name: 'Other Counted Trek' });
    await t.db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, provisional.id));
    expect(await count(trip.id)).toBe(1);
    await t.db.update(bookings).set({ tripId: other.id }).where(eq(bookings.id, confirmed.id));
    expect([await count(trip.id), await count(other.id)]).toEqual([0, 1]);
    await t.db.delete(bookings).where(eq(bookings.id, confirmed.id));
    expect(await count(other.id)).toBe(0);
  });
});

describe('archive and delete', () => {
  it('deletes softly: the trip leaves the lists, its bookings stay', async () => {
    const trip = await insertTrip(t.db, { name: 'Doomed Trek' });
    const booking = await insertBooking(t.db, trip.id);
    expect((await admin.delete(`/api/trips/${trip.id}`)).statusCode).toBe(204);
    const lists = [
      (await admin.get('/api/trips?paged=0')).json().data,
      (await admin.get('/api/trips?paged=0&archived=1')).json().data,
      (await admin.get('/api/trips/select')).json(),
    ];
    for (const list of lists) expect(list.some((x: { id: number }) => x.id === trip.id)).toBe(false);
    const [kept] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(kept!.tripId).toBe(trip.id);
    expect((await admin.get(`/api/trips/${trip.id}`)).json()).toMatchObject({ deleted: true, editable: false });
    expect((await admin.delete(`/api/trips/${trip.id}`)).statusCode).toBe(404);
    expect((await admin.post(`/api/trips/${trip.id}/archive`)).statusCode).toBe(404);
  });

  it('answers 404 for trips that do not exist', async () => {
    expect((await admin.post('/api/trips/999999/archive')).statusCode).toBe(404);
    expect((await admin.delete('/api/trips/999999')).statusCode).toBe(404);
  });
});

describe('editing a trip', () => {
  it('changes every field, money in pounds', async () => {
    const trip = await create({ name: 'Editable Trek' });
    const res = await admin.patch(`/api/trips/${trip.id}`, {
      name: 'Edited Trek',
      country_id: 834,
      departure: '01/06/2099',
      return: '10/06/2099',
      type: 'open',
      level: 5,
      status: 'full',
      deposit: '350',
      cost: '2495.50',
      require_passport: false,
      funding: 'fundraise',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Edited Trek',
      country: { name: 'Tanzania' },
      status: 'full',
      deposit: 350,
      cost: 2495.5,
      require_passport: false,
      funding: 'fundraise',
      level: 5,
      type: 'open',
    });
  });

  it('keeps a school trip’s own consent wording for parents, empty for the office’s, and refuses one too long', async () => {
    const trip = await create({ name: 'Consent Trek' });
    const base = {
      name: 'Consent Trek',
      country_id: 504,
      departure: '10/05/2099',
      return: '17/05/2099',
      type: 'school',
      level: 1,
      status: 'open',
      deposit: 0,
      cost: 0,
      require_passport: true,
      funding: 'self',
    };
    expect((await admin.get(`/api/trips/${trip.id}`)).json().consent_text).toBeNull();
    const set = await admin.patch(`/api/trips/${trip.id}`, {
      ...base,
      consent_text: '  I agree to the Iceland trip. ',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().consent_text).toBe('I agree to the Iceland trip.');
    expect((await admin.patch(`/api/trips/${trip.id}`, base)).json().consent_text).toBe('I agree to the Iceland trip.');
    const long = await admin.patch(`/api/trips/${trip.id}`, { ...base, consent_text: 'x'.repeat(4001) });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors).toEqual({
      consent_text: ['The consent wording must not be longer than 4,000 characters.'],
    });
    expect((await admin.patch(`/api/trips/${trip.id}`, { ...base, consent_text: '' })).json().consent_text).toBeNull();
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.tripId, trip.id))
      .orderBy(asc(auditEvents.id))
      .offset(1)
      .limit(1);
    expect((event!.changes as Record<string, unknown>).consent_text).toEqual([null, 'I agree to the Iceland trip.']);
  });

  it('sets the capacity (places), keeps it when left out, clears it when empty, refuses nonsense; each change in the history', async () => {
    const trip = await create({ name: 'Places Trek' });
    const base = {
      name: 'Places Trek',
      country_id: 504,
      departure: '10/05/2099',
      return: '17/05/2099',
      type: 'charity',
      level: 2,
      status: 'open',
      deposit: 0,
      cost: 0,
      require_passport: true,
      funding: 'both',
    };
    expect((await admin.get(`/api/trips/${trip.id}`)).json().capacity).toBeNull();
    const set = await admin.patch(`/api/trips/${trip.id}`, { ...base, capacity: '30' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().capacity).toBe(30);
    expect((await admin.patch(`/api/trips/${trip.id}`, { ...base, name: 'Places Trek II' })).json().capacity).toBe(30);
    for (const bad of ['0', 'lots', '2.5', '10001']) {
      const res = await admin.patch(`/api/trips/${trip.id}`, { ...base, capacity: bad });
      expect(res.json().errors, bad).toEqual({
        capacity: ['The capacity must be a whole number of places from 1 to 10,000, or empty.'],
      });
    }
    expect((await admin.patch(`/api/trips/${trip.id}`, { ...base, capacity: '' })).json().capacity).toBeNull();
    const changes = (
      await t.db.select().from(auditEvents).where(eq(auditEvents.tripId, trip.id)).orderBy(asc(auditEvents.id))
    )
      .map((e) => (e.changes as Record<string, unknown> | null)?.capacity)
      .filter(Boolean);
    expect(changes).toEqual([
      [null, 30],
      [30, null],
    ]);
  });

  it('refuses a deposit above the cost, and bad money', async () => {
    const trip = await create({ name: 'Money Trek' });
    const base = {
      name: 'Money Trek',
      country_id: 504,
      departure: '10/05/2099',
      return: '17/05/2099',
      type: 'charity',
      level: 2,
      status: 'open',
      require_passport: true,
      funding: 'both',
    };
    expect(
      (await admin.patch(`/api/trips/${trip.id}`, { ...base, deposit: '500', cost: '400' })).json().errors,
    ).toEqual({ deposit: ['The deposit must not be more than the cost.'] });
    expect(
      (await admin.patch(`/api/trips/${trip.id}`, { ...base, deposit: '-1', cost: 'abc' })).json().errors,
    ).toMatchObject({ deposit: expect.any(Array), cost: expect.any(Array) });
  });

  it('is not possible once the trip has departed, or is deleted', async () => {
    const past = await insertTrip(t.db, { departureDate: '2020-01-01', returnDate: '2020-01-05' });
    const res = await admin.patch(`/api/trips/${past.id}`, {
      ...newTrip(),
      deposit: '0',
      cost: '0',
      require_passport: true,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'This trip has departed, so it can no longer be changed.' });
    expect((await admin.get(`/api/trips/${past.id}`)).json()).toMatchObject({
      editable: false,
      editable_reason: 'This trip has departed, so it can no longer be changed.',
    });
  });

  it('has its editability decided in one place', () => {
    expect(editability({ departureDate: '2026-11-22', deletedAt: null }, '2026-11-22').editable).toBe(true);
    expect(editability({ departureDate: '2026-11-21', deletedAt: null }, '2026-11-22').editable).toBe(false);
    expect(editability({ departureDate: '2099-01-01', deletedAt: new Date() }, '2026-11-22').editable).toBe(false);
  });
});

describe('add-ons', () => {
  it('adds, renames, reprices and removes', async () => {
    const trip = await create({ name: 'Addon Trek' });
    const added = await admin.post(`/api/trips/${trip.id}/addons`, { name: 'Single room', price: '295' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ name: 'Single room', price: 295, invoiced: false, bookings_count: 0 });
    const changed = await admin.patch(`/api/addons/${added.json().id}`, {
      name: 'Single room supplement',
      price: '310.50',
    });
    expect(changed.json()).toMatchObject({ name: 'Single room supplement', price: 310.5 });
    expect((await admin.get(`/api/trips/${trip.id}/addons`)).json()).toHaveLength(1);
    expect((await admin.delete(`/api/addons/${added.json().id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/trips/${trip.id}/addons`)).json()).toEqual([]);
    const bad = await admin.post(`/api/trips/${trip.id}/addons`, { name: '', price: 'x' });
    expect(Object.keys(bad.json().errors).sort()).toEqual(['name', 'price']);
  });

  it('keeps the price and the row of an add-on that has been invoiced', async () => {
    const trip = await insertTrip(t.db, { name: 'Invoiced Addon Trek' });
    const addon = await insertAddon(t.db, trip.id, 'Safari extension', 65_000);
    const booking = await insertBooking(t.db, trip.id);
    await t.db
      .insert(bookingAddons)
      .values({ bookingId: booking.id, addonId: addon.id, pricePence: 65_000, invoiced: true });
    const reprice = await admin.patch(`/api/addons/${addon.id}`, { name: 'Safari extension', price: '700' });
    expect(reprice.json().errors).toEqual({
      price: ['This add-on has been invoiced, so its price can no longer change.'],
    });
    // renaming is harmless
    expect(
      (await admin.patch(`/api/addons/${addon.id}`, { name: 'Safari extension (3 days)', price: '650' })).statusCode,
    ).toBe(200);
    const remove = await admin.delete(`/api/addons/${addon.id}`);
    expect(remove.json()).toEqual({ message: 'This add-on has been invoiced, so it cannot be removed.' });
    expect((await admin.get(`/api/trips/${trip.id}/addons`)).json()[0]).toMatchObject({
      invoiced: true,
      bookings_count: 1,
    });
  });

  it('keeps an add-on a booking has chosen', async () => {
    const trip = await insertTrip(t.db);
    const addon = await insertAddon(t.db, trip.id);
    const booking = await insertBooking(t.db, trip.id);
    await t.db.insert(bookingAddons).values({ bookingId: booking.id, addonId: addon.id, pricePence: addon.pricePence });
    expect((await admin.delete(`/api/addons/${addon.id}`)).json()).toEqual({
      message: 'This add-on cannot be removed because 1 booking has chosen it.',
    });
  });

  it('cannot be changed on a trip that has departed', async () => {
    const past = await insertTrip(t.db, { departureDate: '2020-01-01', returnDate: '2020-01-05' });
    expect((await admin.post(`/api/trips/${past.id}/addons`, { name: 'Late', price: '1' })).statusCode).toBe(422);
  });
});

describe('access', () => {
  it('is for staff, with the CSRF token', async () => {
    const charity = await t.signedIn(2);
    expect((await charity.get('/api/trips')).statusCode).toBe(403);
    expect(
      (await admin.request({ method: 'POST', url: '/api/trips', payload: newTrip(), csrf: false })).statusCode,
    ).toBe(419);
    const [n] = await t.db.select().from(trips).where(eq(trips.name, 'never-made'));
    expect(n).toBeUndefined();
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
  const edit = (over: Record<string, unknown> = {}) => ({
    ...newTrip(),
    deposit: '0',
    cost: '0',
    require_passport: true,
    ...over,
  });

  it('records a trip added, with who added it and its values', async () => {
    const since = await lastEventId();
    const trip = await create({ name: 'Kilimanjaro Summit Trek 2027' });
    const [event, ...more] = await eventsSince(since);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      action: 'trip.created',
      subjectType: 'trip',
      subjectId: String(trip.id),
      tripId: trip.id,
      bookingId: null,
      actorType: 'user',
      actorName: actor,
      source: 'web',
      changes: null,
      summary: `${actor} added the trip Kilimanjaro Summit Trek 2027`,
      details: {
        name: 'Kilimanjaro Summit Trek 2027',
        country_id: 504,
        departure: '2099-05-10',
        return: '2099-05-17',
        cost: 0,
        status: 'open',
      },
    });
  });

  it('records a change of a trip as the fields that changed, money in pounds and dates as the API gives them', async () => {
    const trip = await create({ name: 'Kilimanjaro Summit Trek 2027' });
    expect(
      (await admin.patch(`/api/trips/${trip.id}`, edit({ name: 'Kilimanjaro Summit Trek 2027', cost: '1895' })))
        .statusCode,
    ).toBe(200);
    let since = await lastEventId();
    expect(
      (await admin.patch(`/api/trips/${trip.id}`, edit({ name: 'Kilimanjaro Summit Trek 2027', cost: '1995' })))
        .statusCode,
    ).toBe(200);
    expect(await eventsSince(since)).toMatchObject([
      {
        action: 'trip.updated',
        subjectType: 'trip',
        subjectId: String(trip.id),
        tripId: trip.id,
        actorName: actor,
        changes: { cost: [1895, 1995] },
        summary: `${actor} changed cost of the trip Kilimanjaro Summit Trek 2027 from 1895 to 1995`,
      },
    ]);

    since = await lastEventId();
    await admin.patch(
      `/api/trips/${trip.id}`,
      edit({ name: 'Kili Trek', departure: '01/05/2099', cost: '1995', deposit: '250.50', require_passport: false }),
    );
    const [event] = await eventsSince(since);
    expect(event!.changes).toEqual({
      name: ['Kilimanjaro Summit Trek 2027', 'Kili Trek'],
      departure: ['2099-05-10', '2099-05-01'],
      deposit: [0, 250.5],
      require_passport: [true, false],
    });
    expect(event!.summary).toBe(`${actor} changed name, departure, deposit and require passport of the trip Kili Trek`);

    since = await lastEventId();
    await admin.patch(
      `/api/trips/${trip.id}`,
      edit({ name: 'Kili Trek', departure: '01/05/2099', cost: '1995', deposit: '250.50', require_passport: false }),
    );
    expect(await eventsSince(since)).toMatchObject([
      { action: 'trip.updated', changes: null, summary: `${actor} saved the trip Kili Trek without changes` },
    ]);
  });

  it('records archiving and deleting, once each', async () => {
    const trip = await create({ name: 'Short-lived Trek' });
    let since = await lastEventId();
    await admin.post(`/api/trips/${trip.id}/archive`);
    await admin.post(`/api/trips/${trip.id}/archive`);
    expect(await eventsSince(since)).toMatchObject([
      {
        action: 'trip.archived',
        subjectType: 'trip',
        subjectId: String(trip.id),
        tripId: trip.id,
        actorName: actor,
        summary: `${actor} archived the trip Short-lived Trek`,
      },
    ]);
    since = await lastEventId();
    expect((await admin.delete(`/api/trips/${trip.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/trips/${trip.id}`)).statusCode).toBe(404);
    expect(await eventsSince(since)).toMatchObject([
      {
        action: 'trip.deleted',
        subjectType: 'trip',
        subjectId: String(trip.id),
        tripId: trip.id,
        actorName: actor,
        summary: `${actor} deleted the trip Short-lived Trek`,
      },
    ]);
  });

  it('records nothing, and changes nothing, when a trip change is refused', async () => {
    const trip = await create({ name: 'Refused Trek' });
    const past = await insertTrip(t.db, { departureDate: '2020-01-01', returnDate: '2020-01-05' });
    const since = await lastEventId();
    expect((await admin.patch(`/api/trips/${past.id}`, edit())).statusCode).toBe(422);
    expect(
      (await admin.patch(`/api/trips/${trip.id}`, edit({ name: 'Renamed', country_id: 999 }))).json().errors,
    ).toEqual({ country_id: ['The selected country is invalid.'] });
    expect((await admin.patch('/api/trips/999999', edit())).statusCode).toBe(404);
    expect((await admin.post('/api/trips/999999/archive')).statusCode).toBe(404);
    expect((await admin.delete('/api/trips/999999')).statusCode).toBe(404);
    expect((await admin.post('/api/trips', newTrip({ country_id: 999 }))).statusCode).toBe(422);
    expect(await eventsSince(since)).toEqual([]);
    expect((await admin.get(`/api/trips/${trip.id}`)).json().name).toBe('Refused Trek');
  });

  it('records add-ons added, changed and deleted against their trip', async () => {
    const trip = await create({ name: 'Addon History Trek' });
    const since = await lastEventId();
    const addon = (await admin.post(`/api/trips/${trip.id}/addons`, { name: 'Single room', price: '295' })).json();
    await admin.patch(`/api/addons/${addon.id}`, { name: 'Single room', price: '310.50' });
    await admin.patch(`/api/addons/${addon.id}`, { name: 'Single room supplement', price: '310.50' });
    await admin.delete(`/api/addons/${addon.id}`);
    const common = {
      subjectType: 'addon',
      subjectId: String(addon.id),
      tripId: trip.id,
      actorName: actor,
      actorType: 'user',
    };
    expect(await eventsSince(since)).toMatchObject([
      {
        ...common,
        action: 'addon.created',
        summary: `${actor} added the add-on Single room to the trip Addon History Trek`,
        details: { name: 'Single room', price: 295 },
      },
      {
        ...common,
        action: 'addon.updated',
        changes: { price: [295, 310.5] },
        summary: `${actor} changed price of the add-on Single room of the trip Addon History Trek from 295 to 310.5`,
      },
      {
        ...common,
        action: 'addon.updated',
        changes: { name: ['Single room', 'Single room supplement'] },
        summary: `${actor} changed name of the add-on Single room supplement of the trip Addon History Trek from Single room to Single room supplement`,
      },
      {
        ...common,
        action: 'addon.deleted',
        changes: null,
        summary: `${actor} deleted the add-on Single room supplement of the trip Addon History Trek`,
      },
    ]);
  });

  it('records nothing when an add-on change is refused', async () => {
    const trip = await insertTrip(t.db, { name: 'Refused Addon Trek' });
    const addon = await insertAddon(t.db, trip.id, 'Safari extension', 65_000);
    const booking = await insertBooking(t.db, trip.id);
    await t.db
      .insert(bookingAddons)
      .values({ bookingId: booking.id, addonId: addon.id, pricePence: 65_000, invoiced: true });
    const past = await insertTrip(t.db, { departureDate: '2020-01-01', returnDate: '2020-01-05' });
    const since = await lastEventId();
    expect((await admin.patch(`/api/addons/${addon.id}`, { name: 'Safari extension', price: '700' })).statusCode).toBe(
      422,
    );
    expect((await admin.delete(`/api/addons/${addon.id}`)).statusCode).toBe(422);
    expect((await admin.post(`/api/trips/${past.id}/addons`, { name: 'Late', price: '1' })).statusCode).toBe(422);
    expect((await admin.patch('/api/addons/999999', { name: 'Ghost', price: '1' })).statusCode).toBe(404);
    expect((await admin.delete('/api/addons/999999')).statusCode).toBe(404);
    expect(await eventsSince(since)).toEqual([]);
    expect((await admin.get(`/api/trips/${trip.id}/addons`)).json()[0]).toMatchObject({
      name: 'Safari extension',
      price: 650,
    });
  });
});
