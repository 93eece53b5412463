import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { eq } from 'drizzle-orm';
import { insertBooking } from '../db/factories/bookings.ts';
import { insertTrip } from '../db/factories/trips.ts';
import { bookings } from '../db/schema/index.ts';
import { makeLogoPng, makePdf } from '../db/seed/images.ts';
import { multipart } from '../../tests/support/multipart.ts';
import { startS3, type S3Server } from '../../tests/support/s3.ts';
import { createTestApp, type TestApp, type TestClient } from '../../tests/support/test-app.ts';
import { sweepOrphanFiles } from './files-sweep.ts';
import { storeFile, type FileKind } from '../shared/storage/index.ts';

/**
 * Every feature that keeps a file, with STORAGE=s3 on a real S3-protocol server:
 * logos, documents and their signed downloads, the passport zip, erasure's removal, the orphan
 * sweep and /readyz. Nothing is written to DATA_DIR/files.
 */
let s3: S3Server;
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  s3 = await startS3('tripdesk-api');
  t = await createTestApp({ storage: s3.storage });
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

async function stored(kind: FileKind): Promise<string[]> {
  const out: string[] = [];
  for await (const f of t.files.list(kind)) out.push(f.name);
  return out;
}

const send = (
  url: string,
  field: string,
  fields: Record<string, string>,
  file: { filename: string; contentType: string; bytes: Buffer },
) => {
  const body = multipart(fields, { field, ...file });
  return admin.request({ method: 'POST', url, payload: body.payload, headers: body.headers });
};

describe('STORAGE=s3', () => {
  it('keeps a charity logo in the bucket, serves it, replaces it and removes it', async () => {
    const charity = (await admin.post('/api/charities', { name: 'Bucket Trust', charity_type_id: 1 })).json() as {
      id: number;
    };
    const png = makeLogoPng(40, 20, [200, 10, 10]);
    const up = await send(
      `/api/charities/${charity.id}/logo`,
      'charity_logo',
      { charity_id: String(charity.id) },
      { filename: 'logo.png', contentType: 'image/png', bytes: png },
    );
    expect(up.statusCode, up.body).toBe(200);
    expect(await stored('logos')).toHaveLength(1);
    const logo = await admin.get(`/api/charities/${charity.id}/logo`);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(png)).toBe(true);

    const again = await send(
      `/api/charities/${charity.id}/logo`,
      'charity_logo',
      {},
      { filename: 'new.png', contentType: 'image/png', bytes: makeLogoPng(10, 10, [0, 0, 0]) },
    );
    expect(again.statusCode).toBe(200);
    expect(await stored('logos')).toHaveLength(1);
    expect((await admin.delete(`/api/charities/${charity.id}/logo`)).statusCode).toBe(200);
    expect(await stored('logos')).toEqual([]);
  });

  it('stores nothing of a refused upload: wrong content, too large, or the wrong id', async () => {
    const charity = (await admin.post('/api/charities', { name: 'Refusing Trust', charity_type_id: 1 })).json() as {
      id: number;
    };
    const url = `/api/charities/${charity.id}/logo`;
    const exe = await send(
      url,
      'charity_logo',
      {},
      {
        filename: 'logo.png',
        contentType: 'image/png',
        bytes: Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0x00]), Buffer.alloc(5000)]),
      },
    );
    expect(exe.statusCode).toBe(422);
    expect(exe.json().errors).toEqual({ charity_logo: ['The charity logo must be a JPG or PNG image.'] });
    // a real PNG's head, then past the 5 MB limit
    const big = Buffer.concat([makeLogoPng(10, 10, [1, 2, 3]), Buffer.alloc(6 * 1024 * 1024)]);
    const tooLarge = await send(url, 'charity_logo', {}, { filename: 'big.png', contentType: 'image/png', bytes: big });
    expect(tooLarge.statusCode).toBe(422);
    expect(tooLarge.json().errors).toEqual({ charity_logo: ['The charity logo must not be greater than 5 MB.'] });
    const wrongId = await send(
      url,
      'charity_logo',
      { charity_id: String(charity.id + 1) },
      { filename: 'logo.png', contentType: 'image/png', bytes: makeLogoPng(10, 10, [1, 2, 3]) },
    );
    expect(wrongId.statusCode).toBe(422);
    expect(await stored('logos')).toEqual([]);
  });

  it('keeps a trip document, downloads it through its signed address, and refuses a text file that stops being text past its first bytes', async () => {
    const trip = await insertTrip(t.db, { name: 'Bucket Trek' });
    const doc = (await admin.post('/api/documents', { trip_id: trip.id, name: 'Kit list' })).json() as { id: number };
    const pdf = makePdf('Kit list', ['Boots', 'Head torch']);
    const up = await send(
      `/api/documents/${doc.id}/upload`,
      'document_file',
      {},
      { filename: 'kit.pdf', contentType: 'application/pdf', bytes: pdf },
    );
    expect(up.statusCode, up.body).toBe(200);
    const signed = up.json().signed_url as string;
    const download = await t.client().get(signed);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect(await stored('documents')).toHaveLength(1);

    // 100 KB of text, then a NUL: the head passes, the rest does not
    const text = Buffer.concat([Buffer.from('Bring a hat.\n'.repeat(8000)), Buffer.from([0x00])]);
    const notText = await send(
      `/api/documents/${doc.id}/upload`,
      'document_file',
      {},
      { filename: 'notes.txt', contentType: 'text/plain', bytes: text },
    );
    expect(notText.statusCode).toBe(422);
    expect(notText.json().errors.document_file).toEqual([
      'The document file must be a PDF, an image, a Word or Excel file, or a text file.',
    ]);
    expect(await stored('documents')).toHaveLength(1);
    // the document still has its PDF
    expect((await t.client().get(signed)).rawPayload.equals(pdf)).toBe(true);
  });

  it('zips passport images read from the bucket, leaving out one whose file is missing', async () => {
    const trip = await insertTrip(t.db, { name: 'Passport Trek' });
    const scan = makeLogoPng(30, 20, [10, 20, 30]);
    const image = await storeFile(t.files, 'passports', scan, 'png');
    await insertBooking(t.db, trip.id, {
      ref: 'TD-S3S3S3',
      firstName: 'Ada',
      lastName: 'Byron',
      status: 'confirmed',
      passportImageFile: image,
    });
    await insertBooking(t.db, trip.id, {
      ref: 'TD-GONEGO',
      firstName: 'Gus',
      lastName: 'Gone',
      status: 'confirmed',
      passportImageFile: 'missing.png',
    });
    const res = await admin.get(`/bookings/export?format=passportZip&trip_id=${trip.id}`);
    expect(res.statusCode).toBe(200);
    const zip = await JSZip.loadAsync(res.rawPayload);
    expect(Object.keys(zip.files)).toEqual(['TD-S3S3S3 Ada Byron.png']);
    expect((await zip.file('TD-S3S3S3 Ada Byron.png')!.async('nodebuffer')).equals(scan)).toBe(true);
  });

  it('sweeps files no row names from the bucket, once old enough', async () => {
    const orphan = await storeFile(t.files, 'documents', Buffer.from('nobody names me'), 'pdf');
    // ages from the store's own clock (s3rver dates an object by its file on disk, which a faked
    // process clock does not move)
    const storedAt = (await t.files.stat('documents', orphan))!.modifiedMs;
    expect(await sweepOrphanFiles(t.db, t.files, 3_600_000, storedAt + 60_000)).toMatchObject({ documents: 0 });
    const swept = await sweepOrphanFiles(t.db, t.files, 3_600_000, storedAt + 2 * 3_600_000);
    expect(swept.documents).toBe(1);
    expect(await stored('documents')).not.toContain(orphan);
    // named files stay
    const [named] = await t.db
      .select({ file: bookings.passportImageFile })
      .from(bookings)
      .where(eq(bookings.ref, 'TD-S3S3S3'));
    expect(await stored('passports')).toContain(named!.file);
  });

  it('is ready while the bucket answers; when it does not, says storage, and answers 503 to a file asked for or sent, changing nothing', async () => {
    const charity = (await admin.post('/api/charities', { name: 'Outage Trust', charity_type_id: 1 })).json() as {
      id: number;
    };
    const png = makeLogoPng(12, 12, [9, 9, 9]);
    expect(
      (
        await send(
          `/api/charities/${charity.id}/logo`,
          'charity_logo',
          {},
          { filename: 'logo.png', contentType: 'image/png', bytes: png },
        )
      ).statusCode,
    ).toBe(200);
    const before = (await admin.get(`/api/charities/${charity.id}`)).json();
    expect(before.logo_url).toMatch(/^\/api\/charities\/\d+\/logo/);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json().checks.storage).toEqual({ status: 'ok' });
    await s3.close();
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'not_ready', checks: { storage: { status: 'failed' } } });

    const message = { message: 'The file store cannot be reached just now. Please try again in a moment.' };
    const logo = await admin.get(`/api/charities/${charity.id}/logo`);
    expect(logo.statusCode).toBe(503);
    expect(logo.json()).toEqual(message);
    const upload = await send(
      `/api/charities/${charity.id}/logo`,
      'charity_logo',
      {},
      { filename: 'new.png', contentType: 'image/png', bytes: makeLogoPng(8, 8, [1, 1, 1]) },
    );
    expect(upload.statusCode).toBe(503);
    expect(upload.json()).toEqual(message);
    expect((await admin.get(`/api/charities/${charity.id}`)).json()).toEqual(before);
    s3 = await startS3('tripdesk-api-2');
  });
});
