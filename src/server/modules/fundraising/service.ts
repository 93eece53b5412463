import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { FUNDING_TYPE_LABELS } from '../../../contract/booking-constants.ts';
import { ROLES } from '../../../contract/constants.ts';
import {
  FUNDRAISERS_PER_PAGE,
  FUNDRAISING_TYPES,
  type BookingFundraising,
  type CharityFundraisers,
  type FundraisingState,
  type FundraisingType,
  type Milestone,
  type TripFundraising,
} from '../../../contract/fundraising.ts';
import { formatPence, penceToPounds } from '../../../contract/money.ts';
import { queryRows, type Db, type Tx } from '../../../db/client.ts';
import { bookings, charities, fundraisingEntries, tripFundraising, trips, users } from '../../../db/schema/index.ts';
import { audit, diff } from '../../audit/audit.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { HttpError, validationError } from '../../errors.ts';
import { pageOf } from '../../common/paging.ts';
import { ukToday } from '../../../contract/dates.ts';
import { fundraisingStanding, milestoneDate, milestonePence } from './rules.ts';
import { asksOf, fundraiserOf, fundraisingSql, shortfallOn } from './sql.ts';

export type FundraisingDefaults = Config['fundraisingDefaults'];
export type FundraisingRule = { minimumPence: number; milestones: Milestone[]; isDefault: boolean };

export const fundraises = (fundingType: string): fundingType is FundraisingType =>
  (FUNDRAISING_TYPES as readonly string[]).includes(fundingType);
const iso = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
const name = (u: { firstName: string | null; lastName: string | null }) =>
  u.firstName === null ? null : `${u.firstName} ${u.lastName}`;

/**
 * Fundraising: each trip's minimum sponsorship and milestones per funding type that
 * fundraises, each fundraising traveller's target, page and raised-to-date entries, and their
 * standing (rules.ts). Sponsorship is kept apart from trip money: no invoice or payment is
 * touched here, and nothing here counts towards what a traveller owes.
 */
export class FundraisingService {
  constructor(
    private readonly db: Db,
    private readonly defaults: FundraisingDefaults,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  /** A trip's rule for each funding type: its own, or the configuration's defaults. */
  async rulesOf(db: Db | Tx, tripId: number): Promise<Record<FundraisingType, FundraisingRule>> {
    return (await this.rulesOfTrips(db, [tripId])).get(tripId)!;
  }

  /** The rules of each of these trips, read together: a charity's fundraisers are on a hundred trips. */
  async rulesOfTrips(db: Db | Tx, tripIds: number[]): Promise<Map<number, Record<FundraisingType, FundraisingRule>>> {
    const own = tripIds.length
      ? await db.select().from(tripFundraising).where(inArray(tripFundraising.tripId, tripIds))
      : [];
    return new Map(
      tripIds.map((tripId) => [
        tripId,
        Object.fromEntries(
          FUNDRAISING_TYPES.map((type) => {
            const row = own.find((r) => r.tripId === tripId && r.fundingType === type);
            return [
              type,
              row
                ? { minimumPence: row.minimumPence, milestones: row.milestones, isDefault: false }
                : {
                    minimumPence: this.defaults.minimumPence[type],
                    milestones: this.defaults.milestones,
                    isDefault: true,
                  },
            ];
          }),
        ) as Record<FundraisingType, FundraisingRule>,
      ]),
    );
  }

  private async trip(db: Db | Tx, tripId: number) {
    const [trip] = await db
      .select({ id: trips.id, name: trips.name, deletedAt: trips.deletedAt })
      .from(trips)
      .where(eq(trips.id, tripId));
    if (!trip || trip.deletedAt) throw new HttpError(404, 'Trip not found');
    return trip;
  }

  async forTrip(tripId: number): Promise<TripFundraising> {
    await this.trip(this.db, tripId);
    const rules = await this.rulesOf(this.db, tripId);
    return {
      trip_id: tripId,
      rules: FUNDRAISING_TYPES.map((type) => ({
        funding_type: type,
        minimum: penceToPounds(rules[type].minimumPence),
        milestones: sortMilestones(rules[type].milestones),
        is_default: rules[type].isDefault,
      })),
    };
  }

  /** PUT /api/trips/{id}/fundraising: the trip's own rule for each funding type given (the others keep theirs). */
  async saveTrip(
    tripId: number,
    input: { rules: Array<{ funding_type: FundraisingType; minimum: number; milestones: Milestone[] }> },
  ): Promise<TripFundraising> {
    await this.db.transaction(async (tx) => {
      const trip = await this.trip(tx, tripId);
      const before = await this.rulesOf(tx, tripId);
      for (const r of input.rules) {
        const milestones = sortMilestones(r.milestones);
        await tx
          .insert(tripFundraising)
          .values({
            tripId,
            fundingType: r.funding_type,
            minimumPence: r.minimum,
            milestones,
            updatedAt: nowOf(this.clock),
          })
          .onConflictDoUpdate({
            target: [tripFundraising.tripId, tripFundraising.fundingType],
            set: { minimumPence: r.minimum, milestones, updatedAt: nowOf(this.clock) },
          });
        const changes = diff({
          [`${r.funding_type}_minimum`]: [penceToPounds(before[r.funding_type].minimumPence), penceToPounds(r.minimum)],
          [`${r.funding_type}_milestones`]: [
            describeMilestones(before[r.funding_type].milestones),
            describeMilestones(milestones),
          ],
        });
        if (Object.keys(changes).length) {
          await audit(tx, {
            action: 'trip.fundraising_changed',
            subject: { type: 'trip', id: tripId },
            tripId,
            changes,
            summary: `set the fundraising rule of ${trip.name} for ${FUNDING_TYPE_LABELS[r.funding_type].toLowerCase()} bookings: ${formatPence(r.minimum)} minimum, ${describeMilestones(milestones) || 'no milestones'}`,
          });
        }
      }
    });
    return this.forTrip(tripId);
  }

  private async booking(db: Db | Tx, bookingId: number, lock = false) {
    const q = db
      .select({
        id: bookings.id,
        ref: bookings.ref,
        tripId: bookings.tripId,
        fundingType: bookings.fundingType,
        charityId: bookings.charityId,
        targetPence: bookings.fundraisingTargetPence,
        targetReason: bookings.fundraisingTargetReason,
        pageUrl: bookings.fundraisingPageUrl,
        acknowledgedAt: bookings.charityAcknowledgedAt,
        acknowledgedBy: bookings.charityAcknowledgedBy,
        departure: trips.departureDate,
      })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, bookingId));
    const [b] = lock ? await q.for('update', { of: bookings }) : await q;
    if (!b) throw new HttpError(404, 'Booking not found');
    return b;
  }

  /** GET /api/bookings/{id}/fundraising. */
  async forBooking(bookingId: number): Promise<BookingFundraising> {
    const b = await this.booking(this.db, bookingId);
    const rules = await this.rulesOf(this.db, b.tripId);
    const rule = fundraises(b.fundingType) ? rules[b.fundingType] : null;
    const targetPence = b.targetPence ?? rule?.minimumPence ?? 0;
    const recorder = alias(users, 'recorder');
    const striker = alias(users, 'striker');
    const entries = await this.db
      .select({
        e: fundraisingEntries,
        recorder: { firstName: recorder.firstName, lastName: recorder.lastName },
        striker: { firstName: striker.firstName, lastName: striker.lastName },
      })
      .from(fundraisingEntries)
      .leftJoin(recorder, eq(recorder.id, fundraisingEntries.recordedBy))
      .leftJoin(striker, eq(striker.id, fundraisingEntries.struckBy))
      .where(eq(fundraisingEntries.bookingId, bookingId))
      .orderBy(asc(fundraisingEntries.entryDate), asc(fundraisingEntries.id));
    const raisedPence = entries.filter((r) => r.e.struckAt === null).reduce((sum, r) => sum + r.e.amountPence, 0);
    const today = ukToday(nowOf(this.clock));
    const departure = iso(b.departure);
    const milestones = rule?.milestones ?? [];
    const standing = fundraisingStanding(
      { fundraises: rule !== null, targetPence, raisedPence, milestones, departure },
      today,
    );
    const [charity] =
      b.charityId === null
        ? []
        : await this.db
            .select({ id: charities.id, name: charities.name })
            .from(charities)
            .where(eq(charities.id, b.charityId));
    const [ackBy] =
      b.acknowledgedBy === null
        ? []
        : await this.db
            .select({ firstName: users.firstName, lastName: users.lastName })
            .from(users)
            .where(eq(users.id, b.acknowledgedBy));
    const dated = (m: Milestone & { due: string; pence: number }) => ({
      percent: m.percent,
      weeks_before: m.weeks_before,
      due: m.due,
      amount: penceToPounds(m.pence),
    });
    return {
      booking_id: b.id,
      funding_type: b.fundingType,
      fundraises: rule !== null,
      charity: charity ?? null,
      target: penceToPounds(targetPence),
      trip_minimum: penceToPounds(rule?.minimumPence ?? 0),
      target_reason: b.targetPence === null ? null : b.targetReason,
      page_url: b.pageUrl,
      raised: penceToPounds(raisedPence),
      state: standing.state,
      missed: standing.missed && dated(standing.missed),
      shortfall: penceToPounds(standing.shortfallPence),
      next: standing.next && dated(standing.next),
      milestones: sortMilestones(milestones).map((m) =>
        dated({ ...m, due: milestoneDate(departure, m), pence: milestonePence(targetPence, m) }),
      ),
      acknowledged_at: b.acknowledgedAt?.toISOString() ?? null,
      acknowledged_by: ackBy ? name(ackBy) : null,
      entries: entries.map(({ e, recorder: r, striker: s }) => ({
        id: e.id,
        amount: penceToPounds(e.amountPence),
        date: iso(e.entryDate),
        source: e.source as BookingFundraising['entries'][number]['source'],
        note: e.note,
        recorded_by: r ? name(r) : null,
        recorded_at: e.createdAt.toISOString(),
        struck_at: e.struckAt?.toISOString() ?? null,
        struck_by: s ? name(s) : null,
        struck_reason: e.struckReason,
      })),
    };
  }

  /** PUT /api/bookings/{id}/fundraising: the target (null: back to the trip's minimum) and the page. */
  async update(
    bookingId: number,
    v: { target?: number | null | undefined; reason?: string | undefined; page_url?: string | null | undefined },
  ): Promise<BookingFundraising> {
    await this.db.transaction(async (tx) => {
      const b = await this.booking(tx, bookingId, true);
      if (!fundraises(b.fundingType)) throw notFundraising(b.fundingType);
      const next = {
        fundraisingTargetPence: v.target === undefined ? b.targetPence : v.target,
        fundraisingTargetReason:
          v.target === undefined ? b.targetReason : v.target === null ? null : (v.reason ?? null),
        fundraisingPageUrl: v.page_url === undefined ? b.pageUrl : v.page_url,
      };
      const changes = diff({
        fundraising_target: [
          b.targetPence === null ? null : penceToPounds(b.targetPence),
          next.fundraisingTargetPence === null ? null : penceToPounds(next.fundraisingTargetPence),
        ],
        fundraising_target_reason: [b.targetReason, next.fundraisingTargetReason],
        fundraising_page_url: [b.pageUrl, next.fundraisingPageUrl],
      });
      if (!Object.keys(changes).length) return;
      await tx.update(bookings).set(next).where(eq(bookings.id, bookingId));
      await audit(tx, {
        action: 'booking.fundraising_changed',
        subject: { type: 'booking', id: bookingId },
        bookingId,
        tripId: b.tripId,
        changes,
        summary: `changed the fundraising of the booking ${b.ref}`,
      });
    });
    return this.forBooking(bookingId);
  }

  /**
   * POST /api/bookings/{id}/fundraising/entries: one raised-to-date entry, by a member of staff or
   * (through the portal, which passes its check of the booking as `guard`) the charity's user.
   */
  async addEntry(
    bookingId: number,
    v: { amount: number; date: string; source: string; note: string | null },
    userId: number | null,
    guard?: (tx: Tx) => Promise<void>,
  ): Promise<BookingFundraising> {
    // raised to date: a figure from the future is a typing slip
    if (v.date > ukToday(nowOf(this.clock))) throw validationError({ date: ['The date must not be after today.'] });
    await this.db.transaction(async (tx) => {
      if (guard) await guard(tx);
      const b = await this.booking(tx, bookingId, true);
      if (!fundraises(b.fundingType)) throw notFundraising(b.fundingType);
      const [entry] = await tx
        .insert(fundraisingEntries)
        .values({
          bookingId,
          amountPence: v.amount,
          entryDate: v.date,
          source: v.source,
          note: v.note,
          recordedBy: userId,
          createdAt: nowOf(this.clock),
        })
        .returning({ id: fundraisingEntries.id });
      await audit(tx, {
        action: 'fundraising.entry_added',
        subject: { type: 'fundraising_entry', id: entry!.id },
        bookingId,
        tripId: b.tripId,
        summary: `recorded ${formatPence(v.amount)} raised (${v.source.replace('_', ' ')}) on ${v.date} for the booking ${b.ref}`,
        details: { amount: penceToPounds(v.amount), date: v.date, source: v.source, note: v.note },
      });
    });
    return this.forBooking(bookingId);
  }

  /** POST /api/fundraising-entries/{id}/strike: struck out with a reason; it stays, no longer counted. */
  async strike(entryId: number, reason: string, userId: number | null): Promise<BookingFundraising> {
    const bookingId = await this.db.transaction(async (tx) => {
      const [entry] = await tx
        .select()
        .from(fundraisingEntries)
        .where(eq(fundraisingEntries.id, entryId))
        .for('update');
      if (!entry) throw new HttpError(404, 'Fundraising entry not found');
      if (entry.struckAt) throw new HttpError(422, 'This entry is already struck out.');
      const b = await this.booking(tx, entry.bookingId);
      await tx
        .update(fundraisingEntries)
        .set({ struckAt: nowOf(this.clock), struckBy: userId, struckReason: reason })
        .where(eq(fundraisingEntries.id, entryId));
      await audit(tx, {
        action: 'fundraising.entry_struck',
        subject: { type: 'fundraising_entry', id: entryId },
        bookingId: entry.bookingId,
        tripId: b.tripId,
        summary: `struck out ${formatPence(entry.amountPence)} raised on ${iso(entry.entryDate)} for the booking ${b.ref}: ${reason}`,
        details: { amount: penceToPounds(entry.amountPence), reason },
      });
      return entry.bookingId;
    });
    return this.forBooking(bookingId);
  }

  /**
   * A charity's fundraisers: its provisional and confirmed bookings that fundraise,
   * each with only the fields a charity may see (fundraiserSchema), filtered by trip and state,
   * with the totals of all that match: raised, pledged (the targets), and the shortfall of those
   * behind. One page of FUNDRAISERS_PER_PAGE when `page` is given, else every one (the
   * spreadsheet, the summary email).
   *
   * The totals and the page's ids are read from one index (bookings_charity_fundraisers_idx),
   * with the standing the database keeps (fundraisingSql): a charity with 25,000 fundraisers
   * over the years costs a walk of that index, not 25,000 rows worked out here. The shortfall of
   * those behind is summed in SQL by the rule of rules.ts; each shown row's standing is worked out
   * by rules.ts itself.
   */
  async ofCharity(
    charityId: number,
    filter: {
      trip_id?: number | undefined;
      state?: FundraisingState | undefined;
      booking_id?: number;
      page?: number | undefined;
    } = {},
  ): Promise<CharityFundraisers> {
    const [charity] = await this.db.select({ id: charities.id }).from(charities).where(eq(charities.id, charityId));
    if (!charity) throw new HttpError(404, 'Charity not found');
    const today = ukToday(nowOf(this.clock));
    const standing = fundraisingSql(today);
    const where = and(
      fundraiserOf(charityId),
      filter.trip_id === undefined ? undefined : eq(bookings.tripId, filter.trip_id),
      filter.booking_id === undefined ? undefined : eq(bookings.id, filter.booking_id),
      filter.state === undefined ? undefined : standing.condition(filter.state),
    );
    const sumsOf = this.db
      .select({
        n: sql<number>`count(*)::int`,
        raised: sql<string>`coalesce(sum(${bookings.fundraisingRaisedPence}), 0)`,
        pledged: sql<string>`coalesce(sum(${bookings.fundraisingGoalPence}), 0)`,
        // of provisional and confirmed bookings alone (fundraiserOf): met is the kept column, read from the index
        met: sql<number>`(count(*) filter (where ${bookings.fundraisingMet}))::int`,
        behind: sql<number>`(count(*) filter (where ${bookings.fundraisingBehindFrom} <= ${today}::date))::int`,
      })
      .from(bookings)
      .where(where);
    const page = filter.page ?? 1;
    const order = [
      asc(bookings.tripDeparture),
      asc(sql`lower(${bookings.lastName})`),
      asc(sql`lower(${bookings.firstName})`),
      asc(bookings.id),
    ];
    // the page's ids first, from the index alone; then those rows (every one for the spreadsheet)
    const allIds = this.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(where)
      .orderBy(...order);
    const ids =
      filter.page === undefined ? allIds : allIds.limit(FUNDRAISERS_PER_PAGE).offset((page - 1) * FUNDRAISERS_PER_PAGE);
    const rowsOf = this.db
      .select({
        id: bookings.id,
        ref: bookings.ref,
        firstName: bookings.firstName,
        lastName: bookings.lastName,
        fundingType: bookings.fundingType,
        targetPence: bookings.fundraisingTargetPence,
        // kept from the entries in the same transaction as each change to them (migration 0023)
        raisedPence: bookings.fundraisingRaisedPence,
        pageUrl: bookings.fundraisingPageUrl,
        acknowledgedAt: bookings.charityAcknowledgedAt,
        tripId: trips.id,
        tripName: trips.name,
        departure: trips.departureDate,
      })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(inArray(bookings.id, ids))
      .orderBy(...order);
    // the shortfall of those behind, by the rule (rules.ts) in SQL: each one's latest milestone
    // passed and not reached (by its due day, then the larger share), less what they have raised.
    // On the office's defaults, one expression of the booking's columns (shortfallOn); on its
    // trip's own rule, that rule's milestones read from the database
    const due = sql`${bookings.tripDeparture} - 7 * (m ->> 'weeks_before')::int`;
    const asks = asksOf(sql`(m ->> 'percent')::int`);
    const shortOf =
      filter.state === undefined || filter.state === 'behind'
        ? queryRows<{ pence: string | number }>(
            this.db,
            sql`select coalesce(sum(case when tf.milestones is null then ${shortfallOn(this.defaults.milestones, today)}
                else (select ${asks} - ${bookings.fundraisingRaisedPence}
                  from jsonb_array_elements(tf.milestones) m
                  where ${due} < ${today}::date and ${bookings.fundraisingRaisedPence} < ${asks}
                  order by ${due} desc, (m ->> 'percent')::int desc limit 1) end), 0) as pence
              from ${bookings}
              left join trip_fundraising tf on tf.trip_id = ${bookings.tripId} and tf.funding_type = ${bookings.fundingType}
              where ${and(where, standing.condition('behind'))}`,
          )
        : Promise.resolve([]);
    const portalOf = this.db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(and(eq(users.charityId, charityId), eq(users.userRoleId, ROLES.charity)))
      .orderBy(asc(users.lastName), asc(users.firstName));
    // the totals, the page, the shortfall and the portal's users do not wait for each other
    const [[sums], rows, [short], portal] = await Promise.all([sumsOf, rowsOf, shortOf, portalOf]);
    const total = sums?.n ?? 0;
    const perPage = filter.page === undefined ? Math.max(total, 1) : FUNDRAISERS_PER_PAGE;
    const rules = await this.rulesOfTrips(this.db, [...new Set(rows.map((r) => r.tripId))]);
    const standingOf = (r: (typeof rows)[number]) => {
      const rule = rules.get(r.tripId)![r.fundingType as FundraisingType];
      const targetPence = r.targetPence ?? rule.minimumPence;
      return {
        targetPence,
        ...fundraisingStanding(
          {
            fundraises: true,
            targetPence,
            raisedPence: r.raisedPence,
            milestones: rule.milestones,
            departure: iso(r.departure),
          },
          today,
        ),
      };
    };
    const { data: _, total: __, ...paging } = pageOf(rows, total, page, perPage);
    return {
      ...paging,
      totals: {
        fundraisers: total,
        raised: penceToPounds(Number(sums?.raised ?? 0)),
        pledged: penceToPounds(Number(sums?.pledged ?? 0)),
        shortfall: penceToPounds(Number(short?.pence ?? 0)),
        behind: sums?.behind ?? 0,
        met: sums?.met ?? 0,
      },
      fundraisers: rows.map((r) => {
        const s = standingOf(r);
        return {
          booking_id: r.id,
          booking_ref: r.ref,
          traveller: `${r.firstName} ${r.lastName}`,
          trip: { id: r.tripId, name: r.tripName },
          departure: iso(r.departure),
          funding_type: r.fundingType,
          target: penceToPounds(s.targetPence),
          raised: penceToPounds(r.raisedPence),
          state: s.state,
          shortfall: penceToPounds(s.shortfallPence),
          page_url: r.pageUrl,
          acknowledged_at: r.acknowledgedAt?.toISOString() ?? null,
        };
      }),
      portal_users: portal.map((u) => ({ id: u.id, name: `${u.firstName} ${u.lastName}`, email: u.email })),
    };
  }

  /** Raised to date per booking (live entries only), for the readiness board. */
  async raisedOf(bookingIds: number[]): Promise<Map<number, number>> {
    if (!bookingIds.length) return new Map();
    const rows = await this.db
      .select({ bookingId: fundraisingEntries.bookingId, pence: sql<string>`sum(${fundraisingEntries.amountPence})` })
      .from(fundraisingEntries)
      .where(and(inArray(fundraisingEntries.bookingId, bookingIds), sql`${fundraisingEntries.struckAt} is null`))
      .groupBy(fundraisingEntries.bookingId);
    return new Map(rows.map((r) => [Number(r.bookingId), Number(r.pence)]));
  }
}

const notFundraising = (fundingType: string) =>
  new HttpError(
    422,
    `This booking does not fundraise: its funding is ${FUNDING_TYPE_LABELS[fundingType as keyof typeof FUNDING_TYPE_LABELS] ?? fundingType}. Change its funding to Fundraise or Flexi first.`,
  );

/** Earliest first: most weeks before departure. */
export const sortMilestones = (list: Milestone[]) => [...list].sort((a, b) => b.weeks_before - a.weeks_before);
export const describeMilestones = (list: Milestone[]) =>
  sortMilestones(list)
    .map((m) => `${m.percent}% by ${m.weeks_before} ${m.weeks_before === 1 ? 'week' : 'weeks'} before departure`)
    .join(', ');
