import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

// The manifests as PDF (issue 18): the same rows and columns as the .xlsx, read back from the
// PDF's text; the same bookings rule; recorded; a traveller's odd typing cannot break it.

let t: TestApp;
let admin: TestClient;
let tripId: number;
const today = ukToday();

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  tripId = (await insertTrip(t.db, { name: 'Paper Trek', departureDate: addDays(today, 60), returnDate: addDays(today, 70) })).id;
  const base = { status: 'confirmed', passportNumber: '123456789', passportExpiryDate: '2031-03-09', dateOfBirth: '1990-07-04', nokName: 'Ann Lee', nokTelephone: '07700 900123', roomType: 'Twin' } as const;
  await insertBooking(t.db, tripId, { ...base, firstName: 'Łukasz', lastName: 'Dvořák', shareWith: 'Nguyễn Văn An', dietary: 'Vegan' });
  await insertBooking(t.db, tripId, { ...base, firstName: 'Nguyễn', lastName: 'Văn An', shareWith: 'Łukasz Dvořák', medicalConditions: true, medicalDetail: 'Asthma' });
  await insertBooking(t.db, tripId, { ...base, firstName: 'Pat', lastName: 'Provisional', status: 'provisional' });
  await insertBooking(t.db, tripId, { ...base, firstName: 'Cal', lastName: 'Cancelled', status: 'cancelled' });
  // what a traveller may type: emoji, right-to-left, control characters, a formula, a very long word
  await insertBooking(t.db, tripId, { ...base, firstName: 'Zoë 🏔️', lastName: 'Zمرحبا', dietary: `=HYPERLINK("x")\u0007\u001b`, medicalConditions: true, medicalDetail: 'x'.repeat(400), shareWith: 'Nobody Here' });
});
afterAll(() => t.close());

async function pdfText(query: string) {
  const res = await admin.get(`/api/trips/${tripId}/manifest${query}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const doc = await getDocumentProxy(new Uint8Array(res.rawPayload));
  const { totalPages, text } = await extractText(doc, { mergePages: true });
  return { res, pages: totalPages, text: text.replace(/\s+/g, ' ') };
}

describe('manifests as PDF', () => {
  it('the manifest: its columns and confirmed travellers (provisional when asked, never cancelled), dates as dd/mm/yyyy; recorded', async () => {
    const { res, text, pages } = await pdfText('?kind=manifest&format=pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="manifest-paper-trek.pdf"');
    expect(pages).toBe(1);
    expect(text).toContain('Manifest: Paper Trek');
    expect(text).toContain('3 travellers (confirmed bookings)');
    for (const header of ['Traveller', 'Booking', 'Status', 'Date of birth', 'Gender', 'Passport number', 'Passport expiry', 'Dietary', 'Medical', 'Next of kin', 'Room']) expect(text).toContain(header);
    expect(text).toContain('Łukasz Dvořák');
    expect(text).toContain('Nguyễn Văn An');
    expect(text).toContain('04/07/1990');
    expect(text).toContain('09/03/2031');
    expect(text).toContain('Asthma');
    expect(text).not.toContain('Provisional');
    expect(text).not.toContain('Cancelled');
    expect(text).toContain('Page 1 of 1');
    expect((await pdfText('?kind=manifest&format=pdf&include=provisional')).text).toContain('Pat Provisional');
    const [event] = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'export.manifest'), eq(auditEvents.tripId, tripId)));
    expect(event).toMatchObject({ details: { kind: 'manifest', format: 'pdf', rows: 3, provisional: false } });
  });

  it('the rooming list flags unmatched sharers; the emergency contacts', async () => {
    const rooming = (await pdfText('?kind=rooming&format=pdf')).text;
    expect(rooming).toContain('Rooming list: Paper Trek');
    expect(rooming).toContain('Unmatched: not a traveller on this trip');
    const contacts = (await pdfText('?kind=contacts&format=pdf')).text;
    expect(contacts).toContain('Emergency contacts: Paper Trek');
    expect(contacts).toContain('Next of kin telephone');
    expect(contacts).toContain('07700 900123');
  });

  it('odd typing is printed, not obeyed, and breaks nothing: the formula as typed, control characters gone', async () => {
    const { text } = await pdfText('?kind=manifest&format=pdf');
    expect(text).toContain('=HYPERLINK("x")');
    expect(text).toContain('xxxxxxxx');
  });

  it('a trip with no travellers: the title and "No travellers."', async () => {
    const empty = (await insertTrip(t.db, { name: 'Empty Trek', departureDate: addDays(today, 60), returnDate: addDays(today, 70) })).id;
    const res = await admin.get(`/api/trips/${empty}/manifest?format=pdf`);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), { mergePages: true });
    expect(text).toContain('Manifest: Empty Trek');
    expect(text).toContain('No travellers.');
  });

  it('a long trip runs onto more pages, each with the header and its page number', async () => {
    const big = (await insertTrip(t.db, { name: 'Big Trek', departureDate: addDays(today, 60), returnDate: addDays(today, 70) })).id;
    for (let i = 0; i < 60; i++) await insertBooking(t.db, big, { status: 'confirmed', firstName: `Walker${i}`, lastName: 'Many', medicalConditions: true, medicalDetail: 'A long account of a condition, '.repeat(3) });
    const res = await admin.get(`/api/trips/${big}/manifest?format=pdf`);
    const doc = await getDocumentProxy(new Uint8Array(res.rawPayload));
    const { totalPages, text } = await extractText(doc);
    expect(totalPages).toBeGreaterThan(1);
    for (const [i, raw] of (text as string[]).entries()) {
      const page = raw.replace(/\s+/g, ' ');
      expect(page).toContain('Passport expiry');
      expect(page).toContain(`Page ${i + 1} of ${totalPages}`);
    }
  });
});
