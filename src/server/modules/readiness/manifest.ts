import { PassThrough, type Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { toDdMmYyyy } from '../../../contract/dates.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { audit } from '../../audit/audit.ts';
import { HttpError } from '../../errors.ts';
import { escapeCell } from '../../common/spreadsheet.ts';
import { manifestPdf } from './manifest-pdf.ts';
import { sharersMatch } from './rules.ts';

export const MANIFEST_KINDS = ['manifest', 'rooming', 'contacts'] as const;
export type ManifestKind = (typeof MANIFEST_KINDS)[number];
const TITLES: Record<ManifestKind, string> = {
  manifest: 'Manifest',
  rooming: 'Rooming list',
  contacts: 'Emergency contacts',
};

type Traveller = {
  id: number;
  ref: string;
  status: string;
  first_name: string;
  last_name: string;
  date_of_birth: string | Date | null;
  gender: string | null;
  mobile: string | null;
  email: string;
  passport_number: string | null;
  passport_expiry: string | Date | null;
  dietary: string | null;
  medical_conditions: boolean;
  medical_detail: string | null;
  medication: string | null;
  nok_name: string | null;
  nok_relationship: string | null;
  nok_telephone: string | null;
  nok_email: string | null;
  room_type: string | null;
  room_ref: string | null;
  share_with: string | null;
};

const day = (v: string | Date | null) =>
  v === null ? null : new Date(`${(typeof v === 'string' ? v : v.toISOString()).slice(0, 10)}T00:00:00Z`);
const text = (v: string | null | undefined) => (v ? escapeCell(v) : null);

/** A sheet's columns and each traveller's (or room's) row. */
function sheetOf(
  kind: ManifestKind,
  travellers: Traveller[],
): { columns: Array<{ header: string; width: number; date?: true }>; rows: unknown[][] } {
  const name = (t: Traveller) => `${t.first_name} ${t.last_name}`;
  if (kind === 'manifest') {
    return {
      columns: [
        { header: 'Traveller', width: 24 },
        { header: 'Booking', width: 12 },
        { header: 'Status', width: 12 },
        { header: 'Date of birth', width: 13, date: true },
        { header: 'Gender', width: 9 },
        { header: 'Passport number', width: 16 },
        { header: 'Passport expiry', width: 15, date: true },
        { header: 'Dietary', width: 20 },
        { header: 'Medical', width: 32 },
        { header: 'Next of kin', width: 30 },
        { header: 'Room', width: 24 },
      ],
      rows: travellers.map((t) => [
        text(name(t)),
        t.ref,
        t.status,
        day(t.date_of_birth),
        t.gender,
        text(t.passport_number),
        day(t.passport_expiry),
        text(t.dietary),
        text(
          t.medical_conditions
            ? [t.medical_detail, t.medication && `Medication: ${t.medication}`].filter(Boolean).join('. ') ||
                'Conditions declared, no detail'
            : 'None declared',
        ),
        text(
          [t.nok_name, t.nok_relationship && `(${t.nok_relationship})`, t.nok_telephone].filter(Boolean).join(' ') ||
            null,
        ),
        text(
          [t.room_type, t.room_ref && `ref ${t.room_ref}`, t.share_with && `with ${t.share_with}`]
            .filter(Boolean)
            .join(', ') || null,
        ),
      ]),
    };
  }
  if (kind === 'contacts') {
    return {
      columns: [
        { header: 'Traveller', width: 24 },
        { header: 'Mobile', width: 16 },
        { header: 'Email', width: 30 },
        { header: 'Next of kin', width: 22 },
        { header: 'Relationship', width: 14 },
        { header: 'Next of kin telephone', width: 20 },
        { header: 'Next of kin email', width: 30 },
      ],
      rows: travellers.map((t) => [
        text(name(t)),
        text(t.mobile),
        text(t.email),
        text(t.nok_name),
        text(t.nok_relationship),
        text(t.nok_telephone),
        text(t.nok_email),
      ]),
    };
  }
  // rooming: by room reference (then type), each traveller with whom they share; a sharer who is
  // not on the trip, or who does not name them back, is flagged
  const sharers = sharersMatch(travellers);
  const sorted = [...travellers].sort(
    (a, b) =>
      (a.room_ref ?? '\uffff').localeCompare(b.room_ref ?? '\uffff') ||
      (a.room_type ?? '').localeCompare(b.room_type ?? '') ||
      a.last_name.localeCompare(b.last_name),
  );
  return {
    columns: [
      { header: 'Room ref', width: 10 },
      { header: 'Room type', width: 14 },
      { header: 'Traveller', width: 24 },
      { header: 'Sharing with', width: 24 },
      { header: 'Check', width: 44 },
    ],
    rows: sorted.map((t) => {
      const flag =
        !t.share_with || !t.share_with.trim()
          ? t.room_type
            ? null
            : 'No room type'
          : sharers.get(t.id) === null
            ? 'Unmatched: not a traveller on this trip'
            : sharers.get(t.id) === false
              ? 'Unmatched: does not name this traveller back'
              : null;
      return [text(t.room_ref), text(t.room_type), text(name(t)), text(t.share_with), flag];
    }),
  };
}

export const MANIFEST_FORMATS = ['xlsx', 'pdf'] as const;
export type ManifestFormat = (typeof MANIFEST_FORMATS)[number];

// dd/mm/yyyy, as in the table
const shortDay = (v: string | Date) => toDdMmYyyy(typeof v === 'string' ? v : v.toISOString());

/**
 * A trip's manifest, rooming list or emergency contacts as an .xlsx or a PDF, of its
 * confirmed bookings (provisional ones too when asked; cancelled never). Recorded in the history,
 * naming who took it, before the first row leaves.
 */
export async function manifestDownload(
  db: Db,
  tripId: number,
  kind: ManifestKind,
  withProvisional: boolean,
  format: ManifestFormat,
  today: string,
): Promise<{ name: string; type: string; body: Readable | Buffer }> {
  const [trip] = await queryRows<{
    id: number;
    name: string;
    departure_date: string | Date;
    return_date: string | Date;
  }>(db, sql`select id, name, departure_date, return_date from trips where id = ${tripId} and deleted_at is null`);
  if (!trip) throw new HttpError(404, 'Trip not found');
  const statuses = withProvisional ? sql`('confirmed', 'provisional')` : sql`('confirmed')`;
  const travellers = await queryRows<Traveller>(
    db,
    sql`select id, ref, status, first_name, last_name, date_of_birth, gender, mobile, email, passport_number, passport_expiry_date as passport_expiry, dietary, medical_conditions,
        medical_detail, medication, nok_name, nok_relationship, nok_telephone, nok_email, room_type, room_ref, share_with
      from bookings where trip_id = ${tripId} and status in ${statuses} order by lower(last_name), lower(first_name), id`,
  );
  await audit(db, {
    action: 'export.manifest',
    subject: { type: 'trip', id: tripId },
    tripId,
    summary: `downloaded the ${TITLES[kind].toLowerCase()} of ${trip.name} (${travellers.length} traveller${travellers.length === 1 ? '' : 's'})`,
    details: { kind, format, rows: travellers.length, provisional: withProvisional },
  });
  const { columns, rows } = sheetOf(kind, travellers);
  // a name with no Latin letters or digits (東京) still gives a file name
  const slug =
    trip.name
      .replace(/[^\w]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || `trip-${trip.id}`;
  if (format === 'pdf') {
    const who = withProvisional ? 'confirmed and provisional bookings' : 'confirmed bookings';
    const body = await manifestPdf(
      {
        title: `${TITLES[kind]} — ${trip.name}`,
        subtitle: `${shortDay(trip.departure_date)} – ${shortDay(trip.return_date)}. ${travellers.length} traveller${travellers.length === 1 ? '' : 's'} (${who}).`,
        columns,
        rows,
        empty: 'No travellers.',
      },
      shortDay(today),
    );
    return { name: `${kind}-${slug}.pdf`, type: 'application/pdf', body };
  }
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(TITLES[kind]);
  sheet.columns = columns.map((c) => ({
    header: c.header,
    width: c.width,
    style: c.date ? { numFmt: 'dd/mm/yyyy' } : {},
  }));
  (async () => {
    for (const values of rows) {
      const row = sheet.addRow(values);
      columns.forEach((c, i) => c.date && (row.getCell(i + 1).numFmt = 'dd/mm/yyyy'));
      row.commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return {
    name: `${kind}-${slug}.xlsx`,
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: out,
  };
}
