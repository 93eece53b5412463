import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { makeLogoPng } from '../../../db/seed/images.ts';
import { multipart } from '../../../../tests/support/multipart.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
});
afterAll(() => t.close());

const png = makeLogoPng(60, 30, [200, 30, 30]);
const jpeg = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  Buffer.alloc(200, 7),
]);
const logosDir = () => path.join(t.config.dataDir, 'files', 'logos');

async function create(name: string, type?: number) {
  const res = await admin.post('/api/charities', type === undefined ? { name } : { name, charity_type_id: type });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; name: string; logo_url: string | null };
}

function uploadLogo(
  id: number,
  bytes: Buffer,
  filename = 'logo.png',
  contentType = 'image/png',
  fields: Record<string, string> = { charity_id: String(id) },
) {
  const body = multipart(fields, { field: 'charity_logo', filename, contentType, bytes });
  return admin.request({
    method: 'POST',
    url: `/api/charities/${id}/logo`,
    payload: body.payload,
    headers: body.headers,
  });
}

describe('GET /api/charities', () => {
  it('lists by name, filters by part of the name (any case) and by type, and both', async () => {
    await create('Zebra Rescue Trust', 1);
    await create('Hillside Hospice');
    await create('Hill Walkers 100% Fund', 8);
    const all = (await admin.get('/api/charities')).json() as Array<{ name: string }>;
    expect(all.map((c) => c.name)).toEqual(['Hill Walkers 100% Fund', 'Hillside Hospice', 'Zebra Rescue Trust']);
    expect((await admin.get('/api/charities?name=HILL')).json().map((c: { name: string }) => c.name)).toEqual([
      'Hill Walkers 100% Fund',
      'Hillside Hospice',
    ]);
    expect((await admin.get('/api/charities?type=5')).json().map((c: { name: string }) => c.name)).toEqual([
      'Hillside Hospice',
    ]);
    expect((await admin.get('/api/charities?name=hill&type=8')).json().map((c: { name: string }) => c.name)).toEqual([
      'Hill Walkers 100% Fund',
    ]);
    // a % is a character to find, not a wildcard
    expect((await admin.get('/api/charities?name=100%25')).json()).toHaveLength(1);
    expect((await admin.get('/api/charities?name=&type=')).json()).toHaveLength(3);
  });

  it('refuses a type that does not exist', async () => {
    const res = await admin.get('/api/charities?type=12');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.type).toEqual(['The selected type of charity is invalid.']);
  });
});

describe('POST /api/charities', () => {
  it('adds a charity as a Hospice (type 5) unless told otherwise, with its type description', async () => {
    const res = await admin.post('/api/charities', { name: '  Meadow Hospice  ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Meadow Hospice',
      charity_type_id: 5,
      charity_type: { description: 'Hospice' },
      url: null,
      logo_url: null,
    });
  });

  it('wants a name and a real type, and adds nothing when they are wrong', async () => {
    const before = (await admin.get('/api/charities')).json().length;
    const res = await admin.post('/api/charities', { name: '   ', charity_type_id: 9 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      name: ['The name field is required.'],
      charity_type_id: ['The selected type of charity is invalid.'],
    });
    expect((await admin.get('/api/charities')).json()).toHaveLength(before);
  });

  it('is refused without the CSRF token, and to accounts that are not staff', async () => {
    const forged = await admin.request({
      method: 'POST',
      url: '/api/charities',
      payload: { name: 'Forged' },
      csrf: false,
    });
    expect(forged.statusCode).toBe(419);
    const traveller = await t.signedIn(3);
    expect((await traveller.post('/api/charities', { name: 'Nope' })).statusCode).toBe(403);
    expect((await traveller.get('/api/charities')).statusCode).toBe(403);
    expect((await admin.get('/api/charities?name=Forged')).json()).toEqual([]);
  });
});

describe('GET, PATCH and DELETE /api/charities/{id}', () => {
  it('reads one charity, and answers 404 for one that does not exist and 422 for a bad id', async () => {
    const c = await create('Readable Charity', 3);
    expect((await admin.get(`/api/charities/${c.id}`)).json()).toMatchObject({
      id: c.id,
      charity_type: { description: "Children's Charity" },
    });
    expect((await admin.get('/api/charities/999999')).statusCode).toBe(404);
    expect((await admin.get('/api/charities/999999')).json()).toEqual({ message: 'Charity not found.' });
    expect((await admin.get('/api/charities/abc')).statusCode).toBe(422);
  });

  it('changes name, type and website; a blank website is none', async () => {
    const c = await create('Old Name');
    const res = await admin.patch(`/api/charities/${c.id}`, {
      name: 'New Name',
      charity_type_id: 4,
      url: 'https://www.example.org/give',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'New Name',
      charity_type_id: 4,
      charity_type: { description: 'Health/Medical Charity' },
      url: 'https://www.example.org/give',
    });
    const cleared = await admin.patch(`/api/charities/${c.id}`, { name: 'New Name', charity_type_id: 4, url: '' });
    expect(cleared.json().url).toBeNull();
  });

  it('refuses a website that is not an http(s) address and changes nothing', async () => {
    const c = await create('Careful Charity');
    for (const url of ['not a url', 'javascript:alert(1)', 'ftp://files.example.org', 'https://localhost']) {
      const res = await admin.patch(`/api/charities/${c.id}`, { name: 'Changed', charity_type_id: 5, url });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().errors.url).toEqual(['The url must be a valid URL starting with http:// or https://.']);
    }
    const blank = await admin.patch(`/api/charities/${c.id}`, { name: '', charity_type_id: 5 });
    expect(blank.json()).toEqual({
      message: 'The name field is required.',
      errors: { name: ['The name field is required.'] },
    });
    expect((await admin.get(`/api/charities/${c.id}`)).json().name).toBe('Careful Charity');
    expect((await admin.patch('/api/charities/999999', { name: 'x', charity_type_id: 5 })).statusCode).toBe(404);
  });

  it('deletes a charity nothing refers to', async () => {
    const c = await create('Short Lived');
    expect((await admin.delete(`/api/charities/${c.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/charities/${c.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/charities/${c.id}`)).statusCode).toBe(404);
  });

  it('keeps a charity that trips or bookings refer to, and says why', async () => {
    const c = await create('Busy Charity');
    const trip = await insertTrip(t.db, { charityId: c.id });
    await insertBooking(t.db, trip.id, { charityId: c.id });
    await insertBooking(t.db, trip.id, { charityId: c.id });
    const res = await admin.delete(`/api/charities/${c.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'This charity cannot be deleted because 1 trip and 2 bookings refer to it.',
    });
    expect((await admin.get(`/api/charities/${c.id}`)).statusCode).toBe(200);
  });
});

describe('logos', () => {
  it('takes a real PNG, serves it back, and replaces it with a JPEG, removing the old file', async () => {
    const c = await create('Logo Charity');
    const res = await uploadLogo(c.id, png);
    expect(res.statusCode).toBe(200);
    const first = res.json();
    expect(first).toMatchObject({ id: c.id, name: 'Logo Charity', charity_type: { description: 'Hospice' } });
    expect(first.logo_url).toMatch(new RegExp(`^/api/charities/${c.id}/logo\\?v=`));
    const image = await admin.get(first.logo_url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(png)).toBe(true);
    const firstFiles = readdirSync(logosDir());

    const second = await uploadLogo(c.id, jpeg, 'photo.jpeg', 'image/jpeg');
    expect(second.statusCode).toBe(200);
    expect(second.json().logo_url).not.toBe(first.logo_url);
    expect((await admin.get(second.json().logo_url)).headers['content-type']).toBe('image/jpeg');
    const files = readdirSync(logosDir());
    expect(files).toHaveLength(firstFiles.length);
    expect(files.filter((f) => f.endsWith('.jpg'))).toHaveLength(1);
  });

  it('leaves one file for one logo when uploads to a charity arrive at once (bench/crash.ts found orphans)', async () => {
    const c = await create('Busy Charity');
    const before = readdirSync(logosDir()).length;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        uploadLogo(c.id, i % 2 ? png : jpeg, i % 2 ? 'a.png' : 'a.jpg', i % 2 ? 'image/png' : 'image/jpeg'),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(readdirSync(logosDir())).toHaveLength(before + 1);
  });

  it('stores the file under a name of its own making, not the uploader’s', async () => {
    const c = await create('Named Charity');
    await uploadLogo(c.id, png, '../../etc/evil.png');
    const files = readdirSync(logosDir());
    expect(files.every((f) => /^[0-9a-f]{32}\.(png|jpg)$/.test(f))).toBe(true);
    expect(existsSync(path.join(t.config.dataDir, 'etc'))).toBe(false);
  });

  it('refuses a forged image by its bytes, whatever its name and type say, and keeps the old logo', async () => {
    const c = await create('Forgery Target');
    const good = (await uploadLogo(c.id, png)).json();
    const forged = await uploadLogo(c.id, Buffer.from('<?php echo "not an image"; ?>'), 'logo.png', 'image/png');
    expect(forged.statusCode).toBe(422);
    expect(forged.json().errors).toEqual({ charity_logo: ['The charity logo must be a JPG or PNG image.'] });
    const gif = await uploadLogo(
      c.id,
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      'logo.gif',
      'image/gif',
    );
    expect(gif.statusCode).toBe(422);
    expect((await admin.get(`/api/charities/${c.id}`)).json().logo_url).toBe(good.logo_url);
    expect((await admin.get(good.logo_url)).statusCode).toBe(200);
  });

  it('refuses a file over 5 MB with a field error', async () => {
    const c = await create('Big File Charity');
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1)]);
    const res = await uploadLogo(c.id, big);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ charity_logo: ['The charity logo must not be greater than 5 MB.'] });
    expect((await admin.get(`/api/charities/${c.id}`)).json().logo_url).toBeNull();
  });

  it('wants a file, a multipart request and the right charity id', async () => {
    const c = await create('Picky Charity');
    const none = multipart({ charity_id: String(c.id) });
    const empty = await admin.request({
      method: 'POST',
      url: `/api/charities/${c.id}/logo`,
      payload: none.payload,
      headers: none.headers,
    });
    expect(empty.json().errors).toEqual({ charity_logo: ['The charity logo field is required.'] });
    const json = await admin.post(`/api/charities/${c.id}/logo`, { charity_logo: 'x' });
    expect(json.statusCode).toBe(422);
    const other = await uploadLogo(c.id, png, 'logo.png', 'image/png', { charity_id: String(c.id + 1000) });
    expect(other.json().errors).toEqual({ charity_id: ['The charity id does not match the address.'] });
    expect((await uploadLogo(999999, png)).statusCode).toBe(404);
  });

  it('removes a logo and its file', async () => {
    const c = await create('Plain Charity');
    await uploadLogo(c.id, png);
    const count = readdirSync(logosDir()).length;
    const res = await admin.delete(`/api/charities/${c.id}/logo`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: c.id, logo_url: null });
    expect(readdirSync(logosDir())).toHaveLength(count - 1);
    expect((await admin.get(`/api/charities/${c.id}/logo`)).statusCode).toBe(404);
  });

  it('removes the logo file with the charity', async () => {
    const c = await create('Gone Charity');
    await uploadLogo(c.id, png);
    const count = readdirSync(logosDir()).length;
    await admin.delete(`/api/charities/${c.id}`);
    expect(readdirSync(logosDir())).toHaveLength(count - 1);
  });

  it('serves logos to staff only', async () => {
    const c = await create('Private Logo');
    const url = (await uploadLogo(c.id, png)).json().logo_url;
    expect((await t.client().get(url)).statusCode).toBe(401);
  });
});
