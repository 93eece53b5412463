import { sql, type SQL } from 'drizzle-orm';
import type { FundraisingState, Milestone } from '../../../contract/fundraising-constants.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { bookings, trips } from '../../../db/schema/index.ts';
import { milestoneDate } from './rules.ts';
import type { FundraisingDefaults } from './service.ts';

/** The highest percentage of the target asked for by a milestone whose day is before `today` (0 when none has passed): behind means less than that raised. */
const passedPercent = (milestones: Milestone[], departure: string, today: string) =>
  Math.max(0, ...milestones.filter((m) => milestoneDate(departure, m) < today).map((m) => m.percent));

/**
 * A booking's fundraising target, raised total and state in SQL, for the booking
 * list's filter and the export, on a query that joins bookings to trips: the same rule as
 * rules.ts (met; behind when a milestone's day has passed with less raised than it asks; else on
 * track; not fundraising for other funding). `today` is the UK day the rule is read on.
 *
 * Built to be cheap on every row of a large list (a million bookings): the raised total is the
 * booking's own column (kept by a trigger on the entries), and what each trip asks for by today
 * is worked out here first — for the few trips with rules of their own, passed in as arrays; for
 * the rest, the office's default milestones as a CASE on the departure date — so no row runs a
 * subquery.
 */
export async function fundraisingSql(db: Db, defaults: FundraisingDefaults, today: string) {
  const own = await queryRows<{
    trip_id: number;
    funding_type: string;
    minimum_pence: number;
    milestones: Milestone[];
    departure: string | Date;
  }>(
    db,
    sql`select tf.trip_id, tf.funding_type, tf.minimum_pence, tf.milestones, t.departure_date as departure from trip_fundraising tf join trips t on t.id = tf.trip_id`,
  );
  const iso = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
  const list = (values: Array<string | number>) => `{${values.join(',')}}`;
  const slot = sql`array_position(${list(own.map((r) => `${r.trip_id}:${r.funding_type}`))}::text[], ${bookings.tripId}::text || ':' || ${bookings.fundingType})`;
  const ownMinimum = sql`(${list(own.map((r) => Number(r.minimum_pence)))}::bigint[])[${slot}]`;
  const ownPercent = sql`(${list(own.map((r) => passedPercent(r.milestones, iso(r.departure), today)))}::int[])[${slot}]`;
  // the defaults: the nearest milestone to departure first, so the first day passed gives the highest percentage passed
  const byDay = [...defaults.milestones].sort((a, b) => a.weeks_before - b.weeks_before || b.percent - a.percent);
  const defaultPercent = byDay.length
    ? sql`case ${sql.join(
        byDay.map(
          (m) =>
            sql`when ${trips.departureDate} - ${7 * m.weeks_before}::int < ${today}::date then ${Math.max(0, ...defaults.milestones.filter((o) => o.weeks_before >= m.weeks_before).map((o) => o.percent))}::int`,
        ),
        sql` `,
      )} else 0 end`
    : sql`0`;
  const defaultMinimum = sql`case ${bookings.fundingType} when 'fundraise' then ${defaults.minimumPence.fundraise}::bigint else ${defaults.minimumPence.flexi}::bigint end`;
  const target = sql`coalesce(${bookings.fundraisingTargetPence}::bigint, ${ownMinimum}, ${defaultMinimum})`;
  const raised = sql`${bookings.fundraisingRaisedPence}`;
  const percent = sql`coalesce(${ownPercent}, ${defaultPercent})`;
  const fundraises = sql`${bookings.fundingType} in ('fundraise', 'flexi')`;
  const behind = sql`${raised} < ceil(${target}::numeric * ${percent} / 100)`;
  const state = sql<FundraisingState>`case when not (${fundraises}) then 'not_fundraising' when ${raised} >= ${target} then 'met' when ${behind} then 'behind' else 'on_track' end`;
  return {
    target: sql<number | null>`case when ${fundraises} then ${target} end`,
    raised: sql<number | null>`case when ${fundraises} then ${raised} end`,
    state,
    /** the booking list's filter: on_track, behind or met, of live bookings (a cancelled traveller no longer fundraises: no one chases them) */
    condition: (wanted: FundraisingState): SQL =>
      wanted === 'not_fundraising'
        ? sql`not (${fundraises})`
        : sql`(${fundraises} and ${bookings.status} <> 'cancelled' and ${state} = ${wanted})`,
  };
}
export type FundraisingSql = Awaited<ReturnType<typeof fundraisingSql>>;
