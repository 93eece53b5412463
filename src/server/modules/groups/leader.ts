import { and, eq, isNull, sql } from 'drizzle-orm';
import { ukToday } from '../../../contract/dates.ts';
import type { LeaderGroup, LeaderGroups } from '../../../contract/groups.ts';
import { penceToPounds } from '../../../contract/money.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { schoolGroups, trips } from '../../../db/schema/index.ts';
import { nowOf, type Clock } from '../../clock.ts';
import { notFound } from '../../errors.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { underAgeOnDeparture } from '../readiness/rules.ts';
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
        trip: { name: trips.name, departure: trips.departureDate, return: trips.returnDate },
      })
      .from(schoolGroups)
      .innerJoin(trips, eq(trips.id, schoolGroups.tripId))
      .where(and(eq(schoolGroups.id, groupId), eq(schoolGroups.leaderUserId, userId), isNull(trips.deletedAt)));
    if (!g) throw notFound('Group not found');
    const today = ukToday(nowOf(this.clock));
    const [board, money] = await Promise.all([
      this.readiness.forTrip(g.group.tripId),
      queryRows<{
        id: number;
        paid: string | number;
        overdue: string | number;
        date_of_birth: string | Date | null;
        consent_given_at: string | Date | null;
        consent_withdrawn_at: string | Date | null;
      }>(
        this.db,
        sql`select b.id, b.date_of_birth, b.consent_given_at, b.consent_withdrawn_at,
            (select coalesce(sum(case when t.type = 'payment' then t.amount_pence else -t.amount_pence end), 0)
              from transactions t where t.booking_id = b.id and t.deleted_at is null) as paid,
            (select coalesce(sum(m.outstanding_pence), 0) from money_owed m
              where m.booking_id = b.id and m.due_date < ${today}::date) as overdue
          from bookings b where b.group_id = ${groupId} and b.status in ('provisional', 'confirmed')`,
      ),
    ]);
    const moneyOf = new Map(money.map((m) => [Number(m.id), m]));
    const pupils = board.rows
      .filter((r) => moneyOf.has(r.booking_id))
      .map((r) => {
        const m = moneyOf.get(r.booking_id)!;
        return {
          booking_id: r.booking_id,
          ref: r.booking_ref,
          name: r.traveller,
          status: r.status as 'provisional' | 'confirmed',
          paid: penceToPounds(Number(m.paid)),
          overdue: penceToPounds(Number(m.overdue)),
          consent: !underAgeOnDeparture(m.date_of_birth === null ? null : day(m.date_of_birth), g.trip.departure)
            ? ('not_needed' as const)
            : m.consent_withdrawn_at
              ? ('withdrawn' as const)
              : m.consent_given_at
                ? ('given' as const)
                : ('missing' as const),
          form_complete: r.checks.forms.state === 'green',
          medical_given: r.checks.medical.state === 'green',
          ready: r.ready,
        };
      });
    return {
      id: g.group.id,
      school: g.group.school,
      trip: { id: g.group.tripId, name: g.trip.name, departure: g.trip.departure, return: g.trip.return },
      places: g.group.places,
      payer: g.group.payer as LeaderGroup['payer'],
      pupils,
      summary: {
        pupils: pupils.length,
        ready: pupils.filter((p) => p.ready).length,
        consent_missing: pupils.filter((p) => p.consent === 'missing' || p.consent === 'withdrawn').length,
        overdue: pupils.filter((p) => p.overdue > 0).length,
      },
    };
  }
}

const day = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
