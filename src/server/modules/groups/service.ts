import { asc, eq, sql } from 'drizzle-orm';
import { GROUPS_ONLY_SCHOOL, type Group, type GroupPayer, type GroupValues } from '../../../contract/groups.ts';
import { penceToPounds } from '../../../contract/money.ts';
import { queryRows, type Db, type Tx } from '../../../db/client.ts';
import { schoolGroups, trips } from '../../../db/schema/index.ts';
import { audit, describeChanges, diffObjects } from '../../audit/audit.ts';
import { HttpError, notFound } from '../../errors.ts';
import { endUserFor, namesOf } from '../users/end-user.ts';
import { ukToday } from '../../../contract/dates.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { ReadinessService } from '../readiness/service.ts';
import { ScheduleService } from '../schedules/service.ts';
import type { GroupInvoiceService } from './invoice.ts';
import { pupilMoney } from './money.ts';

type Row = typeof schoolGroups.$inferSelect;
type Standing = { pupils: number; paid: number; overdue: number; ready: number; consent_missing: number };

/** A group's own fields as the History records them: money in pounds. */
const fields = (g: Row): Record<string, unknown> => ({
  school: g.school,
  leader_name: g.leaderName,
  leader_email: g.leaderEmail,
  leader_phone: g.leaderPhone,
  places: g.places,
  payer: g.payer,
  school_share: g.schoolSharePence === null ? null : penceToPounds(g.schoolSharePence),
});

/**
 * School trips' groups (issue 37): a school, its group leader and its places, on a school trip.
 * The leader is an End User, found by their email or made; their own pages come later.
 */
export class GroupService {
  private readonly readiness: ReadinessService;
  private readonly schedules: ScheduleService;

  constructor(
    private readonly db: Db,
    fundraisingDefaults: FundraisingDefaults,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly groupInvoices: GroupInvoiceService,
  ) {
    this.readiness = new ReadinessService(db, fundraisingDefaults, clock);
    this.schedules = new ScheduleService(db, clock);
  }

  /** Each group's pupils, their money and readiness, from the trip's readiness board (one board per trip). */
  private async standing(tripId: number, groupIds: number[]): Promise<Map<number, Standing>> {
    const out = new Map<number, Standing>(
      groupIds.map((id) => [id, { pupils: 0, paid: 0, overdue: 0, ready: 0, consent_missing: 0 }]),
    );
    if (!groupIds.length) return out;
    const [money, board] = await Promise.all([
      pupilMoney(this.db, groupIds, ukToday(nowOf(this.clock))),
      this.readiness.forTrip(tripId),
    ]);
    const rows = new Map(board.rows.map((r) => [r.booking_id, r]));
    for (const m of money) {
      const s = out.get(m.group_id)!;
      const row = rows.get(m.id);
      s.pupils += 1;
      s.paid += m.paid;
      s.overdue += m.overdue;
      if (row?.ready) s.ready += 1;
      if (row && row.checks.consent.state !== 'green') s.consent_missing += 1;
    }
    return out;
  }

  private toGroup(g: Row, s: Standing): Group {
    return {
      id: g.id,
      trip_id: g.tripId,
      school: g.school,
      leader: { name: g.leaderName, email: g.leaderEmail, phone: g.leaderPhone, user_id: g.leaderUserId },
      places: g.places,
      payer: g.payer as GroupPayer,
      school_share: g.schoolSharePence === null ? null : penceToPounds(g.schoolSharePence),
      pupils: s.pupils,
      paid: penceToPounds(s.paid),
      overdue: penceToPounds(s.overdue),
      ready: s.ready,
      consent_missing: s.consent_missing,
      created_at: g.createdAt.toISOString(),
    };
  }

  /** The trip of a group: a school trip that is not deleted. */
  private async schoolTrip(db: Db | Tx, tripId: number) {
    const [trip] = await db
      .select({
        id: trips.id,
        name: trips.name,
        type: trips.type,
        deletedAt: trips.deletedAt,
        departure: trips.departureDate,
      })
      .from(trips)
      .where(eq(trips.id, tripId));
    if (!trip || trip.deletedAt) throw notFound('Trip not found.');
    if (trip.type !== 'school') throw new HttpError(422, GROUPS_ONLY_SCHOOL);
    return trip;
  }

  async list(tripId: number): Promise<Group[]> {
    const [trip] = await this.db
      .select({ id: trips.id, deletedAt: trips.deletedAt })
      .from(trips)
      .where(eq(trips.id, tripId));
    if (!trip || trip.deletedAt) throw notFound('Trip not found.');
    const rows = await this.db
      .select()
      .from(schoolGroups)
      .where(eq(schoolGroups.tripId, tripId))
      .orderBy(asc(schoolGroups.school), asc(schoolGroups.id));
    const standing = await this.standing(
      tripId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => this.toGroup(r, standing.get(r.id)!));
  }

  async get(id: number): Promise<Group> {
    const [row] = await this.db.select().from(schoolGroups).where(eq(schoolGroups.id, id));
    if (!row) throw notFound('Group not found.');
    return this.toGroup(row, (await this.standing(row.tripId, [id])).get(id)!);
  }

  async create(tripId: number, v: GroupValues): Promise<Group> {
    const id = await this.db.transaction(async (tx) => {
      const trip = await this.schoolTrip(tx, tripId);
      if (trip.departure <= ukToday(nowOf(this.clock)))
        throw new HttpError(422, `${trip.name} has left: a new group cannot join it.`);
      const leader = await endUserFor(tx, { email: v.leader_email, ...namesOf(v.leader_name) });
      const [row] = await tx
        .insert(schoolGroups)
        .values({
          tripId,
          school: v.school,
          leaderName: v.leader_name,
          leaderEmail: v.leader_email,
          leaderPhone: v.leader_phone,
          leaderUserId: leader.id,
          places: v.places,
          payer: v.payer,
          schoolSharePence: v.school_share,
        })
        .returning();
      await audit(tx, {
        action: 'group.created',
        subject: { type: 'group', id: row!.id },
        tripId,
        summary: `added the group of ${row!.school} (${row!.places} places, led by ${row!.leaderName}) to the trip ${trip.name}`,
        details: { ...fields(row!), leader_account_made: leader.created },
      });
      return row!.id;
    });
    return this.get(id);
  }

  async update(id: number, v: GroupValues, userId: number, o: { mayBill: boolean }): Promise<Group> {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(schoolGroups).where(eq(schoolGroups.id, id)).for('update');
      if (!before) throw notFound('Group not found.');
      const trip = await this.schoolTrip(tx, before.tripId);
      const [live] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from bookings where group_id = ${id} and status in ('provisional', 'confirmed')`,
      );
      if (v.places < Number(live?.n ?? 0))
        throw new HttpError(422, `The group has ${live!.n} pupils: it needs at least as many places.`);
      // a new leader's email is a new leader: their account, found or made
      const leaderUserId =
        v.leader_email.toLowerCase() === before.leaderEmail.toLowerCase()
          ? before.leaderUserId
          : (await endUserFor(tx, { email: v.leader_email, ...namesOf(v.leader_name) })).id;
      const [after] = await tx
        .update(schoolGroups)
        .set({
          school: v.school,
          leaderName: v.leader_name,
          leaderEmail: v.leader_email,
          leaderPhone: v.leader_phone,
          leaderUserId,
          places: v.places,
          payer: v.payer,
          schoolSharePence: v.school_share,
          updatedAt: new Date(),
        })
        .where(eq(schoolGroups.id, id))
        .returning();
      // who pays changed: the pupils' schedules and the school's shares are made again, while nothing is paid
      const repricing = before.payer !== after!.payer || before.schoolSharePence !== after!.schoolSharePence;
      if (repricing && Number(live?.n ?? 0) > 0 && !o.mayBill)
        throw new HttpError(
          403,
          'Changing who pays changes the pupils’ invoices and schedules: it needs the permission to change money.',
        );
      const repriced = repricing ? await this.groupInvoices.repriceIn(tx, after!, this.schedules, userId) : 0;
      const changes = diffObjects(fields(before), fields(after!));
      await audit(tx, {
        action: 'group.updated',
        subject: { type: 'group', id },
        tripId: before.tripId,
        changes,
        summary: describeChanges(changes, `the group of ${after!.school} on ${trip.name}`),
        ...(repriced ? { details: { pupils_repriced: repriced } } : {}),
      });
    });
    return this.get(id);
  }
}
