import { asc, desc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, trips } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let t: TestApp;
let admin: TestClient;
let tripId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  tripId = (await insertTrip(t.db, { name: 'Kilimanjaro 2027' })).id;
});
afterAll(() => t.close());

const valid = (over: Record<string, unknown> = {}) => ({
  code: 'SUMMER25',
  name: 'Summer offer',
  invoice_type: 'balance',
  trip_id: '',
  amount: '25.50',
  valid_from: '01/06/2027',
  valid_until: '31/08/2027',
  ...over,
});

let n = 0;
async function create(over: Record<string, unknown> = {}) {
  n += 1;
  const res = await admin.post('/api/discounts', valid({ code: `CODE${n}`, ...over }));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('POST /api/discounts', () => {
  it('creates a discount: pounds in and out, dates stored as the day at 00:00:00, usage 1 and 0 by default', async () => {
    const res = await admin.post('/api/discounts', valid());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'SUMMER25',
      name: 'Summer offer',
      amount: 25.5,
      invoice_type: 'balance',
      trip_id: null,
      trip: null,
      usage_limit: 1,
      usage_count: 0,
      valid_from: '2027-06-01T00:00:00',
      valid_until: '2027-08-31T00:00:00',
    });
  });

  it('takes a trip, open-ended validity and numbers as numbers', async () => {
    const d = await create({
      trip_id: tripId,
      amount: 100,
      valid_from: '',
      valid_until: null,
      invoice_type: 'any',
      usage_limit: 20,
    });
    expect(d).toMatchObject({
      trip_id: tripId,
      trip: { id: tripId, name: 'Kilimanjaro 2027' },
      amount: 100,
      valid_from: null,
      valid_until: null,
      usage_limit: 20,
    });
  });

  it('wants a description, a code and an amount, with errors for code, name and amount', async () => {
    const res = await admin.post('/api/discounts', { code: '', name: '', amount: '' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      code: ['The code field is required.'],
      name: ['The description field is required.'],
      amount: ['The amount field is required.'],
    });
  });

  it('refuses amounts that are not pounds with at most two decimals, or are negative', async () => {
    for (const amount of ['abc', '-5', '12.345', '1e3', '£']) {
      const res = await admin.post('/api/discounts', valid({ code: 'BADAMOUNT', amount }));
      expect(res.statusCode, amount).toBe(422);
      expect(res.json().errors.amount, amount).toHaveLength(1);
    }
    expect((await admin.post('/api/discounts', valid({ code: 'NEG', amount: -1 }))).statusCode).toBe(422);
    expect((await admin.get('/api/discounts?keyword=BADAMOUNT')).json()).toEqual([]);
  });

  it('accepts dates only as exactly 10 characters of a real dd/mm/yyyy date', async () => {
    for (const date of ['31/02/2026', '1/6/2027', '2027-06-01', '01/13/2027', '01/06/27', '01/06/2027 ']) {
      const res = await admin.post('/api/discounts', valid({ code: 'BADDATE', valid_from: date, valid_until: '' }));
      if (date === '01/06/2027 ') {
        // surrounding spaces are trimmed before the rule is applied
        expect(res.statusCode, date).toBe(201);
        await admin.delete(`/api/discounts/${res.json().id}`);
        continue;
      }
      expect(res.statusCode, date).toBe(422);
      expect(res.json().errors.valid_from, date).toEqual([
        'The valid from date must be a real date in the format dd/mm/yyyy.',
      ]);
    }
    const leap = await admin.post(
      '/api/discounts',
      valid({ code: 'LEAPDAY', valid_from: '29/02/2028', valid_until: '' }),
    );
    expect(leap.json().valid_from).toBe('2028-02-29T00:00:00');
  });

  it('refuses a valid until before valid from', async () => {
    const res = await admin.post(
      '/api/discounts',
      valid({ code: 'BACKWARDS', valid_from: '10/06/2027', valid_until: '09/06/2027' }),
    );
    expect(res.json().errors).toEqual({
      valid_until: ['The valid until date must be on or after the valid from date.'],
    });
    expect(
      (
        await admin.post(
          '/api/discounts',
          valid({ code: 'ONEDAY', valid_from: '10/06/2027', valid_until: '10/06/2027' }),
        )
      ).statusCode,
    ).toBe(201);
  });

  it('keeps codes unique whatever their case', async () => {
    await create({ code: 'UNIQUE1' });
    const res = await admin.post('/api/discounts', valid({ code: 'unique1' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ code: ['The code has already been taken.'] });
  });

  it('lets exactly one of two simultaneous creations of the same code win', async () => {
    const [a, b] = await Promise.all([
      admin.post('/api/discounts', valid({ code: 'RACE' })),
      admin.post('/api/discounts', valid({ code: 'race' })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 422]);
  });

  it('refuses an unknown invoice type or trip, and a deleted trip', async () => {
    const deleted = await insertTrip(t.db, { name: 'Gone trip' });
    await t.db.update(trips).set({ deletedAt: new Date() }).where(eq(trips.id, deleted.id));
    const res = await admin.post('/api/discounts', valid({ code: 'BADREFS', invoice_type: 'hotel', trip_id: 999999 }));
    expect(res.json().errors).toEqual({ invoice_type: ['The selected invoice type is invalid.'] });
    const trip = await admin.post('/api/discounts', valid({ code: 'BADTRIP', trip_id: 999999 }));
    expect(trip.json().errors).toEqual({ trip_id: ['The selected trip is invalid.'] });
    const gone = await admin.post('/api/discounts', valid({ code: 'GONETRIP', trip_id: deleted.id }));
    expect(gone.json().errors).toEqual({ trip_id: ['The selected trip is invalid.'] });
  });

  it('is for staff only, and needs the CSRF token', async () => {
    const charity = await t.signedIn(2);
    expect((await charity.post('/api/discounts', valid({ code: 'NOPE' }))).statusCode).toBe(403);
    expect(
      (await admin.request({ method: 'POST', url: '/api/discounts', payload: valid({ code: 'NOPE' }), csrf: false }))
        .statusCode,
    ).toBe(419);
  });
});

describe('GET /api/discounts', () => {
  it('searches code and description by keyword, in any case', async () => {
    await create({ code: 'EASTER10', name: 'Spring holiday' });
    await create({ code: 'XMAS', name: 'Christmas easter egg hunt' });
    const codes = (await admin.get('/api/discounts?keyword=easter')).json().map((d: { code: string }) => d.code);
    expect(codes).toEqual(['EASTER10', 'XMAS']);
    expect((await admin.get('/api/discounts?keyword=spring')).json().map((d: { code: string }) => d.code)).toEqual([
      'EASTER10',
    ]);
    expect((await admin.get('/api/discounts?keyword=nothing-like-this')).json()).toEqual([]);
  });

  it('reads one discount, or 404', async () => {
    const d = await create();
    expect((await admin.get(`/api/discounts/${d.id}`)).json()).toEqual(d);
    expect((await admin.get('/api/discounts/999999')).json()).toEqual({ message: 'Discount not found.' });
  });
});

describe('PATCH and DELETE /api/discounts/{id}', () => {
  it('updates and returns the updated discount', async () => {
    const d = await create();
    const res = await admin.patch(
      `/api/discounts/${d.id}`,
      valid({ code: d.code, name: 'Changed', amount: '10', valid_from: '', valid_until: '01/01/2028' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: d.id,
      name: 'Changed',
      amount: 10,
      valid_from: null,
      valid_until: '2028-01-01T00:00:00',
    });
  });

  it('may keep its own code but not take another’s', async () => {
    const a = await create({ code: 'MINE' });
    await create({ code: 'THEIRS' });
    expect((await admin.patch(`/api/discounts/${a.id}`, valid({ code: 'mine' }))).statusCode).toBe(200);
    const res = await admin.patch(`/api/discounts/${a.id}`, valid({ code: 'Theirs' }));
    expect(res.json().errors).toEqual({ code: ['The code has already been taken.'] });
    expect((await admin.get(`/api/discounts/${a.id}`)).json().code).toBe('mine');
  });

  it('answers 404 for a discount that does not exist', async () => {
    expect((await admin.patch('/api/discounts/999999', valid({ code: 'GHOST' }))).statusCode).toBe(404);
    expect((await admin.delete('/api/discounts/999999')).statusCode).toBe(404);
  });

  it('deletes', async () => {
    const d = await create();
    expect((await admin.delete(`/api/discounts/${d.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/discounts/${d.id}`)).statusCode).toBe(404);
  });
});

describe('GET /api/trips/select', () => {
  it('lists trips that are not deleted as id and name', async () => {
    const list = (await admin.get('/api/trips/select')).json() as Array<{ id: number; name: string }>;
    expect(list).toContainEqual({ id: tripId, name: 'Kilimanjaro 2027' });
    expect(list.some((x) => x.name === 'Gone trip')).toBe(false);
    expect(Object.keys(list[0]!)).toEqual(['id', 'name']);
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

  it('records a discount added, changed and deleted: amounts in pounds, dates as the API gives them', async () => {
    const since = await lastEventId();
    const d = (
      await admin.post('/api/discounts', valid({ code: 'SPRING25', name: 'Spring offer', amount: '25' }))
    ).json();
    await admin.patch(
      `/api/discounts/${d.id}`,
      valid({ code: 'SPRING25', name: 'Spring offer', amount: '30.50', valid_until: '30/09/2027' }),
    );
    await admin.patch(
      `/api/discounts/${d.id}`,
      valid({ code: 'SPRING25', name: 'Spring offer', amount: '30.50', valid_until: '30/09/2027', trip_id: tripId }),
    );
    await admin.delete(`/api/discounts/${d.id}`);
    const common = {
      subjectType: 'discount',
      subjectId: String(d.id),
      actorType: 'user',
      actorName: actor,
      source: 'web',
    };
    expect(await eventsSince(since)).toMatchObject([
      {
        ...common,
        action: 'discount.created',
        tripId: null,
        summary: `${actor} added the discount SPRING25`,
        details: {
          code: 'SPRING25',
          name: 'Spring offer',
          amount: 25,
          valid_from: '2027-06-01T00:00:00',
          valid_until: '2027-08-31T00:00:00',
          trip_id: null,
          invoice_type: 'balance',
          usage_limit: 1,
        },
      },
      {
        ...common,
        action: 'discount.updated',
        tripId: null,
        changes: { amount: [25, 30.5], valid_until: ['2027-08-31T00:00:00', '2027-09-30T00:00:00'] },
        summary: `${actor} changed amount and valid until of the discount SPRING25`,
      },
      {
        ...common,
        action: 'discount.updated',
        tripId,
        changes: { trip_id: [null, tripId] },
        summary: `${actor} changed trip id of the discount SPRING25 from nothing to ${tripId}`,
      },
      {
        ...common,
        action: 'discount.deleted',
        tripId,
        changes: null,
        summary: `${actor} deleted the discount SPRING25`,
      },
    ]);
  });

  it('records nothing, and changes nothing, when a discount change is refused', async () => {
    const a = await create({ code: 'KEEPME' });
    await create({ code: 'OTHERS' });
    const since = await lastEventId();
    expect((await admin.post('/api/discounts', valid({ code: 'keepme' }))).statusCode).toBe(422);
    expect((await admin.post('/api/discounts', valid({ code: 'NOTRIP', trip_id: 999999 }))).statusCode).toBe(422);
    expect((await admin.patch(`/api/discounts/${a.id}`, valid({ code: 'Others', name: 'Taken' }))).statusCode).toBe(
      422,
    );
    expect(
      (await admin.patch(`/api/discounts/${a.id}`, valid({ code: 'KEEPME', name: 'Lost trip', trip_id: 999999 })))
        .statusCode,
    ).toBe(422);
    expect((await admin.patch('/api/discounts/999999', valid({ code: 'GHOST' }))).statusCode).toBe(404);
    expect((await admin.delete('/api/discounts/999999')).statusCode).toBe(404);
    expect(await eventsSince(since)).toEqual([]);
    expect((await admin.get(`/api/discounts/${a.id}`)).json()).toMatchObject({ code: 'KEEPME', name: 'Summer offer' });
  });
});
