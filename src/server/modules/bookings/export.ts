import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import yazl from 'yazl';
import type { ExportColumn } from '../../../contract/bookings.ts';
import { EXPORT_COLUMNS, type BookingFilter } from '../../../contract/bookings.ts';
import type { Db } from '../../../db/client.ts';
import type { FileStore } from '../../../shared/storage/index.ts';
import { bookings, countries, trips } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import type { FundraisingSql } from '../fundraising/sql.ts';
import { ageOnDeparture, bookingConditions, bookingOrder, needsTrip, passportState, tripCountry } from './list.ts';
import { escapeCell } from '../../common/spreadsheet.ts';

/**
 * Rows read and written a batch at a time, and the event loop let in between batches: on the
 * embedded database the queries run on the server's own thread, so a batch is a stretch in which
 * nothing else is served (250 rows of every column: a few tens of milliseconds).
 */
const BATCH = 250;

// the fields the export's columns are made of: the rest of a booking (notes, additional info…)
// is not read
const exportFields = {
  id: bookings.id,
  ref: bookings.ref,
  createdAt: bookings.createdAt,
  status: bookings.status,
  title: bookings.title,
  firstName: bookings.firstName,
  lastName: bookings.lastName,
  preferredName: bookings.preferredName,
  email: bookings.email,
  mobile: bookings.mobile,
  address1: bookings.address1,
  address2: bookings.address2,
  address3: bookings.address3,
  address4: bookings.address4,
  postCode: bookings.postCode,
  dateOfBirth: bookings.dateOfBirth,
  gender: bookings.gender,
  passportNumber: bookings.passportNumber,
  passportExpiryDate: bookings.passportExpiryDate,
  roomType: bookings.roomType,
  roomRef: bookings.roomRef,
  shareWith: bookings.shareWith,
  fundingType: bookings.fundingType,
  depositPaymentDate: bookings.depositPaymentDate,
  dietary: bookings.dietary,
  medicalConditions: bookings.medicalConditions,
  medication: bookings.medication,
  medicalDetail: bookings.medicalDetail,
  insuranceCompany: bookings.insuranceCompany,
  insurancePolicyNumber: bookings.insurancePolicyNumber,
  nokName: bookings.nokName,
  nokRelationship: bookings.nokRelationship,
  nokTelephone: bookings.nokTelephone,
  referredBy: bookings.referredBy,
  tripName: trips.name,
  departure: trips.departureDate,
  passport: passportState,
  age: ageOnDeparture,
};

const FUNDRAISING_COLUMNS = new Set<ExportColumn>(['fundraising_target', 'fundraising_raised', 'fundraising_state']);

/** The rows of a batch; the fundraising figures only when a column asks for them (they cost a look at the entries). */
const rowsById = (db: Db, ids: number[], fundraising?: FundraisingSql) =>
  db
    .select({
      ...exportFields,
      fundraisingTarget: fundraising ? fundraising.target : sql<null>`null`,
      fundraisingRaised: fundraising ? fundraising.raised : sql<null>`null`,
      fundraisingState: fundraising ? fundraising.state : sql<null>`null`,
    })
    .from(bookings)
    .innerJoin(trips, eq(trips.id, bookings.tripId))
    .leftJoin(countries, tripCountry)
    .where(inArray(bookings.id, ids));
type Row = Awaited<ReturnType<typeof rowsById>>[number];
const STATE_WORDS: Record<string, string> = {
  not_fundraising: 'Not fundraising',
  on_track: 'On track',
  behind: 'Behind',
  met: 'Target met',
};
const pounds = (pence: number | string | null) => (pence === null ? null : Number(pence) / 100);

const asDate = (iso: string | null) => (iso ? new Date(`${iso.slice(0, 10)}T00:00:00Z`) : null);

function value(r: Row, key: ExportColumn): string | number | Date | null {
  switch (key) {
    case 'date':
      return r.createdAt;
    case 'id':
      return r.id;
    case 'ref':
      return r.ref;
    case 'status':
      return r.status;
    case 'trip_name':
      return r.tripName;
    case 'departure':
      return asDate(r.departure);
    case 'title':
      return r.title;
    case 'first_name':
      return r.firstName;
    case 'last_name':
      return r.lastName;
    case 'preferred_name':
      return r.preferredName;
    case 'email':
      return r.email;
    case 'mobile':
      return r.mobile;
    case 'address':
      return [r.address1, r.address2, r.address3, r.address4].filter(Boolean).join(', ') || null;
    case 'post_code':
      return r.postCode;
    case 'date_of_birth':
      return asDate(r.dateOfBirth);
    case 'age':
      return r.age === null ? null : Number(r.age);
    case 'gender':
      return r.gender;
    case 'passport_number':
      return r.passportNumber;
    case 'passport_expiry':
      return asDate(r.passportExpiryDate);
    case 'passport_valid':
      return r.passport;
    case 'room_type':
      return r.roomType;
    case 'room_ref':
      return r.roomRef;
    case 'share_with':
      return r.shareWith;
    case 'funding_type':
      return r.fundingType;
    case 'deposit_payment_date':
      return asDate(r.depositPaymentDate);
    case 'dietary':
      return r.dietary;
    case 'medical_conditions':
      return r.medicalConditions ? 'Yes' : 'No';
    case 'medication':
      return r.medication;
    case 'medical_detail':
      return r.medicalDetail;
    case 'insurance_company':
      return r.insuranceCompany;
    case 'insurance_policy_number':
      return r.insurancePolicyNumber;
    case 'nok_name':
      return r.nokName;
    case 'nok_relationship':
      return r.nokRelationship;
    case 'nok_telephone':
      return r.nokTelephone;
    case 'referred_by':
      return r.referredBy;
    case 'fundraising_target':
      return pounds(r.fundraisingTarget);
    case 'fundraising_raised':
      return pounds(r.fundraisingRaised);
    case 'fundraising_state':
      return r.fundraisingState === null ? null : (STATE_WORDS[r.fundraisingState] ?? r.fundraisingState);
  }
}

/**
 * The bookings the list would show, in its order, read in batches so that memory stays flat
 * however many there are: first the ids of the whole export in one ordered query (from the
 * sort index where it can be; a few kilobytes even at 5,000), then the rows by primary key a
 * batch at a time. (Batches by OFFSET sorted and skipped the same matches again for every batch.)
 */
async function idsOf(
  db: Db,
  f: BookingFilter,
  perPage: number,
  onlyWithImages = false,
  fundraising?: FundraisingSql,
): Promise<number[]> {
  const where = and(
    bookingConditions(f, fundraising),
    onlyWithImages ? isNotNull(bookings.passportImageFile) : undefined,
  );
  const idQuery = db.select({ id: bookings.id }).from(bookings);
  return (
    await (
      needsTrip(f) ? idQuery.innerJoin(trips, eq(trips.id, bookings.tripId)).leftJoin(countries, tripCountry) : idQuery
    )
      .where(where)
      .orderBy(...bookingOrder(f))
      .limit(perPage)
      .offset((f.page - 1) * perPage)
  ).map((r) => r.id);
}

async function* batchesOf<T extends { id: number }>(
  ids: number[],
  read: (batch: number[]) => Promise<T[]>,
): AsyncGenerator<T[]> {
  for (let at = 0; at < ids.length; at += BATCH) {
    const batch = ids.slice(at, at + BATCH);
    const position = new Map(batch.map((id, i) => [id, i]));
    const rows = await read(batch);
    yield rows.sort((x, y) => position.get(x.id)! - position.get(y.id)!);
  }
}

/** The search an export was made with, as the history keeps it (fields left empty left out). */
function filtersOf(f: BookingFilter, perPage: number): Record<string, unknown> {
  const { per_page: _listPageSize, withCustomFields: _notUsedByExports, ...asked } = f;
  return { ...Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== undefined)), per_page: perPage };
}

/** The one trip an export is of, when its filters name exactly one. */
function tripOf(f: BookingFilter): number | null {
  if (f.trip_id) return f.trip_id;
  return f.trips?.length === 1 ? f.trips[0]! : null;
}

const bookingsCount = (n: number) => `${n} booking${n === 1 ? '' : 's'}`;

export function exportFileName(ext: string, now = new Date()): string {
  return `bookings-${now.toISOString().slice(0, 10)}.${ext}`;
}

const DATE_COLUMNS = new Set<ExportColumn>([
  'date',
  'departure',
  'date_of_birth',
  'passport_expiry',
  'deposit_payment_date',
]);
const DATE_STYLE: Partial<ExcelJS.Style> = Object.freeze({ numFmt: 'dd/mm/yyyy' });
const PLAIN_STYLE: Partial<ExcelJS.Style> = Object.freeze({});

/** A real .xlsx, written as it is read: the reply starts before the last row is fetched. */
export function spreadsheet(
  db: Db,
  f: BookingFilter,
  perPage: number,
  columns: ExportColumn[],
  fundraising?: FundraisingSql,
): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Bookings');
  // one style object per column, given to each of its cells: ExcelJS otherwise makes every cell a
  // style object of its own and works out its style id afresh (most of the time of a large export)
  const styles = columns.map((key) => (DATE_COLUMNS.has(key) ? DATE_STYLE : PLAIN_STYLE));
  sheet.columns = columns.map((key, i) => {
    const def = EXPORT_COLUMNS.find((c) => c.key === key)!;
    return { header: def.label, key, width: Math.max(12, def.label.length + 2), style: styles[i]! };
  });
  (async () => {
    const ids = await idsOf(db, f, perPage, false, fundraising);
    // recorded before the first row leaves: an export cut short was still an export
    await audit(db, {
      action: 'export.bookings',
      subject: { type: 'booking_export', id: null },
      bookingId: null,
      tripId: tripOf(f),
      summary: `exported ${bookingsCount(ids.length)} to a spreadsheet`,
      details: { filters: filtersOf(f, perPage), columns, rows: ids.length, format: 'xls' },
    });
    const withFundraising = columns.some((c) => FUNDRAISING_COLUMNS.has(c)) ? fundraising : undefined;
    for await (const batch of batchesOf(ids, (batch) => rowsById(db, batch, withFundraising))) {
      for (const r of batch) {
        const row = sheet.addRow(
          columns.map((key) => {
            const v = value(r, key);
            return typeof v === 'string' ? escapeCell(v) : v;
          }),
        );
        for (let i = 0; i < columns.length; i++) row.getCell(i + 1).style = styles[i]!;
        row.commit();
      }
      await nextTurn();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

/** A stream that opens its source only when first read (the zip reads its entries one at a time). */
function openedWhenRead(open: () => Promise<Readable | null>): Readable {
  return Readable.from(
    (async function* () {
      const source = await open();
      if (!source) throw new Error('a passport image went missing while its zip was written');
      try {
        yield* source;
      } finally {
        // stopped early (the download broke off): let the store's connection go
        source.destroy();
      }
    })(),
    { objectMode: false },
  );
}

const safe = (s: string) => s.replace(/[^\w .'-]+/g, '_').trim();

/** The passport images of the listed bookings, one entry each, named by reference and traveller. */
export function passportZip(
  db: Db,
  files: FileStore,
  f: BookingFilter,
  perPage: number,
  fundraising?: FundraisingSql,
): Readable {
  const zip = new yazl.ZipFile();
  (async () => {
    // which images there are first (names and sizes only), so that the history records how many
    // leave before the first one does; each is opened only when the zip comes to it
    const entries: Array<{ file: string; bytes: number; name: string }> = [];
    const ids = await idsOf(db, f, perPage, true, fundraising);
    const read = (batch: number[]) =>
      db
        .select({
          id: bookings.id,
          ref: bookings.ref,
          firstName: bookings.firstName,
          lastName: bookings.lastName,
          passportImageFile: bookings.passportImageFile,
        })
        .from(bookings)
        .where(inArray(bookings.id, batch));
    for await (const batch of batchesOf(ids, read)) {
      // a few at a time: on S3 each is a request
      for (let i = 0; i < batch.length; i += 16) {
        const found = await Promise.all(
          batch.slice(i, i + 16).map(async (r) => ({ r, stat: await files.stat('passports', r.passportImageFile!) })),
        );
        for (const { r, stat } of found) {
          if (!stat) continue;
          entries.push({
            file: stat.name,
            bytes: stat.bytes,
            name: `${safe(`${r.ref} ${r.firstName} ${r.lastName}`)}${path.extname(stat.name)}`,
          });
        }
      }
    }
    await audit(db, {
      action: 'export.passport_images',
      subject: { type: 'booking_export', id: null },
      bookingId: null,
      tripId: tripOf(f),
      summary: `downloaded the passport images of ${bookingsCount(entries.length)}`,
      details: { filters: filtersOf(f, perPage), count: entries.length, format: 'passportZip' },
    });
    // stored, not deflated: passport scans are JPEG/PNG, already compressed
    const output = zip.outputStream as unknown as Readable;
    for (const e of entries) {
      const entry = openedWhenRead(() => files.open('passports', e.file));
      // yazl listens for no error of an entry's stream: one gone missing since it was listed, or
      // a store that stops answering, ends the download (cut short), never the process
      entry.on('error', (error) => output.destroy(error));
      zip.addReadStream(entry, e.name, { compress: false, size: e.bytes });
    }
    if (entries.length === 0)
      zip.addBuffer(Buffer.from('No booking in this list has a passport image.\n'), 'no-passport-images.txt');
    zip.end();
  })().catch((error: unknown) =>
    (zip.outputStream as unknown as Readable).destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return zip.outputStream as unknown as Readable;
}
