import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { FundraisingState, Milestone } from '../../../contract/fundraising-constants.ts';
import type { Db } from '../../../db/client.ts';
import { bookings, fundraisingDefaults } from '../../../db/schema/index.ts';
import type { FundraisingDefaults } from './service.ts';

/**
 * Writes the configuration's fundraising defaults where the database's rule reads them
 * (fundraising_defaults), when they differ from what is there: then every fundraising booking
 * on the defaults has its standing worked out again, in the same statement (a trigger). Called
 * when a server starts; a no-op when the configuration has not changed.
 */
export async function keepFundraisingDefaults(db: Db, d: FundraisingDefaults): Promise<boolean> {
  const milestones = d.milestones.map((m) => ({ percent: m.percent, weeks_before: m.weeks_before }));
  const changed = await db
    .insert(fundraisingDefaults)
    .values({
      id: 1,
      fundraiseMinimumPence: d.minimumPence.fundraise,
      flexiMinimumPence: d.minimumPence.flexi,
      milestones,
    })
    .onConflictDoUpdate({
      target: fundraisingDefaults.id,
      set: {
        fundraiseMinimumPence: sql`excluded.fundraise_minimum_pence`,
        flexiMinimumPence: sql`excluded.flexi_minimum_pence`,
        milestones: sql`excluded.milestones`,
      },
      setWhere: sql`(${fundraisingDefaults.fundraiseMinimumPence}, ${fundraisingDefaults.flexiMinimumPence}, ${fundraisingDefaults.milestones}) is distinct from (excluded.fundraise_minimum_pence, excluded.flexi_minimum_pence, excluded.milestones)`,
    })
    .returning({ id: fundraisingDefaults.id });
  return changed.length > 0;
}

/**
 * A booking's fundraising target, raised total and state in SQL, for the booking list's filter,
 * the export and the dashboard: the same rule as rules.ts (met; behind when a milestone's day
 * has passed with less raised than it asks; else on track; not fundraising for other funding),
 * read on `today`, the UK day.
 *
 * Cheap on every row of a large list (a million bookings): the database keeps each booking's
 * target in force, whether it is met and the first day it is behind (migration 0035, from its
 * entries, target, funding, trip, departure, the trip's rule and the configuration's defaults), so
 * the state is a comparison of the booking's own columns with today — columns the planner has
 * statistics for, so it can estimate how many bookings a state finds.
 */
export function fundraisingSql(today: string) {
  const fundraises = sql`${bookings.fundingType} in ('fundraise', 'flexi')`;
  const behind = sql`${bookings.fundraisingBehindFrom} <= ${today}::date`;
  const state = sql<FundraisingState>`case when not (${fundraises}) then 'not_fundraising' when ${bookings.fundraisingMet} then 'met' when ${behind} then 'behind' else 'on_track' end`;
  const live = sql`${bookings.status} <> 'cancelled'`;
  const conditions: Record<FundraisingState, SQL> = {
    not_fundraising: sql`not (${fundraises})`,
    // of live bookings: a cancelled traveller no longer fundraises, no one chases them
    met: sql`(${bookings.fundraisingMet} and ${live})`,
    // behind_from is null when not fundraising or met
    behind: sql`(${behind} and ${live})`,
    on_track: sql`(${fundraises} and ${live} and not ${bookings.fundraisingMet} and (${bookings.fundraisingBehindFrom} is null or ${bookings.fundraisingBehindFrom} > ${today}::date))`,
  };
  return {
    target: sql<number | null>`${bookings.fundraisingGoalPence}`,
    raised: sql<number | null>`case when ${fundraises} then ${bookings.fundraisingRaisedPence} end`,
    state,
    /** the booking list's filter: on_track, behind or met, of live bookings */
    condition: (wanted: FundraisingState): SQL => conditions[wanted],
  };
}
export type FundraisingSql = ReturnType<typeof fundraisingSql>;

/**
 * A charity's fundraisers: its provisional and confirmed bookings that fundraise. Written as the
 * condition of their index (bookings_charity_fundraisers_idx) reads, so that the planner sees the
 * index serves it.
 */
export function fundraiserOf(charityId: number): SQL {
  return and(
    eq(bookings.charityId, charityId),
    sql`${bookings.charityId} is not null and ${bookings.status} in ('provisional', 'confirmed') and ${bookings.fundingType} in ('fundraise', 'flexi')`,
  )!;
}

/**
 * What a milestone of `percent` (an integer SQL expression) asks of a booking: that share of its
 * target, rounded up to the penny, in whole numbers (numeric arithmetic took three times as long).
 */
export const asksOf = (percent: SQL): SQL => sql`((${bookings.fundraisingGoalPence}::bigint * ${percent} + 99) / 100)`;

/**
 * The shortfall of a booking behind, by the rule of rules.ts over these milestones, as one
 * expression of the booking's own columns (its departure, target in force and raised total): the
 * latest milestone passed (the day after its own) and not reached, less what is raised; null when
 * none is. Latest first: the fewest weeks before departure, and of two on one day the larger
 * share, as rules.ts takes the last of them. For the bookings on the office's defaults, whose
 * milestones are known before the query: summing it over a charity's 21,000 behind took 14 ms
 * (reading their index rows alone, 9) where reading each one's milestones from the database
 * took 42.
 */
export function shortfallOn(milestones: Milestone[], today: string): SQL {
  const latestFirst = [...milestones].sort((a, b) => a.weeks_before - b.weeks_before || b.percent - a.percent);
  if (!latestFirst.length) return sql`null::numeric`;
  const asks = (m: Milestone) => asksOf(sql`${m.percent}::int`);
  const whens = latestFirst.map(
    (m) =>
      sql`when ${bookings.tripDeparture} - ${7 * m.weeks_before}::int < ${today}::date and ${bookings.fundraisingRaisedPence} < ${asks(m)} then ${asks(m)} - ${bookings.fundraisingRaisedPence}`,
  );
  return sql`(case ${sql.join(whens, sql` `)} end)`;
}
