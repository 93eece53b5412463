import { and, eq, isNull, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
import { ukToday } from '../../../contract/dates.ts';
import {
  PUPIL_COLUMNS,
  PUPIL_IMPORT_MAX_ROWS,
  pupilInputSchema,
  type PupilValues,
  type PupilsAdded,
} from '../../../contract/groups.ts';
import { queryRows, type Db, type Tx } from '../../../db/client.ts';
import { bookings, schoolGroups, trips } from '../../../db/schema/index.ts';
import { makeBookingRef } from '../../../shared/booking-ref.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import type { Operator } from '../../common/operator.ts';
import { portalUrlOf } from '../../common/portal-links.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';
import { sendOnce, type SendOutcome } from '../../mail/send-once.ts';
import { emailDate } from '../../mail/templates.ts';
import { detectDocument } from '../documents/service.ts';
import { placesOf } from '../online-booking/places.ts';
import { ScheduleService } from '../schedules/service.ts';
import { GroupInvoiceService } from './invoice.ts';
import { endUserFor, isNewBookingClash, namesOf } from '../users/end-user.ts';

export type PupilDeps = {
  db: Db;
  mailer: Mailer;
  operator: Operator;
  clock: Pick<Clock, 'now'>;
};

const pupilKey = (p: { first_name: string; last_name: string; date_of_birth: string }) =>
  `${p.first_name.trim().toLowerCase()}|${p.last_name.trim().toLowerCase()}|${p.date_of_birth}`;

/** A heading as the list may write it (First Name, first_name, Parent's e-mail): its letters only. */
const headingKey = (v: string) =>
  v
    .toLowerCase()
    .replace(/e-mail/g, 'email')
    .replace(/[^a-z]/g, '');

/** A cell's text, whatever ExcelJS read it as: a date is its day, a link its text, a formula its result. */
function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('text' in v) return cellText(v.text as ExcelJS.CellValue);
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    return '';
  }
  return String(v).trim();
}

/** The rows of a list: its first row names the columns; blank rows are left out. Row numbers are the sheet's. */
export async function readPupilList(
  bytes: Buffer,
  filename: string,
): Promise<Array<{ row: number; values: Record<string, string> }>> {
  const kind = await detectDocument(bytes, filename);
  if (!kind || (kind.ext !== 'xlsx' && kind.ext !== 'csv'))
    throw validationError({
      file: ['The list must be an Excel workbook (.xlsx) or a CSV file (.csv) saved as UTF-8.'],
    });
  const workbook = new ExcelJS.Workbook();
  let sheet: ExcelJS.Worksheet | undefined;
  try {
    if (kind.ext === 'xlsx') {
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      sheet = workbook.worksheets[0];
    } else {
      const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
      const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
      const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
      sheet = await workbook.csv.read(Readable.from([text]), {
        map: (v: string) => v,
        parserOptions: { delimiter, trim: true },
      } as never);
    }
  } catch {
    throw validationError({ file: ['The list could not be read: save it again as .xlsx or .csv and try again.'] });
  }
  if (!sheet || sheet.actualRowCount === 0) throw validationError({ file: ['The list is empty.'] });
  const header = sheet.getRow(1);
  const columns = new Map<string, number>();
  header.eachCell((cell, n) => columns.set(headingKey(cellText(cell.value)), n));
  const missing = PUPIL_COLUMNS.filter((c) => !columns.has(headingKey(c.heading)));
  if (missing.length)
    throw validationError({
      file: [
        `The list has no ${missing.map((c) => `“${c.heading}”`).join(', ')} column${missing.length === 1 ? '' : 's'}: its first row must name the columns ${PUPIL_COLUMNS.map((c) => c.heading).join(', ')}.`,
      ],
    });
  const rows: Array<{ row: number; values: Record<string, string> }> = [];
  // the rows that hold something (a sheet formatted to its millionth row is not read to the end)
  sheet.eachRow((row, n) => {
    if (n === 1 || rows.length > PUPIL_IMPORT_MAX_ROWS) return;
    const values = Object.fromEntries(
      PUPIL_COLUMNS.map((c) => [c.field, cellText(row.getCell(columns.get(headingKey(c.heading))!).value)]),
    );
    if (Object.values(values).some((v) => v !== '')) rows.push({ row: n, values });
  });
  if (rows.length > PUPIL_IMPORT_MAX_ROWS)
    throw validationError({
      file: [`A list can hold at most ${PUPIL_IMPORT_MAX_ROWS.toLocaleString('en-GB')} pupils.`],
    });
  if (!rows.length) throw validationError({ file: ['The list has no pupils: only its heading row.'] });
  return rows;
}

/**
 * A group leader's pupils (issue 37): each one a provisional booking in the group, on their
 * parent's account (found or made by the parent's email), with the parents' share of the trip's
 * plan as its schedule and the school's share (if any) on the group invoice; each parent is then emailed an invitation to their child's page.
 */
export class PupilService {
  private readonly schedules: ScheduleService;
  private readonly groupInvoices: GroupInvoiceService;

  constructor(private readonly d: PupilDeps) {
    this.schedules = new ScheduleService(d.db, d.clock);
    this.groupInvoices = new GroupInvoiceService(d);
  }

  /** POST /api/my/groups/{id}/pupils: one pupil. */
  async addOne(leaderId: number, groupId: number, pupil: PupilValues): Promise<PupilsAdded> {
    return this.add(leaderId, groupId, [{ row: null, pupil }]);
  }

  /**
   * POST /api/my/groups/{id}/pupils/import: a list, checked row by row. Any bad row, and nothing
   * is saved: the 422 names each row and what is wrong with it.
   */
  async importList(leaderId: number, groupId: number, bytes: Buffer, filename: string): Promise<PupilsAdded> {
    await this.groupOf(this.d.db, leaderId, groupId);
    const rows = await readPupilList(bytes, filename);
    const errors: Record<string, string[]> = {};
    const good: Array<{ row: number; pupil: PupilValues }> = [];
    const seen = new Map<string, number>();
    for (const { row, values } of rows) {
      const parsed = pupilInputSchema.safeParse(values);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          (errors[`rows.${row}.${String(issue.path[0] ?? 'row')}`] ??= []).push(issue.message);
        continue;
      }
      const key = pupilKey(parsed.data);
      const first = seen.get(key);
      if (first !== undefined) {
        (errors[`rows.${row}.first_name`] ??= []).push(`The same pupil as row ${first}.`);
        continue;
      }
      seen.set(key, row);
      good.push({ row, pupil: parsed.data });
    }
    // the rows' own errors are told with the group's (a pupil already in it) in one answer
    return this.add(leaderId, groupId, good, errors);
  }

  /** The leader's group, locked while pupils join it (two lists at once cannot pass its places). */
  private async groupOf(db: Db | Tx, leaderId: number, groupId: number, lock = false) {
    const q = db
      .select({
        id: schoolGroups.id,
        school: schoolGroups.school,
        places: schoolGroups.places,
        payer: schoolGroups.payer,
        schoolSharePence: schoolGroups.schoolSharePence,
        tripId: trips.id,
        tripName: trips.name,
        tripCostPence: trips.costPence,
        departure: trips.departureDate,
        tripStatus: trips.status,
      })
      .from(schoolGroups)
      .innerJoin(trips, eq(trips.id, schoolGroups.tripId))
      .where(and(eq(schoolGroups.id, groupId), eq(schoolGroups.leaderUserId, leaderId), isNull(trips.deletedAt)));
    const [group] = lock ? await q.for('update', { of: schoolGroups }) : await q;
    if (!group) throw notFound('Group not found');
    return group;
  }

  private async add(
    leaderId: number,
    groupId: number,
    pupils: Array<{ row: number | null; pupil: PupilValues }>,
    rowErrors: Record<string, string[]> = {},
  ): Promise<PupilsAdded> {
    for (let attempt = 0; ; attempt++) {
      try {
        const added = await this.d.db.transaction((tx) => this.insert(tx, leaderId, groupId, pupils, rowErrors));
        // each parent's invitation goes after the answer; the hourly job sends any left unsent
        void this.invite(added.added.map((a) => a.booking_id)).catch(() => undefined);
        return added;
      } catch (error) {
        if (attempt < 4 && isNewBookingClash(error)) continue;
        throw error;
      }
    }
  }

  private async insert(
    tx: Tx,
    leaderId: number,
    groupId: number,
    pupils: Array<{ row: number | null; pupil: PupilValues }>,
    rowErrors: Record<string, string[]>,
  ): Promise<PupilsAdded> {
    const group = await this.groupOf(tx, leaderId, groupId, true);
    const now = nowOf(this.d.clock);
    const today = ukToday(now);
    if (group.tripStatus !== 'open' || group.departure <= today)
      throw new HttpError(
        422,
        group.departure <= today
          ? `${group.tripName} has left: no more pupils can join it.`
          : `${group.tripName} is ${group.tripStatus}: ask the office before adding pupils.`,
      );
    const field = (row: number | null, name: string) => (row === null ? name : `rows.${row}.${name}`);
    const errors: Record<string, string[]> = structuredClone(rowErrors);
    for (const { row, pupil } of pupils) {
      if (pupil.date_of_birth >= today)
        (errors[field(row, 'date_of_birth')] ??= []).push('The date of birth must be in the past.');
    }
    const live = await tx
      .select({
        ref: bookings.ref,
        firstName: bookings.firstName,
        lastName: bookings.lastName,
        dateOfBirth: bookings.dateOfBirth,
      })
      .from(bookings)
      .where(and(eq(bookings.groupId, groupId), sql`${bookings.status} in ('provisional', 'confirmed')`));
    const already = new Map(
      live.map((b) => [
        pupilKey({ first_name: b.firstName, last_name: b.lastName, date_of_birth: b.dateOfBirth ?? '' }),
        b.ref,
      ]),
    );
    for (const { row, pupil } of pupils) {
      const ref = already.get(pupilKey(pupil));
      if (ref)
        (errors[field(row, 'first_name')] ??= []).push(
          `${pupil.first_name} ${pupil.last_name} is already in the group (booking ${ref}).`,
        );
    }
    if (Object.keys(errors).length) throw pupils[0]?.row === null ? validationError(errors) : listRefused(errors);
    if (!pupils.length) throw validationError({ file: ['The list has no pupils: only its heading row.'] });
    const left = group.places - live.length;
    if (pupils.length > left)
      throw new HttpError(
        422,
        left === 0
          ? `The group’s ${group.places} places are all taken: ask the office for more places.`
          : `The group has ${left} of its ${group.places} places left, and this adds ${pupils.length} pupils: ask the office for more places, or add fewer.`,
      );
    const trip = await placesOf(tx, group.tripId, now);
    if (trip.left !== null && pupils.length > trip.left)
      throw new HttpError(
        422,
        `${group.tripName} has ${trip.left} place${trip.left === 1 ? '' : 's'} left: ask the office before adding more pupils.`,
      );
    const added: PupilsAdded['added'] = [];
    for (const { pupil } of pupils) {
      const parent = await endUserFor(tx, { email: pupil.parent_email, ...namesOf(pupil.parent_name) });
      const [row] = await tx
        .insert(bookings)
        .values({
          ref: makeBookingRef(),
          tripId: group.tripId,
          userId: parent.id,
          groupId,
          status: 'provisional',
          source: 'group',
          firstName: pupil.first_name,
          lastName: pupil.last_name,
          dateOfBirth: pupil.date_of_birth,
          email: pupil.parent_email,
          nokName: pupil.parent_name,
          nokRelationship: 'Parent',
          nokEmail: pupil.parent_email,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: bookings.id, ref: bookings.ref });
      await audit(tx, {
        action: 'booking.created',
        subject: { type: 'booking', id: row!.id },
        bookingId: row!.id,
        tripId: group.tripId,
        summary: `added ${pupil.first_name} ${pupil.last_name} to the group of ${group.school} on ${group.tripName} (booking ${row!.ref})`,
        details: { ref: row!.ref, status: 'provisional', group_id: groupId, new_user: parent.created, source: 'group' },
      });
      await this.schedules.createFor(tx, { id: row!.id, tripId: group.tripId, bookedOn: today });
      // the school's share, a line of its group invoice
      await this.groupInvoices.raiseShareIn(
        tx,
        group,
        { name: group.tripName, costPence: group.tripCostPence, departureDate: group.departure },
        { bookingId: row!.id, name: `${pupil.first_name} ${pupil.last_name}` },
        leaderId,
      );
      added.push({ booking_id: row!.id, ref: row!.ref, name: `${pupil.first_name} ${pupil.last_name}` });
    }
    if (pupils.length > 1)
      await audit(tx, {
        action: 'group.pupils_imported',
        subject: { type: 'group', id: groupId },
        tripId: group.tripId,
        summary: `imported a list of ${pupils.length} pupils into the group of ${group.school} on ${group.tripName}`,
        details: { pupils: pupils.length, refs: added.map((a) => a.ref) },
      });
    const n = added.length;
    return {
      message:
        n === 1
          ? `${added[0]!.name} is in the group. We have emailed their parent an invitation to their page.`
          : `${n} pupils are in the group. We have emailed each parent an invitation to their child’s page.`,
      added,
    };
  }

  /** Each pupil's parent invited to their child's page, once (a failure is tried again a day later). */
  async invite(bookingIds: number[]): Promise<Record<SendOutcome, number>> {
    const counts: Record<SendOutcome, number> = { sent: 0, failed: 0, skipped: 0 };
    for (const id of bookingIds) counts[await this.inviteOne(id)] += 1;
    return counts;
  }

  private async inviteOne(bookingId: number): Promise<SendOutcome> {
    const [b] = await this.d.db
      .select({
        booking: {
          id: bookings.id,
          ref: bookings.ref,
          userId: bookings.userId,
          tripId: bookings.tripId,
          firstName: bookings.firstName,
          lastName: bookings.lastName,
          email: bookings.email,
          parent: bookings.nokName,
          invitedAt: bookings.parentInvitedAt,
          status: bookings.status,
        },
        group: { school: schoolGroups.school, leaderName: schoolGroups.leaderName },
        trip: { name: trips.name, departure: trips.departureDate, return: trips.returnDate },
      })
      .from(bookings)
      .innerJoin(schoolGroups, eq(schoolGroups.id, bookings.groupId))
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, bookingId));
    if (!b || b.booking.invitedAt || b.booking.status === 'cancelled') return 'skipped';
    const now = nowOf(this.d.clock);
    return sendOnce(this.d.db, this.d.mailer, {
      template: 'group_parent_invitation',
      context: {
        traveller: {
          title: null,
          first_name: b.booking.firstName,
          last_name: b.booking.lastName,
          preferred_name: null,
        },
        booking: { ref: b.booking.ref },
        trip: { name: b.trip.name, departure: emailDate(b.trip.departure), return: emailDate(b.trip.return) },
        group: { school: b.group.school, leader_name: b.group.leaderName },
        parent: { name: b.booking.parent ?? '' },
        portal: { url: portalUrlOf(b.booking, this.d.operator.portalLinks, now) },
        operator: { name: this.d.operator.name },
      },
      to: { name: b.booking.parent ?? b.booking.email, address: b.booking.email },
      about: { subject: { type: 'booking', id: b.booking.id }, bookingId: b.booking.id, tripId: b.booking.tripId },
      named: (subject) => `the invitation "${subject}" to ${b.booking.email}`,
      claim: async () => {
        const [claimed] = await this.d.db
          .update(bookings)
          .set({ parentInvitedAt: now })
          .where(and(eq(bookings.id, bookingId), isNull(bookings.parentInvitedAt)))
          .returning({ id: bookings.id });
        return claimed?.id;
      },
      settle: async (tx, id, failure) => {
        if (failure !== null)
          await tx
            .update(bookings)
            .set({ parentInvitedAt: null, parentInviteFailedAt: now })
            .where(eq(bookings.id, id));
      },
    });
  }

  /** The hourly job: invitations owed and not sent (the server stopped, or the mail server refused a day ago). */
  async inviteOwed(limit = 200): Promise<Record<SendOutcome, number>> {
    const now = nowOf(this.d.clock);
    const owed = await queryRows<{ id: number }>(
      this.d.db,
      sql`select id from bookings where group_id is not null and parent_invited_at is null
          and status in ('provisional', 'confirmed') and source = 'group'
          and created_at < ${new Date(now.getTime() - 10 * 60_000)}
          and (parent_invite_failed_at is null or parent_invite_failed_at < ${new Date(now.getTime() - 86_400_000)})
        order by id limit ${limit}`,
    );
    return this.invite(owed.map((r) => Number(r.id)));
  }
}

/** A list refused: each bad row named (in the list's order), nothing saved. */
function listRefused(errors: Record<string, string[]>): HttpError {
  const rowOf = (key: string) => Number(key.split('.')[1]);
  const sorted = Object.fromEntries(Object.entries(errors).sort(([a], [b]) => rowOf(a) - rowOf(b)));
  const rows = new Set(Object.keys(sorted).map(rowOf));
  const [key, messages] = Object.entries(sorted)[0]!;
  return new HttpError(
    422,
    `${rows.size === 1 ? '1 row of the list has' : `${rows.size} rows of the list have`} errors, so no pupil was added. Row ${rowOf(key)}: ${messages[0]}`,
    sorted,
  );
}
