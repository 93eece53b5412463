import { existsSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { and, eq, isNotNull } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import yazl from 'yazl';
import type { ExportColumn } from '../../../contract/bookings.ts';
import { EXPORT_COLUMNS, type BookingFilter } from '../../../contract/bookings.ts';
import type { Db } from '../../../db/client.ts';
import { filesDir } from '../../../db/files.ts';
import { bookings, trips } from '../../../db/schema/index.ts';
import { ageOnDeparture, bookingConditions, bookingOrder, passportState } from './list.ts';

const BATCH = 1000;

type Row = typeof bookings.$inferSelect & { tripName: string; departure: string; passport: string; age: number | null };

/** A spreadsheet program runs a cell that starts with one of these as a formula: such text is written with a leading apostrophe. */
export function escapeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const asDate = (iso: string | null) => (iso ? new Date(`${iso.slice(0, 10)}T00:00:00Z`) : null);

function value(r: Row, key: ExportColumn): string | number | Date | null {
  switch (key) {
    case 'date': return r.createdAt;
    case 'id': return r.id;
    case 'ref': return r.ref;
    case 'status': return r.status;
    case 'trip_name': return r.tripName;
    case 'departure': return asDate(r.departure);
    case 'title': return r.title;
    case 'first_name': return r.firstName;
    case 'last_name': return r.lastName;
    case 'preferred_name': return r.preferredName;
    case 'email': return r.email;
    case 'mobile': return r.mobile;
    case 'address': return [r.address1, r.address2, r.address3, r.address4].filter(Boolean).join(', ') || null;
    case 'post_code': return r.postCode;
    case 'date_of_birth': return asDate(r.dateOfBirth);
    case 'age': return r.age === null ? null : Number(r.age);
    case 'gender': return r.gender;
    case 'passport_number': return r.passportNumber;
    case 'passport_expiry': return asDate(r.passportExpiryDate);
    case 'passport_valid': return r.passport;
    case 'room_type': return r.roomType;
    case 'room_ref': return r.roomRef;
    case 'share_with': return r.shareWith;
    case 'funding_type': return r.fundingType;
    case 'deposit_payment_date': return asDate(r.depositPaymentDate);
    case 'dietary': return r.dietary;
    case 'medical_conditions': return r.medicalConditions ? 'Yes' : 'No';
    case 'medication': return r.medication;
    case 'medical_detail': return r.medicalDetail;
    case 'insurance_company': return r.insuranceCompany;
    case 'insurance_policy_number': return r.insurancePolicyNumber;
    case 'nok_name': return r.nokName;
    case 'nok_relationship': return r.nokRelationship;
    case 'nok_telephone': return r.nokTelephone;
    case 'referred_by': return r.referredBy;
  }
}

/**
 * The bookings the list would show, in its order, read in batches so that
 * memory stays flat however many there are.
 */
async function* rowsOf(db: Db, f: BookingFilter, perPage: number, onlyWithImages = false): AsyncGenerator<Row[]> {
  const where = and(bookingConditions(f), onlyWithImages ? isNotNull(bookings.passportImageFile) : undefined);
  const start = (f.page - 1) * perPage;
  for (let done = 0; done < perPage; done += BATCH) {
    const rows = await db
      .select({ b: bookings, tripName: trips.name, departure: trips.departureDate, passport: passportState, age: ageOnDeparture })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(where)
      .orderBy(...bookingOrder(f))
      .limit(Math.min(BATCH, perPage - done))
      .offset(start + done);
    if (!rows.length) return;
    yield rows.map(({ b, ...r }) => ({ ...b, ...r }));
    if (rows.length < BATCH) return;
  }
}

export function exportFileName(ext: string, now = new Date()): string {
  return `bookings-${now.toISOString().slice(0, 10)}.${ext}`;
}

/** A real .xlsx, written as it is read: the reply starts before the last row is fetched. */
export function spreadsheet(db: Db, f: BookingFilter, perPage: number, columns: ExportColumn[]): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Bookings');
  sheet.columns = columns.map((key) => {
    const def = EXPORT_COLUMNS.find((c) => c.key === key)!;
    const isDate = ['date', 'departure', 'date_of_birth', 'passport_expiry', 'deposit_payment_date'].includes(key);
    return { header: def.label, key, width: Math.max(12, def.label.length + 2), style: isDate ? { numFmt: 'dd/mm/yyyy' } : {} };
  });
  (async () => {
    for await (const batch of rowsOf(db, f, perPage)) {
      for (const r of batch) {
        sheet.addRow(columns.map((key) => {
          const v = value(r, key);
          return typeof v === 'string' ? escapeCell(v) : v;
        })).commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

const safe = (s: string) => s.replace(/[^\w .'-]+/g, '_').trim();

/** The passport images of the listed bookings, one entry each, named by reference and traveller. */
export function passportZip(db: Db, dataDir: string, f: BookingFilter, perPage: number): Readable {
  const zip = new yazl.ZipFile();
  (async () => {
    let added = 0;
    const dir = filesDir(dataDir, 'passports');
    for await (const batch of rowsOf(db, f, perPage, true)) {
      for (const r of batch) {
        const file = path.join(dir, path.basename(r.passportImageFile!));
        if (!existsSync(file)) continue;
        zip.addFile(file, `${safe(`${r.ref} ${r.firstName} ${r.lastName}`)}${path.extname(file)}`);
        added += 1;
      }
    }
    if (added === 0) zip.addBuffer(Buffer.from('No booking in this list has a passport image.\n'), 'no-passport-images.txt');
    zip.end();
  })().catch((error: unknown) => (zip.outputStream as unknown as Readable).destroy(error instanceof Error ? error : new Error(String(error))));
  return zip.outputStream as unknown as Readable;
}
