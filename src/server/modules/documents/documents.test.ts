import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { asc, desc, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, bookingCustomFieldAnswers } from '../../../db/schema/index.ts';
import { makeLogoPng, makePdf } from '../../../db/seed/images.ts';
import { multipart } from '../../../../tests/support/multipart.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { detectDocument, DocumentService, safeFilename, SIGNED_URL_SECONDS } from './service.ts';

let t: TestApp;
let admin: TestClient;
let tripId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  tripId = (await insertTrip(t.db)).id;
});
afterAll(() => t.close());

const pdf = makePdf('Kit list', ['Boots', 'Head torch']);
const docsDir = () => path.join(t.config.dataDir, 'files', 'documents');

async function addDocument(name = 'Kit list') {
  const res = await admin.post('/api/documents', { trip_id: tripId, name });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; signed_url: string | null };
}

function upload(
  id: number,
  bytes: Buffer,
  filename = 'kit-list.pdf',
  contentType = 'application/pdf',
  fields: Record<string, string> = { document_id: String(id) },
) {
  const body = multipart(fields, { field: 'document_file', filename, contentType, bytes });
  return admin.request({
    method: 'POST',
    url: `/api/documents/${id}/upload`,
    payload: body.payload,
    headers: body.headers,
  });
}

describe('documents', () => {
  it('adds a named document, uploads its file, lists it with a signed address that downloads it', async () => {
    const doc = await addDocument();
    expect(doc).toMatchObject({ trip_id: tripId, name: 'Kit list', filename: null, signed_url: null });
    const res = await upload(doc.id, pdf);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ filename: 'kit-list.pdf', size: pdf.length });
    const [listed] = (await admin.get(`/api/trips/${tripId}/documents`)).json();
    expect(listed.signed_url).toMatch(new RegExp(`^/files/documents/${doc.id}\\?expires=\\d+&signature=[\\w-]+$`));
    // the address is the credential: no session needed
    const download = await t.client().get(listed.signed_url);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe('attachment; filename="kit-list.pdf"');
    expect(download.rawPayload.equals(pdf)).toBe(true);
  });

  it('refuses an address that is altered, expired, or for a file since replaced', async () => {
    const doc = await addDocument('Dossier');
    const url = (await upload(doc.id, pdf)).json().signed_url as string;
    const tampered = url.replace(/signature=(.)/, (_, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`);
    expect((await t.client().get(tampered)).statusCode).toBe(403);
    const otherDoc = url.replace(`/documents/${doc.id}?`, `/documents/${doc.id + 1000}?`);
    expect((await t.client().get(otherDoc)).statusCode).toBe(403);
    const later = url.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 10}`);
    expect((await t.client().get(later)).statusCode).toBe(403);

    // an address made an hour and more ago has expired
    const service = new DocumentService(
      t.db,
      t.files,
      t.config.sessionSecret,
      () => Date.now() - (SIGNED_URL_SECONDS + 5) * 1000,
    );
    const [oldDoc] = await service.list(tripId).then((docs) => docs.filter((d) => d.id === doc.id));
    const expired = await t.client().get(oldDoc!.signed_url!);
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual({ message: 'This download link has expired or is not valid.' });

    // a new file makes the old address stale
    await upload(doc.id, makeLogoPng(20, 20, [1, 2, 3]), 'map.png', 'image/png');
    expect((await t.client().get(url)).statusCode).toBe(403);
  });

  it('accepts PDF, images, Word, Excel and text by their content, and refuses the rest', async () => {
    const docx = Buffer.concat([
      Buffer.from('PK\x03\x04', 'latin1'),
      Buffer.alloc(26),
      Buffer.from('[Content_Types].xml', 'latin1'),
      Buffer.alloc(100),
    ]);
    expect(await detectDocument(pdf, 'x.pdf')).toEqual({ ext: 'pdf', mime: 'application/pdf' });
    expect(await detectDocument(makeLogoPng(4, 4, [0, 0, 0]), 'x.png')).toEqual({ ext: 'png', mime: 'image/png' });
    expect(await detectDocument(Buffer.from('Name,Phone\nAda,0123\n'), 'list.csv')).toEqual({
      ext: 'csv',
      mime: 'text/csv',
    });
    expect(await detectDocument(Buffer.from('Bring a hat.'), 'notes.txt')).toEqual({ ext: 'txt', mime: 'text/plain' });
    expect(await detectDocument(Buffer.from('Bring a hat.'), 'notes.exe')).toBeNull();
    expect(await detectDocument(Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]), 'setup.pdf')).toBeNull();
    expect(await detectDocument(Buffer.from('text\u0000with a NUL'), 'x.txt')).toBeNull();
    expect(await detectDocument(docx, 'x.docx')).not.toBeUndefined();

    const doc = await addDocument('Forged');
    const forged = await upload(doc.id, Buffer.from('#!/bin/sh\nrm -rf /\n'), 'kit.pdf', 'application/pdf');
    expect(forged.statusCode).toBe(422);
    expect(forged.json().errors).toEqual({
      document_file: ['The document file must be a PDF, an image, a Word or Excel file, or a text file.'],
    });
  });

  it('refuses a file over 20 MB, and a request cut off half-way, storing nothing', async () => {
    const doc = await addDocument('Huge');
    const before = existsSync(docsDir()) ? readdirSync(docsDir()).length : 0;
    const big = Buffer.concat([pdf, Buffer.alloc(20 * 1024 * 1024 + 1)]);
    const res = await upload(doc.id, big);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ document_file: ['The document file must not be greater than 20 MB.'] });

    const body = multipart(
      { document_id: String(doc.id) },
      { field: 'document_file', filename: 'cut.pdf', contentType: 'application/pdf', bytes: pdf },
    );
    const cut = await admin.request({
      method: 'POST',
      url: `/api/documents/${doc.id}/upload`,
      payload: body.payload.subarray(0, body.payload.length - 200),
      headers: body.headers,
    });
    expect(cut.statusCode).toBeGreaterThanOrEqual(400);
    expect(cut.statusCode).toBeLessThan(500);
    expect(existsSync(docsDir()) ? readdirSync(docsDir()).length : 0).toBe(before);
    expect(
      (await admin.get(`/api/trips/${tripId}/documents`)).json().find((d: { id: number }) => d.id === doc.id).filename,
    ).toBeNull();
  });

  it('wants a name and a real trip, and removes a document with its file', async () => {
    const bad = await admin.post('/api/documents', { trip_id: 999999, name: '' });
    expect(bad.json().errors).toEqual({ name: ['The name field is required.'] });
    const noTrip = await admin.post('/api/documents', { trip_id: 999999, name: 'Lost' });
    expect(noTrip.json().errors).toEqual({ trip_id: ['The selected trip is invalid.'] });
    const doc = await addDocument('Temporary');
    await upload(doc.id, pdf);
    const count = readdirSync(docsDir()).length;
    expect((await admin.delete(`/api/documents/${doc.id}`)).statusCode).toBe(204);
    expect(readdirSync(docsDir())).toHaveLength(count - 1);
    expect((await admin.delete(`/api/documents/${doc.id}`)).statusCode).toBe(404);
  });

  it('keeps a safe file name for the download', () => {
    expect(safeFilename('../../etc/passwd', 'txt')).toBe('passwd');
    expect(safeFilename('C:\\Users\\me\\Trip "plan".pdf', 'pdf')).toBe('Trip _plan_.pdf');
    expect(safeFilename('.htaccess', 'txt')).toBe('document.txt');
  });
});

describe('custom fields', () => {
  it('lists, adds, changes and deletes a trip’s fields, in order', async () => {
    const trip = await insertTrip(t.db);
    const a = await admin.post('/api/customFields', { trip_id: trip.id, label: 'T-shirt size', note: 'S, M, L or XL' });
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({ trip_id: trip.id, label: 'T-shirt size', note: 'S, M, L or XL' });
    await admin.post('/api/customFields', { trip_id: trip.id, label: 'Dietary needs', note: '' });
    const list = (await admin.get(`/api/customFields?trip_id=${trip.id}`)).json();
    expect(list.map((f: { label: string; note: string | null }) => [f.label, f.note])).toEqual([
      ['T-shirt size', 'S, M, L or XL'],
      ['Dietary needs', null],
    ]);
    const changed = await admin.put(`/api/customFields/${a.json().id}`, { label: 'Shirt size', note: 'Unisex sizes' });
    expect(changed.json()).toMatchObject({ label: 'Shirt size', note: 'Unisex sizes' });
    expect((await admin.delete(`/api/customFields/${a.json().id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/customFields?trip_id=${trip.id}`)).json()).toHaveLength(1);
  });

  it('are kept as they were once their trip is deleted, with their documents', async () => {
    const trip = await insertTrip(t.db);
    const field = (await admin.post('/api/customFields', { trip_id: trip.id, label: 'Kept' })).json();
    const doc = (await admin.post('/api/documents', { trip_id: trip.id, name: 'Kept doc' })).json();
    await admin.delete(`/api/trips/${trip.id}`);
    const refusal = { message: 'This trip has been deleted, so it can no longer be changed.' };
    expect((await admin.put(`/api/customFields/${field.id}`, { label: 'Changed' })).json()).toEqual(refusal);
    expect((await admin.delete(`/api/customFields/${field.id}`)).json()).toEqual(refusal);
    expect((await admin.delete(`/api/documents/${doc.id}`)).json()).toEqual(refusal);
    expect((await upload(doc.id, pdf)).json()).toEqual(refusal);
  });

  it('wants a label and a trip', async () => {
    expect((await admin.post('/api/customFields', { trip_id: tripId, label: ' ' })).json().errors).toEqual({
      label: ['The label field is required.'],
    });
    expect((await admin.post('/api/customFields', { trip_id: 999999, label: 'x' })).json().errors).toEqual({
      trip_id: ['The selected trip is invalid.'],
    });
    expect((await admin.get('/api/customFields')).statusCode).toBe(422);
    expect((await admin.put('/api/customFields/999999', { label: 'x' })).statusCode).toBe(404);
    expect((await admin.delete('/api/customFields/999999')).statusCode).toBe(404);
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

  it('records a document added, its file uploaded and replaced, and the document deleted, against its trip', async () => {
    const trip = await insertTrip(t.db, { name: 'Kilimanjaro Summit Trek 2027' });
    const since = await lastEventId();
    const doc = (await admin.post('/api/documents', { trip_id: trip.id, name: 'Kit list' })).json();
    const body = multipart(
      { document_id: String(doc.id) },
      { field: 'document_file', filename: 'kit-list.pdf', contentType: 'application/pdf', bytes: pdf },
    );
    expect(
      (
        await admin.request({
          method: 'POST',
          url: `/api/documents/${doc.id}/upload`,
          payload: body.payload,
          headers: body.headers,
        })
      ).statusCode,
    ).toBe(200);
    const png = makeLogoPng(20, 20, [1, 2, 3]);
    expect((await upload(doc.id, png, 'map.png', 'image/png')).statusCode).toBe(200);
    // reading the list and downloading through the signed address are not recorded
    const [listed] = (await admin.get(`/api/trips/${trip.id}/documents`)).json();
    expect((await t.client().get(listed.signed_url)).statusCode).toBe(200);
    expect((await admin.delete(`/api/documents/${doc.id}`)).statusCode).toBe(204);

    const common = {
      subjectType: 'document',
      subjectId: String(doc.id),
      tripId: trip.id,
      actorType: 'user',
      actorName: actor,
      source: 'web',
    };
    expect(await eventsSince(since)).toMatchObject([
      {
        ...common,
        action: 'document.created',
        summary: `${actor} added the document Kit list to the trip Kilimanjaro Summit Trek 2027`,
      },
      {
        ...common,
        action: 'document.uploaded',
        summary: `${actor} uploaded the file kit-list.pdf for the document Kit list of the trip Kilimanjaro Summit Trek 2027`,
        details: { file_name: 'kit-list.pdf', size: pdf.length, type: 'application/pdf' },
      },
      {
        ...common,
        action: 'document.uploaded',
        details: { file_name: 'map.png', size: png.length, type: 'image/png', replaced_file_name: 'kit-list.pdf' },
      },
      {
        ...common,
        action: 'document.deleted',
        summary: `${actor} deleted the document Kit list of the trip Kilimanjaro Summit Trek 2027`,
        details: { file_name: 'map.png' },
      },
    ]);
  });

  it('records nothing when a document change is refused', async () => {
    const trip = await insertTrip(t.db);
    const doc = (await admin.post('/api/documents', { trip_id: trip.id, name: 'Refused' })).json();
    await upload(doc.id, pdf);
    const gone = await insertTrip(t.db);
    const goneDoc = (await admin.post('/api/documents', { trip_id: gone.id, name: 'On a deleted trip' })).json();
    await admin.delete(`/api/trips/${gone.id}`);
    const since = await lastEventId();
    expect((await admin.post('/api/documents', { trip_id: 999999, name: 'Lost' })).statusCode).toBe(422);
    expect((await upload(doc.id, Buffer.from('#!/bin/sh\n'), 'kit.pdf')).statusCode).toBe(422);
    expect((await upload(999999, pdf)).statusCode).toBe(404);
    expect((await upload(goneDoc.id, pdf)).statusCode).toBe(422);
    expect((await admin.delete(`/api/documents/${goneDoc.id}`)).statusCode).toBe(422);
    expect((await admin.delete('/api/documents/999999')).statusCode).toBe(404);
    expect(await eventsSince(since)).toEqual([]);
    expect((await admin.get(`/api/trips/${trip.id}/documents`)).json()[0]).toMatchObject({
      filename: 'kit-list.pdf',
      size: pdf.length,
    });
  });

  it('records custom fields added, changed and deleted against their trip', async () => {
    const trip = await insertTrip(t.db, { name: 'Atlas Trek 2099' });
    const since = await lastEventId();
    const field = (
      await admin.post('/api/customFields', { trip_id: trip.id, label: 'T-shirt size', note: 'S, M, L or XL' })
    ).json();
    await admin.put(`/api/customFields/${field.id}`, { label: 'Shirt size', note: 'S, M, L or XL' });
    await admin.put(`/api/customFields/${field.id}`, { label: 'Shirt size', note: '' });
    const booking = await insertBooking(t.db, trip.id);
    await t.db
      .insert(bookingCustomFieldAnswers)
      .values({ bookingId: booking.id, customFieldId: field.id, answer: 'M' });
    await admin.delete(`/api/customFields/${field.id}`);

    const common = {
      subjectType: 'custom_field',
      subjectId: String(field.id),
      tripId: trip.id,
      actorType: 'user',
      actorName: actor,
    };
    expect(await eventsSince(since)).toMatchObject([
      {
        ...common,
        action: 'custom_field.created',
        changes: null,
        summary: `${actor} added the custom field T-shirt size to the trip Atlas Trek 2099`,
        details: { label: 'T-shirt size', note: 'S, M, L or XL' },
      },
      {
        ...common,
        action: 'custom_field.updated',
        changes: { label: ['T-shirt size', 'Shirt size'] },
        summary: `${actor} changed label of the custom field Shirt size of the trip Atlas Trek 2099 from T-shirt size to Shirt size`,
      },
      { ...common, action: 'custom_field.updated', changes: { note: ['S, M, L or XL', null] } },
      {
        ...common,
        action: 'custom_field.deleted',
        summary: `${actor} deleted the custom field Shirt size of the trip Atlas Trek 2099`,
        details: { label: 'Shirt size', note: null, answers_deleted: 1 },
      },
    ]);
  });

  it('records nothing when a custom field change is refused', async () => {
    const trip = await insertTrip(t.db);
    const field = (await admin.post('/api/customFields', { trip_id: trip.id, label: 'Kept' })).json();
    await admin.delete(`/api/trips/${trip.id}`);
    const since = await lastEventId();
    expect((await admin.post('/api/customFields', { trip_id: 999999, label: 'x' })).statusCode).toBe(422);
    expect((await admin.post('/api/customFields', { trip_id: trip.id, label: 'x' })).statusCode).toBe(422);
    expect((await admin.put(`/api/customFields/${field.id}`, { label: 'Changed' })).statusCode).toBe(422);
    expect((await admin.delete(`/api/customFields/${field.id}`)).statusCode).toBe(422);
    expect((await admin.put('/api/customFields/999999', { label: 'x' })).statusCode).toBe(404);
    expect((await admin.delete('/api/customFields/999999')).statusCode).toBe(404);
    expect(await eventsSince(since)).toEqual([]);
  });
});
