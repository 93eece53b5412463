import { and, eq, isNull, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { ukToday } from '../../../contract/dates.ts';
import type { LeaderGroup, LeaderGroups } from '../../../contract/groups.ts';
import { penceToPounds } from '../../../contract/money.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { schoolGroups, trips } from '../../../db/schema/index.ts';
import { nowOf, type Clock } from '../../clock.ts';
import { audit } from '../../audit/audit.ts';
import type { PayLinkSettings } from '../../common/pay-links.ts';
import { escapeCell } from '../../common/spreadsheet.ts';
import { notFound } from '../../errors.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { underAgeOnDeparture } from '../readiness/rules.ts';
import { groupInvoiceOf } from './invoice.ts';
import { pupilMoney } from './money.ts';
import { ReadinessService } from '../readiness/service.ts';

/**
 * A group leader's own view of their groups (issue 37): who is in it, what each has paid and
 * owes, consent, form and readiness, from the same checks as the office's board. A group they do
 * not lead is not found, as one that does not exist.
 */
export class LeaderService {
  private readonly readiness: ReadinessService;

  constructor(
    private readonly db: Db,
    fundraisingDefaults: FundraisingDefaults,
    private readonly clock: Pick<Clock, 'now'>,
    /** the school's pay link is shown when card payments are set up */
    private readonly payLinks?: PayLinkSettings,
  ) {
    this.readiness = new ReadinessService(db, fundraisingDefaults, clock);
  }

  async groups(userId: number): Promise<LeaderGroups> {
    const rows = await queryRows<{
      id: number;
      school: string;
      trip_id: number;
      trip_name: string;
      departure: string | Date;
      places: number;
      pupils: number;
    }>(
      this.db,
      sql`select g.id, g.school, t.id as trip_id, t.name as trip_name, t.departure_date as departure, g.places,
          (select count(*)::int from bookings b where b.group_id = g.id and b.status in ('provisional', 'confirmed')) as pupils
        from school_groups g join trips t on t.id = g.trip_id
        where g.leader_user_id = ${userId} and t.deleted_at is null
        order by t.departure_date, g.school, g.id`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      school: r.school,
      trip: { id: Number(r.trip_id), name: r.trip_name, departure: day(r.departure) },
      places: Number(r.places),
      pupils: Number(r.pupils),
    }));
  }

  async group(userId: number, groupId: number): Promise<LeaderGroup> {
    const [g] = await this.db
      .select({
        group: schoolGroups,
        trip: { name: trips.name, departure: trips.departureDate, return: trips.returnDate, status: trips.status },
      })
      .from(schoolGroups)
      .innerJoin(trips, eq(trips.id, schoolGroups.tripId))
      .where(and(eq(schoolGroups.id, groupId), eq(schoolGroups.leaderUserId, userId), isNull(trips.deletedAt)));
    if (!g) throw notFound('Group not found');
    const today = ukToday(nowOf(this.clock));
    const [board, money] = await Promise.all([
      this.readiness.forTrip(g.group.tripId),
      pupilMoney(this.db, [groupId], today),
    ]);
    const moneyOf = new Map(money.map((m) => [m.id, m]));
    const pupils = board.rows
      .filter((r) => moneyOf.has(r.booking_id))
      .map((r) => {
        const m = moneyOf.get(r.booking_id)!;
        return {
          booking_id: r.booking_id,
          ref: r.booking_ref,
          name: r.traveller,
          status: r.status as 'provisional' | 'confirmed',
          paid: penceToPounds(m.paid),
          overdue: penceToPounds(m.overdue),
          consent: !underAgeOnDeparture(m.date_of_birth === null ? null : day(m.date_of_birth), g.trip.departure)
            ? ('not_needed' as const)
            : m.consent_withdrawn_at
              ? ('withdrawn' as const)
              : m.consent_given_at
                ? ('given' as const)
                : ('missing' as const),
          form_complete: r.checks.forms.state === 'green',
          // the medical check is green when nothing is declared: given only once the form is answered
          medical_given: r.checks.forms.state === 'green' && r.checks.medical.state === 'green',
          ready: r.ready,
          parent_invited: m.parent_invited_at !== null,
        };
      });
    return {
      id: g.group.id,
      school: g.group.school,
      trip: { id: g.group.tripId, name: g.trip.name, departure: g.trip.departure, return: g.trip.return },
      places: g.group.places,
      payer: g.group.payer as LeaderGroup['payer'],
      adding_open: g.trip.status === 'open' && g.trip.departure > today,
      pupils,
      summary: {
        pupils: pupils.length,
        ready: pupils.filter((p) => p.ready).length,
        consent_missing: pupils.filter((p) => p.consent === 'missing' || p.consent === 'withdrawn').length,
        overdue: pupils.filter((p) => p.overdue > 0).length,
      },
      invoice: await groupInvoiceOf(this.db, groupId, {
        pdfUrl: `/api/my/groups/${groupId}/invoice/pdf`,
        pay: { settings: this.payLinks, now: nowOf(this.clock) },
      }),
    };
  }
}

const CONSENT_TEXT: Record<LeaderGroup['pupils'][number]['consent'], string> = {
  given: 'Given',
  missing: 'Not yet',
  withdrawn: 'Withdrawn',
  not_needed: 'Not needed (18 or over)',
};
const yes = (v: boolean) => (v ? 'Yes' : 'No');

/**
 * The leader's group list as an .xlsx: each pupil's booking, parent, money, consent, form and
 * readiness; a tick for the medical information, never its detail. Recorded in the History.
 */
export async function groupListXlsx(
  db: Db,
  leader: LeaderService,
  userId: number,
  groupId: number,
): Promise<{ name: string; body: Buffer }> {
  const group = await leader.group(userId, groupId);
  const parents = new Map(
    (
      await queryRows<{ id: number; date_of_birth: string | Date | null; nok_name: string | null; email: string }>(
        db,
        sql`select id, date_of_birth, nok_name, email from bookings where group_id = ${groupId}`,
      )
    ).map((r) => [Number(r.id), r]),
  );
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Pupils');
  sheet.columns = [
    { header: 'Pupil', width: 24 },
    { header: 'Booking', width: 12 },
    { header: 'Status', width: 12 },
    { header: 'Date of birth', width: 13, style: { numFmt: 'dd/mm/yyyy' } },
    { header: 'Parent', width: 22 },
    { header: 'Parent’s email', width: 30 },
    { header: 'Paid (£)', width: 10, style: { numFmt: '#,##0.00' } },
    { header: 'Overdue (£)', width: 11, style: { numFmt: '#,##0.00' } },
    { header: 'Consent', width: 22 },
    { header: 'Form complete', width: 14 },
    { header: 'Medical information given', width: 24 },
    { header: 'Ready', width: 8 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const p of group.pupils) {
    const b = parents.get(p.booking_id);
    sheet.addRow([
      escapeCell(p.name),
      p.ref,
      p.status,
      b?.date_of_birth ? new Date(`${day(b.date_of_birth)}T00:00:00Z`) : null,
      b?.nok_name ? escapeCell(b.nok_name) : null,
      b ? escapeCell(b.email) : null,
      p.paid,
      p.overdue,
      CONSENT_TEXT[p.consent],
      yes(p.form_complete),
      yes(p.medical_given),
      yes(p.ready),
    ]);
  }
  await audit(db, {
    action: 'export.group_list',
    subject: { type: 'group', id: groupId },
    tripId: group.trip.id,
    summary: `downloaded the list of the group of ${group.school} (${group.pupils.length} pupil${group.pupils.length === 1 ? '' : 's'})`,
    details: { rows: group.pupils.length, format: 'xlsx' },
  });
  const slug =
    group.school
      .replace(/[^\w]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || `group-${groupId}`;
  return { name: `pupils-${slug}.xlsx`, body: Buffer.from(await workbook.xlsx.writeBuffer()) };
}

const day = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
