import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../../db/client.ts';
import { fundraisingSql } from '../fundraising/sql.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import type { ReadinessService } from '../readiness/service.ts';

/** The advisory lock class that trip_counts_stale (migration 0025) takes shared, per trip id modulo BUCKETS. */
const LOCK_CLASS = 2025;
const BUCKETS = 64;

/** `notReady` and `consentMissing` only for the trips asked for with them (`ready`). */
export type TripCount = { behind: number; notReady: number | null; consentMissing: number | null };

/**
 * Per trip, the dashboard counts that need the rules and today (fundraisers behind a milestone;
 * travellers not ready to depart and pupils without a parent's consent, by the readiness board's
 * own checks), kept in trip_counts (decision 015): read back while nothing they depend on has changed, the day is the
 * same and the fundraising defaults are, and counted afresh otherwise. Triggers mark a trip stale
 * on any change to its bookings, money owed, invoices, fundraising entries and rules, answers,
 * documents, the trip or its country.
 */
export class TripCounts {
  private readonly defaultsKey: string;

  constructor(
    private readonly db: Db,
    private readonly defaults: FundraisingDefaults,
    private readonly readiness: Pick<ReadinessService, 'forTrip'>,
  ) {
    this.defaultsKey = JSON.stringify(defaults);
  }

  /** The counts of these trips (`ready`: those whose travellers not ready are wanted too). */
  async of(today: string, tripIds: number[], ready: Set<number>): Promise<Map<number, TripCount>> {
    const out = new Map<number, TripCount>();
    if (!tripIds.length) return out;
    const kept = await queryRows<{
      trip_id: number;
      behind: number | null;
      not_ready: number | null;
      consent_missing: number | null;
    }>(
      this.db,
      sql`select trip_id, behind, not_ready, consent_missing from trip_counts
        where trip_id = any(${`{${tripIds.join(',')}}`}::int[]) and not stale and computed_on = ${today}::date and defaults_key = ${this.defaultsKey}`,
    );
    for (const r of kept) {
      const id = Number(r.trip_id);
      if (r.behind !== null && (!ready.has(id) || (r.not_ready !== null && r.consent_missing !== null)))
        out.set(id, {
          behind: Number(r.behind),
          notReady: r.not_ready === null ? null : Number(r.not_ready),
          consentMissing: r.consent_missing === null ? null : Number(r.consent_missing),
        });
    }
    const afresh = tripIds.filter((id) => !out.has(id)).sort((a, b) => a - b);
    if (!afresh.length) return out;

    // from now on a write to these trips marks them stale; any write already under way is waited for
    const ids = `{${afresh.join(',')}}`;
    await this.db.transaction(async (tx) => {
      const buckets = [...new Set(afresh.map((id) => id % BUCKETS))].sort((a, b) => a - b);
      for (const b of buckets) await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, ${b})`);
      await tx.execute(sql`insert into trip_counts (trip_id, stale, computed_on, defaults_key, behind, not_ready, computed_at)
        select id, false, ${today}::date, ${this.defaultsKey}, null, null, null from unnest(${ids}::int[]) id
        on conflict (trip_id) do update set stale = false, computed_on = excluded.computed_on, defaults_key = excluded.defaults_key, behind = null, not_ready = null, consent_missing = null, computed_at = null`);
    });

    const fundraising = fundraisingSql(today);
    const behind = await queryRows<{ trip_id: number; n: number }>(
      this.db,
      // fundraisingSql speaks of "bookings" and "trips" by name
      sql`select trips.id as trip_id, count(*)::int as n from bookings join trips on trips.id = bookings.trip_id
        where trips.id = any(${ids}::int[]) and ${fundraising.condition('behind')} group by trips.id`,
    );
    const behindOf = new Map(behind.map((r) => [Number(r.trip_id), Number(r.n)]));
    for (const id of afresh) {
      let notReady: number | null = null;
      let consentMissing: number | null = null;
      if (ready.has(id)) {
        const board = await this.readiness.forTrip(id);
        notReady = board.summary.bookings - board.summary.ready;
        consentMissing = board.summary.checks.consent.amber + board.summary.checks.consent.red;
      }
      out.set(id, { behind: behindOf.get(id) ?? 0, notReady, consentMissing });
    }
    // kept unless a write has marked the trip stale meanwhile (then the next call counts again)
    const list = (of: (c: TripCount) => number | null) =>
      `{${afresh.map((id) => of(out.get(id)!) ?? 'NULL').join(',')}}`;
    await this.db.execute(sql`update trip_counts c set behind = v.behind, not_ready = v.not_ready,
        consent_missing = v.consent_missing, computed_at = now()
      from (select * from unnest(${ids}::int[], ${list((c) => c.behind)}::int[], ${list((c) => c.notReady)}::int[],
        ${list((c) => c.consentMissing)}::int[]) as v(trip_id, behind, not_ready, consent_missing)) v
      where c.trip_id = v.trip_id and not c.stale and c.computed_on = ${today}::date and c.defaults_key = ${this.defaultsKey}`);
    return out;
  }
}
