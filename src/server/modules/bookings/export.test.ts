import { and, asc, gt, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFile } from '../../../shared/storage/index.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { makeLogoPng } from '../../../db/seed/images.ts';
import { auditEvents } from '../../../db/schema/index.ts';
import { seedScale } from '../../../db/seed/scale.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { passportZip } from './export.ts';
import { escapeCell } from '../../common/spreadsheet.ts';
import { bookingListQuery } from '../../../contract/bookings.ts';
import type { FileStore } from '../../../shared/storage/index.ts';

let t: TestApp;
let admin: TestClient;
let tripId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  tripId = (await insertTrip(t.db, { name: 'Export Trek', departureDate: '2099-03-01', returnDate: '2099-03-08' })).id;
  const image = await storeFile(t.files, 'passports', makeLogoPng(30, 20, [10, 20, 30]), 'png');
  await insertBooking(t.db, tripId, {
    ref: 'TD-AAAAAA',
    firstName: 'Ada',
    lastName: 'Byron',
    status: 'confirmed',
    createdAt: new Date('2026-01-02T10:00:00Z'),
    passportImageFile: image,
  });
  await insertBooking(t.db, tripId, {
    ref: 'TD-BBBBBB',
    firstName: '=HYPERLINK("http://evil.test")',
    lastName: '+44',
    status: 'provisional',
    createdAt: new Date('2026-01-03T10:00:00Z'),
  });
  await insertBooking(t.db, tripId, {
    ref: 'TD-CCCCCC',
    firstName: '@SUM(A1)',
    lastName: '-1',
    status: 'cancelled',
    createdAt: new Date('2026-01-04T10:00:00Z'),
  });
});
afterAll(() => t.close());

async function workbook(qs: string) {
  const res = await admin.get(`/bookings/export?${qs}`);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = wb.getWorksheet('Bookings')!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { res, rows };
}

describe('GET /bookings/export', () => {
  it('gives a real .xlsx with the default columns date, id, status and trip, named with the date', async () => {
    const { res, rows } = await workbook(`format=xls&trip_id=${tripId}`);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="bookings-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    expect(rows[0]).toEqual(['Date Received', 'ID', 'Status', 'Trip']);
    expect(rows).toHaveLength(4);
    expect(rows.slice(1).map((r) => r[2])).toEqual(['cancelled', 'provisional', 'confirmed']);
    expect(rows[1]![0]).toBeInstanceOf(Date);
  });

  it('takes the chosen columns and the search fields, and escapes cells that would run as formulas', async () => {
    const columns = encodeURIComponent(JSON.stringify(['ref', 'first_name', 'last_name']));
    const { rows } = await workbook(
      `format=xls&trips[]=${tripId}&columns=${columns}&status=all&sort_field=id&sort_dir=asc`,
    );
    expect(rows).toEqual([
      ['Booking Ref', 'First Name', 'Last Name'],
      ['TD-AAAAAA', 'Ada', 'Byron'],
      ['TD-BBBBBB', `'=HYPERLINK("http://evil.test")`, `'+44`],
      ['TD-CCCCCC', `'@SUM(A1)`, `'-1`],
    ]);
    const confirmed = await workbook(`format=xls&trip_id=${tripId}&status=confirmed&columns=${columns}`);
    expect(confirmed.rows).toHaveLength(2);
  });

  it('limits the rows to perPage', async () => {
    const { rows } = await workbook(`format=xls&trip_id=${tripId}&perPage=2`);
    expect(rows).toHaveLength(3);
  });

  it('zips the passport images, named by reference and traveller, skipping bookings without one', async () => {
    const res = await admin.get(`/bookings/export?format=passportZip&trip_id=${tripId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="passports-\d{4}-\d{2}-\d{2}\.zip"$/);
    const zip = res.rawPayload;
    expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(zip.includes(Buffer.from('TD-AAAAAA Ada Byron.png'))).toBe(true);
    expect(zip.includes(Buffer.from('TD-BBBBBB'))).toBe(false);
  });

  it('refuses bad columns, formats and sizes with 422, and anyone but staff', async () => {
    for (const qs of [
      'format=pdf',
      'perPage=5001',
      'columns=notjson',
      `columns=${encodeURIComponent('["password_hash"]')}`,
      'status=lost',
    ]) {
      expect((await admin.get(`/bookings/export?${qs}`)).statusCode, qs).toBe(422);
    }
    expect((await t.client().get('/bookings/export')).statusCode).toBe(401);
    expect((await (await t.signedIn(2)).get('/bookings/export')).statusCode).toBe(403);
  });

  it('escapes every formula lead character', () => {
    expect(['=1', '+1', '-1', '@a', '\tx', '\rx', 'plain', '1-2'].map(escapeCell)).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@a",
      "'\tx",
      "'\rx",
      'plain',
      '1-2',
    ]);
  });
});

describe('the history of exports', () => {
  /** The export events written since the last call. */
  let seen = 0;
  async function newExportEvents(db = t.db) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(and(gt(auditEvents.id, seen), like(auditEvents.action, 'export.%')))
      .orderBy(asc(auditEvents.id));
    if (rows.length) seen = rows.at(-1)!.id;
    return rows;
  }

  it('records every spreadsheet export with its filters, columns, row count and format', async () => {
    await newExportEvents();
    const columns = ['ref', 'first_name', 'passport_number'];
    await workbook(
      `format=xls&trip_id=${tripId}&status=all&columns=${encodeURIComponent(JSON.stringify(columns))}&name=a`,
    );
    await workbook(`format=xls&trips[]=${tripId}&perPage=2`);
    const events = await newExportEvents();
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      action: 'export.bookings',
      subjectType: 'booking_export',
      subjectId: null,
      bookingId: null,
      tripId,
      actorType: 'user',
      actorName: expect.stringMatching(/^Sam Tester\d+$/),
      source: 'web',
      details: {
        filters: {
          trip_id: tripId,
          name: 'a',
          timing: 'future',
          sort_field: 'created_at',
          sort_dir: 'desc',
          page: 1,
          per_page: 5000,
        },
        columns,
        rows: 2,
        format: 'xls',
      },
    });
    expect(events[0]!.summary).toMatch(/^Sam Tester\d+ exported 2 bookings to a spreadsheet$/);
    expect(events[1]).toMatchObject({
      tripId,
      details: { filters: { trips: [tripId], per_page: 2 }, columns: ['date', 'id', 'status', 'trip_name'], rows: 2 },
    });
  });

  it('records the passport zip with the number of images in it', async () => {
    await newExportEvents();
    expect((await admin.get(`/bookings/export?format=passportZip&trip_id=${tripId}`)).statusCode).toBe(200);
    const [event, ...more] = await newExportEvents();
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      action: 'export.passport_images',
      subjectType: 'booking_export',
      bookingId: null,
      tripId,
      details: { count: 1, format: 'passportZip', filters: { trip_id: tripId } },
    });
    expect(event!.summary).toMatch(/^Sam Tester\d+ downloaded the passport images of 1 booking$/);
  });

  it('records nothing for a refused export', async () => {
    await newExportEvents();
    expect((await admin.get('/bookings/export?format=pdf')).statusCode).toBe(422);
    expect((await (await t.signedIn(2)).get('/bookings/export')).statusCode).toBe(403);
    expect((await t.client().get('/bookings/export')).statusCode).toBe(401);
    expect(await newExportEvents()).toEqual([]);
  });

  it('names the personal access token an export was made with', async () => {
    const made = await admin.post('/oauth/personal-access-tokens', { name: 'Exporter', scopes: ['bookings:read'] });
    const { token, accessToken } = made.json() as { token: { id: string }; accessToken: string };
    await newExportEvents();
    const res = await t.app.inject({
      method: 'GET',
      url: `/bookings/export?format=xls&trip_id=${tripId}`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.statusCode).toBe(200);
    const [event] = await newExportEvents();
    expect(event).toMatchObject({
      action: 'export.bookings',
      actorType: 'personal_token',
      actorTokenId: token.id,
      source: 'api',
      details: { rows: 3 },
    });
    expect(event!.actorName).toMatch(/\(personal access token\)$/);
  });
});

describe('an export larger than one read batch', () => {
  let big: TestApp;
  let staff: TestClient;
  beforeAll(async () => {
    big = await createTestApp();
    staff = await big.signedIn(1);
    await insertTrip(big.db, { name: 'Busy Trek', departureDate: '2099-05-01', returnDate: '2099-05-08' });
    await seedScale(big.db, 2_100, () => {});
  });
  afterAll(() => big.close());

  it('keeps the list order across batches, with no row twice or missing, and the page of perPage', async () => {
    const columns = encodeURIComponent(JSON.stringify(['id', 'ref', 'date']));
    const read = async (qs: string) => {
      const res = await staff.get(`/bookings/export?format=xls&timing=all&columns=${columns}&${qs}`);
      expect(res.statusCode).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const rows: unknown[][] = [];
      wb.getWorksheet('Bookings')!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return rows.slice(1);
    };
    const byId = await read('sort_field=id&sort_dir=asc&perPage=5000');
    expect(byId).toHaveLength(2_100);
    const ids = byId.map((r) => r[0] as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(2_100);

    const newest = (await read('perPage=1500')).map((r) => (r[2] as Date).getTime());
    expect(newest).toHaveLength(1_500);
    expect(newest).toEqual([...newest].sort((a, b) => b - a));
    // the second page of 1,500 starts where the first ended
    const second = await read('perPage=1500&page=2&sort_field=id&sort_dir=asc');
    expect(second[0]![0]).toBe(ids[1_500]);
    const events = await big.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
    expect(
      events.filter((e) => e.action === 'export.bookings').map((e) => (e.details as { rows: number }).rows),
    ).toEqual([2_100, 1_500, 600]);
  });
});

describe('the passport zip, when an image goes missing after it is listed', () => {
  it('ends the download with an error, and the server carries on', async () => {
    // the real store, but the image is gone by the time the zip comes to it (erased, replaced)
    const gone: FileStore = {
      ...t.files,
      driver: t.files.driver,
      where: t.files.where,
      stat: (k, n) => t.files.stat(k, n),
      open: async () => null,
      list: (k) => t.files.list(k),
    };
    const filter = {
      ...bookingListQuery.parse({ trip_id: String(tripId), timing: 'all', status: 'all' }),
      per_page: 1,
    };
    const out = passportZip(t.db, gone, filter, 100);
    const failure = await new Promise<unknown>((resolve) => {
      out.on('error', resolve);
      out.on('end', () => resolve(null));
      out.resume();
    });
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('a passport image went missing while its zip was written');
    // still serving
    expect((await admin.get(`/bookings/export?format=passportZip&trip_id=${tripId}`)).statusCode).toBe(200);
  });
});
