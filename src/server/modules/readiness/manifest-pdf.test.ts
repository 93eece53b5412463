import { and, desc, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, toDdMmYyyy, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

// The manifests as PDF: the same rows and columns as the .xlsx, read back from the
// PDF (each cell found under its column's header); the same bookings rule; recorded; a
// traveller's odd typing cannot break it.

let t: TestApp;
let admin: TestClient;
let tripId: number;
const today = ukToday();
const departure = addDays(today, 60);
const back = addDays(today, 70);
const refs: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  tripId = (await insertTrip(t.db, { name: 'Paper Trek', departureDate: departure, returnDate: back })).id;
  const base = {
    status: 'confirmed',
    passportNumber: '123456789',
    passportExpiryDate: '2031-03-09',
    dateOfBirth: '1990-07-04',
    mobile: '07700 900001',
    nokName: 'Ann Lee',
    nokRelationship: 'Mother',
    nokTelephone: '07700 900123',
    nokEmail: 'ann@example.test',
    roomType: 'Twin',
  } as const;
  refs.lukasz = (
    await insertBooking(t.db, tripId, {
      ...base,
      firstName: 'Łukasz',
      lastName: 'Dvořák',
      gender: 'male',
      email: 'lukasz@example.test',
      roomRef: 'R1',
      shareWith: 'Nguyễn Văn An',
      dietary: 'Vegan',
    })
  ).ref;
  refs.an = (
    await insertBooking(t.db, tripId, {
      ...base,
      firstName: 'Nguyễn',
      lastName: 'Văn An',
      gender: 'female',
      email: 'an@example.test',
      roomRef: 'R1',
      shareWith: 'Łukasz Dvořák',
      medicalConditions: true,
      medicalDetail: 'Asthma',
      medication: 'Inhaler',
    })
  ).ref;
  refs.pat = (
    await insertBooking(t.db, tripId, {
      ...base,
      firstName: 'Pat',
      lastName: 'Provisional',
      status: 'provisional',
      email: 'pat@example.test',
    })
  ).ref;
  await insertBooking(t.db, tripId, { ...base, firstName: 'Cal', lastName: 'Cancelled', status: 'cancelled' });
  // what a traveller may type: emoji, right-to-left, control characters, a formula, a very long word
  refs.zoe = (
    await insertBooking(t.db, tripId, {
      ...base,
      firstName: 'Zoë 🏔️',
      lastName: 'Zمرحبا',
      email: 'zoe@example.test',
      dietary: `=HYPERLINK("x")\u0007\u001b`,
      medicalConditions: true,
      medicalDetail: 'x'.repeat(400),
      shareWith: 'Nobody Here',
    })
  ).ref;
});
afterAll(() => t.close());

async function download(query: string, trip = tripId) {
  const res = await admin.get(`/api/trips/${trip}/manifest${query}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return res;
}

async function pdfText(query: string, trip = tripId) {
  const res = await download(query, trip);
  const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), {
    mergePages: true,
  });
  return { res, pages: totalPages, text: text.replace(/\s+/g, ' ') };
}

/**
 * The table on each page as a reader sees it: the header's cells, then each row's cells, every
 * piece of text put under the column whose header starts at or left of it, and a cell's wrapped
 * lines joined. The title and the empty-state line sit left of the first column, the footer below
 * the last row; a new row starts where the gap between two lines is more than a line's height.
 */
async function tables(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const pages: Array<{ header: string[]; rows: string[][] }> = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const { items } = await (await doc.getPage(p)).getTextContent();
    const pieces = items
      .flatMap((i) =>
        'str' in i && i.str.trim() ? [{ x: i.transform[4] as number, y: i.transform[5] as number, str: i.str }] : [],
      )
      .filter((i) => i.x > 31 && i.y > 45)
      .sort((a, b) => b.y - a.y || a.x - b.x);
    const groups: Array<typeof pieces> = [];
    let last = Infinity;
    for (const piece of pieces) {
      if (last - piece.y > 11.5) groups.push([]);
      if (last !== piece.y) last = piece.y;
      groups.at(-1)!.push(piece);
    }
    const [head = [], ...body] = groups;
    const xs = [...new Set(head.filter((i) => i.y === head[0]!.y).map((i) => i.x))].sort((a, b) => a - b);
    const cells = (group: typeof pieces) =>
      xs.map((x, c) =>
        group
          .filter((i) => i.x >= x - 0.5 && (c === xs.length - 1 || i.x < xs[c + 1]! - 0.5))
          .map((i) => i.str.trim())
          .join(' '),
      );
    pages.push({ header: cells(head), rows: body.map(cells) });
  }
  return pages;
}
/** The latest manifest download recorded for a trip. */
async function lastEvent(trip = tripId) {
  const [event] = await t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, 'export.manifest'), eq(auditEvents.tripId, trip)))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return event;
}
/** Without its spaces: a cell wrapped inside a word reads back with a space in it. */
const squash = (row: string[]) => row.map((c) => c.replace(/\s+/g, ''));

const MANIFEST = [
  'Traveller',
  'Booking',
  'Status',
  'Date of birth',
  'Gender',
  'Passport number',
  'Passport expiry',
  'Dietary',
  'Medical',
  'Next of kin',
  'Room',
];

describe('manifests as PDF', () => {
  it('the manifest: the title line, its columns, and a row for each confirmed traveller with dates as dd/mm/yyyy; recorded as a PDF download', async () => {
    const res = await download('?kind=manifest&format=pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="manifest-paper-trek.pdf"');
    expect(await lastEvent()).toMatchObject({
      summary: expect.stringMatching(/ downloaded the manifest of Paper Trek \(3 travellers\)$/),
      details: { kind: 'manifest', format: 'pdf', rows: 3, provisional: false },
    });
    const { text, pages } = await pdfText('?kind=manifest&format=pdf');
    expect(pages).toBe(1);
    expect(text).toContain('Manifest — Paper Trek');
    expect(text).toContain(
      `${toDdMmYyyy(departure)} – ${toDdMmYyyy(back)}. 3 travellers (confirmed bookings). Generated on ${toDdMmYyyy(today)}.`,
    );
    expect(text).toContain('Page 1 of 1');

    const [page] = await tables(res.rawPayload);
    expect(page!.header).toEqual(MANIFEST);
    expect(page!.rows).toHaveLength(3);
    expect(squash(page!.rows[0]!)).toEqual(
      squash([
        'Łukasz Dvořák',
        refs.lukasz!,
        'confirmed',
        '04/07/1990',
        'male',
        '123456789',
        '09/03/2031',
        'Vegan',
        'None declared',
        'Ann Lee (Mother) 07700 900123',
        'Twin, ref R1, with Nguyễn Văn An',
      ]),
    );
    expect(squash(page!.rows[1]!)).toEqual(
      squash([
        'Nguyễn Văn An',
        refs.an!,
        'confirmed',
        '04/07/1990',
        'female',
        '123456789',
        '09/03/2031',
        '',
        'Asthma. Medication: Inhaler',
        'Ann Lee (Mother) 07700 900123',
        'Twin, ref R1, with Łukasz Dvořák',
      ]),
    );
    expect(page!.rows[2]![1]).toBe(refs.zoe);
    expect(text).not.toContain('Provisional');
    expect(text).not.toContain('Cancelled');
  });

  it('provisional bookings only when asked, cancelled ones never', async () => {
    const res = await download('?kind=manifest&format=pdf&include=provisional');
    expect(await lastEvent()).toMatchObject({
      summary: expect.stringMatching(/ downloaded the manifest of Paper Trek \(4 travellers\)$/),
      details: { format: 'pdf', rows: 4, provisional: true },
    });
    const [page] = await tables(res.rawPayload);
    expect(page!.rows.map((r) => r[1])).toEqual([refs.lukasz, refs.pat, refs.an, refs.zoe]);
    expect(page!.rows[1]!.slice(0, 3)).toEqual(['Pat Provisional', refs.pat, 'provisional']);
    const { text } = await pdfText('?kind=manifest&format=pdf&include=provisional');
    expect(text).toContain('4 travellers (confirmed and provisional bookings)');
    expect(text).not.toContain('Cancelled');
  });

  it('the rooming list, by room, with its Check column flagging an unmatched sharer', async () => {
    const res = await download('?kind=rooming&format=pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="rooming-paper-trek.pdf"');
    expect(await lastEvent()).toMatchObject({
      summary: expect.stringMatching(/ downloaded the rooming list of Paper Trek \(3 travellers\)$/),
      details: { kind: 'rooming', format: 'pdf' },
    });
    expect((await pdfText('?kind=rooming&format=pdf')).text).toContain('Rooming list — Paper Trek');
    const [page] = await tables(res.rawPayload);
    expect(page!.header).toEqual(['Room ref', 'Room type', 'Traveller', 'Sharing with', 'Check']);
    expect(page!.rows.map(squash)).toEqual([
      squash(['R1', 'Twin', 'Łukasz Dvořák', 'Nguyễn Văn An', '']),
      squash(['R1', 'Twin', 'Nguyễn Văn An', 'Łukasz Dvořák', '']),
      [expect.any(String), 'Twin', expect.stringContaining('Zoë'), 'NobodyHere', 'Unmatched:notatravelleronthistrip'],
    ]);
    expect(page!.rows[2]![0]).toBe('');
  });

  it('the emergency contacts', async () => {
    const res = await download('?kind=contacts&format=pdf');
    expect(await lastEvent()).toMatchObject({
      summary: expect.stringMatching(/ downloaded the emergency contacts of Paper Trek \(3 travellers\)$/),
      details: { kind: 'contacts', format: 'pdf' },
    });
    expect((await pdfText('?kind=contacts&format=pdf')).text).toContain('Emergency contacts — Paper Trek');
    const [page] = await tables(res.rawPayload);
    expect(page!.header).toEqual([
      'Traveller',
      'Mobile',
      'Email',
      'Next of kin',
      'Relationship',
      'Next of kin telephone',
      'Next of kin email',
    ]);
    expect(squash(page!.rows[0]!)).toEqual(
      squash([
        'Łukasz Dvořák',
        '07700 900001',
        'lukasz@example.test',
        'Ann Lee',
        'Mother',
        '07700 900123',
        'ann@example.test',
      ]),
    );
    expect(page!.rows.map((r) => r[2])).toEqual(['lukasz@example.test', 'an@example.test', 'zoe@example.test']);
  });

  it('odd typing is printed, not obeyed, and breaks nothing: the formula as typed, control characters gone, a long word kept', async () => {
    const res = await download('?kind=manifest&format=pdf');
    const zoe = (await tables(res.rawPayload))[0]!.rows[2]!;
    expect(zoe[0]).toContain('Zoë');
    expect(zoe[7]!.trim()).toBe('=HYPERLINK("x")');
    expect(squash([zoe[8]!])).toEqual(['x'.repeat(400)]);
    const { text } = await pdfText('?kind=manifest&format=pdf');
    // eslint-disable-next-line no-control-regex -- control characters are what must not be there
    expect(text).not.toMatch(/[\u0007\u001b]/);

    // and more of it, in every column of every kind
    const odd = (await insertTrip(t.db, { name: 'Odd Trek', departureDate: departure, returnDate: back })).id;
    const typed = [
      'Zoë 👨‍👩‍👧‍👦🇬🇧',
      '\u202eevil\u202c שלום مرحبا',
      'tab\there\r\nnew\u2028line',
      'bell\u0007esc\u001b[31mdel\u007fc1\u009b',
      'zero\u200bwidth\ufeffbom\u00adsoft',
      'e\u0301\u0302\u0303 Z\u0336\u0335\u0334',
      '山田 𠮷 ไทย',
      'y'.repeat(300),
      '\n\n\n\n',
      '  ',
      '@SUM(1)',
      '-1+1',
      "'quoted",
    ];
    for (const [n, s] of typed.entries()) {
      await insertBooking(t.db, odd, {
        status: 'confirmed',
        firstName: s,
        lastName: `Odd${n}`,
        email: 'odd@example.test',
        mobile: s,
        gender: null,
        passportNumber: s,
        dietary: s,
        medicalConditions: true,
        medicalDetail: s,
        medication: s,
        nokName: s,
        nokRelationship: s,
        nokTelephone: s,
        nokEmail: s,
        roomType: s,
        roomRef: s.slice(0, 20),
        shareWith: s,
      });
    }
    for (const kind of ['manifest', 'rooming', 'contacts']) {
      const { text: read } = await pdfText(`?kind=${kind}&format=pdf`, odd);
      for (const n of typed.keys()) expect(read).toContain(`Odd${n}`);
      // eslint-disable-next-line no-control-regex -- control characters are what must not be there
      expect(read).not.toMatch(/[\u0007\u001b\u007f]/);
    }
  });

  it('a trip with no travellers: the title, the header and "No travellers."', async () => {
    const empty = (await insertTrip(t.db, { name: 'Empty Trek', departureDate: departure, returnDate: back })).id;
    for (const kind of ['manifest', 'rooming', 'contacts']) {
      const { text, pages, res } = await pdfText(`?kind=${kind}&format=pdf`, empty);
      expect(pages).toBe(1);
      expect(text).toMatch(/(Manifest|Rooming list|Emergency contacts) — Empty Trek/);
      expect(text).toContain('0 travellers (confirmed bookings)');
      expect(text).toContain('No travellers.');
      expect(text).toContain('Page 1 of 1');
      const [page] = await tables(res.rawPayload);
      expect(page!.header.length).toBeGreaterThan(4);
      expect(page!.rows).toEqual([]);
    }
  });

  it('a long trip runs onto more pages, each with the header and its page number, no row lost', async () => {
    const big = (await insertTrip(t.db, { name: 'Big Trek', departureDate: departure, returnDate: back })).id;
    for (let i = 0; i < 60; i++)
      await insertBooking(t.db, big, {
        status: 'confirmed',
        firstName: `Walker${String(i).padStart(2, '0')}`,
        lastName: 'Many',
        medicalConditions: true,
        medicalDetail: 'A long account of a condition, '.repeat(3),
      });
    const res = await download('?format=pdf', big);
    const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)));
    expect(totalPages).toBeGreaterThan(1);
    for (const [i, raw] of (text as string[]).entries())
      expect(raw.replace(/\s+/g, ' ')).toContain(`Page ${i + 1} of ${totalPages}`);
    const pages = await tables(res.rawPayload);
    for (const page of pages) expect(page.header).toEqual(MANIFEST);
    expect(pages.flatMap((p) => p.rows.map((r) => r[0]))).toEqual(
      Array.from({ length: 60 }, (_, i) => `Walker${String(i).padStart(2, '0')} Many`),
    );
  });

  it('a trip whose name has no Latin letters still gets a file name', async () => {
    const tokyo = (await insertTrip(t.db, { name: '東京', departureDate: departure, returnDate: back })).id;
    const res = await download('?format=pdf', tokyo);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="manifest-trip-${tokyo}.pdf"`);
    expect((await pdfText('?format=pdf', tokyo)).text).toContain('Manifest — ');
  });

  it('a row taller than a page goes on on the next, named "(continued)"; a 60,000-letter word and a very long trip name break nothing', async () => {
    const name = `Very ${'Long '.repeat(60)}Trek`;
    const tall = (await insertTrip(t.db, { name, departureDate: departure, returnDate: back })).id;
    const story = Array.from({ length: 1500 }, (_, i) => `word${i}`).join(' ');
    await insertBooking(t.db, tall, {
      status: 'confirmed',
      firstName: 'Tess',
      lastName: 'Tall',
      medicalConditions: true,
      medicalDetail: story,
      dietary: 'z'.repeat(60_000),
    });
    await insertBooking(t.db, tall, { status: 'confirmed', firstName: 'Uma', lastName: 'After' });
    const res = await download('?format=pdf', tall);
    const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), {
      mergePages: true,
    });
    expect(totalPages).toBeGreaterThan(2);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Tess Tall (continued)');
    // every word of the story, in order, once
    const words = flat.match(/word\d+/g)!;
    expect(words).toEqual(story.split(' '));
    expect(text.replace(/[^z]/g, '')).toHaveLength(60_000);
    expect(flat).toContain('Uma After');
    expect(flat).toContain(`Page ${totalPages} of ${totalPages}`);
    const pages = await tables(res.rawPayload);
    for (const page of pages) expect(page.header).toEqual(MANIFEST);
  });
});
