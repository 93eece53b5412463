import { sql, type SQL } from 'drizzle-orm';
import type { FundraisingState } from '../../../contract/fundraising-constants.ts';
import { bookings, trips } from '../../../db/schema/index.ts';
import type { FundraisingDefaults } from './service.ts';

/**
 * A booking's fundraising target, raised total and state in SQL (issue 19), for the booking
 * list's filter and the export: the same rule as rules.ts (met; behind when a milestone's day has
 * passed with less raised than it asks; else on track; not fundraising for other funding), on a
 * query that joins bookings to trips. `today` is the UK day the rule is read on.
 */
export function fundraisingSql(defaults: FundraisingDefaults, today: string) {
  const own = (column: string) =>
    sql.raw(`(select tf.${column} from trip_fundraising tf where tf.trip_id = bookings.trip_id and tf.funding_type = bookings.funding_type)`);
  const target = sql`coalesce(${bookings.fundraisingTargetPence}, ${own('minimum_pence')}, case ${bookings.fundingType} when 'fundraise' then ${defaults.minimumPence.fundraise}::int else ${defaults.minimumPence.flexi}::int end)`;
  const raised = sql`(select coalesce(sum(fe.amount_pence), 0) from fundraising_entries fe where fe.booking_id = ${bookings.id} and fe.struck_at is null)`;
  const milestones = sql`coalesce(${own('milestones')}, ${JSON.stringify(defaults.milestones)}::jsonb)`;
  const fundraises = sql`${bookings.fundingType} in ('fundraise', 'flexi')`;
  const behind = sql`exists (select 1 from jsonb_array_elements(${milestones}) m
    where ${trips.departureDate} - (m->>'weeks_before')::int * 7 < ${today}::date
      and ${raised} < ceil(${target}::numeric * (m->>'percent')::int / 100))`;
  const state = sql<FundraisingState>`case when not (${fundraises}) then 'not_fundraising' when ${raised} >= ${target} then 'met' when ${behind} then 'behind' else 'on_track' end`;
  return {
    target: sql<number | null>`case when ${fundraises} then ${target} end`,
    raised: sql<number | null>`case when ${fundraises} then ${raised} end`,
    state,
    /** the booking list's filter: on_track, behind or met */
    condition: (wanted: FundraisingState): SQL => (wanted === 'not_fundraising' ? sql`not (${fundraises})` : sql`(${fundraises} and ${state} = ${wanted})`),
  };
}
