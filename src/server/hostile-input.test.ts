import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { createTestApp, type TestApp, type TestClient } from '../../tests/support/test-app.ts';

/** The hostile inputs that once reached the database as a server error (issue: hardening §2). */
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
});
afterAll(() => t.close());

const NUL = '\u0000';

describe('a NUL character', () => {
  const searches = [
    '/api/charities?name=',
    '/api/discounts?keyword=',
    '/api/bookings?name=',
    '/api/bookings?booking_ref=',
    '/api/bookings?email=',
    '/api/bookings?address=',
    '/api/users?search=',
    '/api/trips?name_search=',
  ];
  it.each(searches)('in %s answers 422 naming the field', async (path) => {
    const res = await admin.get(`${path}a%00b`);
    expect(res.statusCode).toBe(422);
    const field = path.slice(path.indexOf('?') + 1, -1);
    expect(res.json().errors[field]).toEqual([expect.stringContaining('cannot be stored')]);
  });

  it('in a JSON body answers 422 and stores nothing', async () => {
    const res = await admin.post('/api/charities', { name: `Bad${NUL}name` });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name).toBeDefined();
    const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from charities`);
    expect(row!.n).toBe(0);
  });

  it('in a nested JSON string (an invoice item) names the path', async () => {
    const res = await admin.post('/api/invoices', { booking_id: 1, items: [{ description: `x${NUL}`, amount: 1 }] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors['items.0.description']).toBeDefined();
  });

  it('as a broken character (a lone surrogate) is refused the same way', async () => {
    const res = await admin.request({
      method: 'POST',
      url: '/api/charities',
      payload: '{"name":"a\\ud800b"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name).toBeDefined();
  });

  it('in a multipart field or file name answers 422', async () => {
    const res = await admin.post('/api/charities', { name: 'Good name' });
    const charityId = res.json().id;
    const boundary = '----tripdesk';
    const body = [
      `--${boundary}`,
      `Content-Disposition: form-data; name="charity_id"`,
      '',
      `1${NUL}`,
      `--${boundary}`,
      `Content-Disposition: form-data; name="charity_logo"; filename="a${NUL}.png"`,
      'Content-Type: image/png',
      '',
      'x',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const upload = await admin.request({
      method: 'POST',
      url: `/api/charities/${charityId}/logo`,
      payload: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(upload.statusCode).toBe(422);
    expect(upload.json().errors.charity_logo).toEqual([expect.stringContaining('cannot be stored')]);
    expect(upload.json().errors.charity_id).toEqual([expect.stringContaining('cannot be stored')]);
  });
});

describe('numbers beyond their column', () => {
  it('a country id past smallint answers 422, not 500', async () => {
    const res = await admin.post('/api/trips', {
      name: 'Overflow',
      departure: '01/06/2030',
      return: '10/06/2030',
      country_id: 987654321,
      type: 'open',
      level: 2,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.country_id).toEqual(['The selected country is invalid.']);
    // no country at all is still "required", as before the bound
    const missing = await admin.post('/api/trips', {
      name: 'No country',
      departure: '01/06/2030',
      return: '10/06/2030',
      type: 'open',
      level: 2,
    });
    expect(missing.json().errors.country_id).toEqual(['The country field is required.']);
  });

  it.each([
    ['/api/bookings?user_id=99999999999', 'user_id'],
    ['/api/bookings?trip_id=99999999999', 'trip_id'],
    ['/api/bookings?trips=99999999999', 'trips'],
    ['/api/bookings?page=1e300', 'page'],
    ['/api/users?page=99999999999', 'page'],
    ['/api/trips?page=99999999999', 'page'],
  ])('%s answers 422', async (path, field) => {
    const res = await admin.get(path);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[field]).toBeDefined();
  });

  it.each(['/api/bookings/99999999999', '/api/trips/99999999999', '/api/invoices/9223372036854775808'])(
    'a path id past every record (%s) is not a server error',
    async (path) => {
      const res = await admin.get(path);
      expect([404, 422]).toContain(res.statusCode);
    },
  );

  it('a usage limit or a charity type past its column answers 422', async () => {
    const discount = await admin.post('/api/discounts', {
      code: 'BIG',
      name: 'Big',
      amount: 5,
      invoice_type: 'any',
      usage_limit: 3_000_000_000,
    });
    expect(discount.statusCode).toBe(422);
    const charity = await admin.post('/api/charities', { name: 'Type', charity_type_id: 70000 });
    expect(charity.statusCode).toBe(422);
  });
});
