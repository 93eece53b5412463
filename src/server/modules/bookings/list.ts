import {
  and,
  type AnyColumn,
  asc,
  desc,
  eq,
  ilike,
  inArray,
  isNull,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import type { BookingFilter, BookingPage, BookingRow } from '../../../contract/bookings.ts';
import { PASSPORT_MONTHS_DEFAULT } from '../../../contract/country-constants.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { bookingCustomFieldAnswers, bookings, countries, tripCustomFields, trips } from '../../../db/schema/index.ts';
import { BOOKING_REF_PREFIX } from '../../../shared/booking-ref.ts';
import { containsPattern as contains } from '../../sql.ts';
import type { FundraisingSql } from '../fundraising/sql.ts';
import { EXACT_COUNT_BELOW, pageOf, roundEstimate } from '../../common/paging.ts';

/**
 * The day a passport must still be valid on, by the destination's rule: the trip's
 * return plus the country's months (the end of a shorter month when the day is not in it).
 */
const validUntil = sql`(${trips.returnDate} + coalesce(${countries.passportMonths}, ${PASSPORT_MONTHS_DEFAULT}) * interval '1 month')`;

/** The join every query reading passportState needs beside trips (the country carries the rule). */
export const tripCountry = eq(countries.id, trips.countryId);

/**
 * missing, expired (before the trip is back), expires (back in time, but not valid for the
 * destination's months after the return) or ok. The one rule of the list, its filter, the
 * booking page and every export.
 */
export const passportState = sql<'missing' | 'expired' | 'expires' | 'ok'>`case
  when ${bookings.passportExpiryDate} is null then 'missing'
  when ${bookings.passportExpiryDate} < ${trips.returnDate} then 'expired'
  when ${bookings.passportExpiryDate} < ${validUntil} then 'expires'
  else 'ok' end`;

/**
 * Age in whole years on the day the trip departs: what the list, the booking page and the exports
 * show, and what the age filter compares. On the booking's own copy of the departure date, cast to
 * a timestamp without time zone so that the expression is immutable and indexed as
 * bookings_age_idx is: the filter reads the bookings alone, and counts its matches from that index.
 */
export const ageOnDeparture = sql<
  number | null
>`(date_part('year', age(${bookings.tripDeparture}::timestamp, ${bookings.dateOfBirth}::timestamp))::int)`;

// the same expression as the trigram index bookings_name_trgm_idx, so the index serves it
const fullName = sql`(${bookings.firstName} || ' ' || ${bookings.lastName} || ' ' || coalesce(${bookings.preferredName}, ''))`;

function passportCondition(state: NonNullable<BookingFilter['passport']>): SQL {
  switch (state) {
    case 'missing':
      return isNull(bookings.passportExpiryDate);
    case 'expired':
      return sql`${bookings.passportExpiryDate} < ${trips.returnDate}`;
    case 'expires':
      return sql`${bookings.passportExpiryDate} >= ${trips.returnDate} and ${bookings.passportExpiryDate} < ${validUntil}`;
    case 'ok':
      return sql`${bookings.passportExpiryDate} >= ${validUntil}`;
  }
}

/**
 * The bookings whose `column` contains the term, in any case, found by asking the column's trigram
 * index for `part` of the term only (letters every row shares cost the index the most to read and
 * sort out nothing), each row it finds checked for the whole term (ILIKE compares the lower case
 * of both, as this does). The same rows as an ILIKE of the whole term.
 */
function containsWithin(column: SQL | AnyColumn, term: string, part: string): SQL {
  if (part === term) return ilike(column, contains(term));
  return sql`${column} ilike ${contains(part)} and strpos(lower(${column}), lower(${term})) > 0`;
}

/**
 * A reference. Every reference the app makes starts TD-, so in a large office the index's entries
 * for those letters are the whole table, and a search for a whole reference spent nearly all its
 * time reading them (1.6–3.1 ms at a million, 0.04–0.13 this way): for a term that starts with
 * them and has three letters or more after them, the index is asked for the rest.
 */
function refContains(term: string): SQL {
  const rest = term.slice(BOOKING_REF_PREFIX.length);
  const prefixed = term.slice(0, BOOKING_REF_PREFIX.length).toUpperCase() === BOOKING_REF_PREFIX;
  return containsWithin(bookings.ref, term, prefixed && rest.length >= 3 ? rest : term);
}

/**
 * An email address. Every address ends in a domain, and most are at a handful of providers
 * (gmail.com, outlook.com, hotmail.co.uk…) whose letters are then in most of the index: a search
 * for a whole address spent nearly all its time reading them. For a term with three letters or
 * more before an @ and two or more after it, the index is asked for the term up to the second
 * letter after the @, which leaves out every trigram wholly inside the domain. On the seeded
 * million (EXPLAIN ANALYZE): 3.3 ms → 2.1; on addresses of 3,000 first and 470 last names, 13–16 ms
 * → 2.0–3.1, and a common name at a rare domain ("son@rare-club.org", 14,000 addresses end in
 * "son") 4.8 → 2.5. Never slower in those measured, where asking for the term up to the @ alone
 * took 30 ms for that one.
 */
function emailContains(term: string): SQL {
  const at = term.indexOf('@');
  return containsWithin(bookings.email, term, at >= 3 ? term.slice(0, at + 3) : term);
}

export function bookingConditions(f: BookingFilter, fundraising?: FundraisingSql): SQL | undefined {
  const digits = f.telephone?.replace(/\D/g, '');
  return and(
    f.status ? eq(bookings.status, f.status) : undefined,
    // on the booking's own copy of the departure date: one index range, and statistics the planner can use
    f.timing === 'future'
      ? sql`${bookings.tripDeparture} >= current_date`
      : f.timing === 'past'
        ? sql`${bookings.tripDeparture} < current_date`
        : undefined,
    f.passport ? passportCondition(f.passport) : undefined,
    f.fundraising && fundraising ? fundraising.condition(f.fundraising) : undefined,
    f.departure_from ? sql`${bookings.tripDeparture} >= ${f.departure_from}::date` : undefined,
    f.departure_to ? sql`${bookings.tripDeparture} <= ${f.departure_to}::date` : undefined,
    // made before the start of that day in the office's time zone
    f.booked_before
      ? sql`${bookings.createdAt} < (${f.booked_before}::date)::timestamp at time zone 'Europe/London'`
      : undefined,
    f.trips ? inArray(bookings.tripId, f.trips) : undefined,
    f.trip_id ? eq(bookings.tripId, f.trip_id) : undefined,
    f.user_id ? eq(bookings.userId, f.user_id) : undefined,
    f.booking_ref ? refContains(f.booking_ref) : undefined,
    f.name ? sql`${fullName} ilike ${contains(f.name)}` : undefined,
    f.age_min !== undefined ? sql`${ageOnDeparture} >= ${f.age_min}::int` : undefined,
    f.age_max !== undefined ? sql`${ageOnDeparture} <= ${f.age_max}::int` : undefined,
    f.medical !== undefined ? eq(bookings.medicalConditions, f.medical) : undefined,
    // the same expression as the trigram index bookings_address_trgm_idx
    f.address
      ? sql`booking_address(${bookings.address1}, ${bookings.address2}, ${bookings.address3}, ${bookings.address4}, ${bookings.postCode}) ilike ${contains(f.address)}`
      : undefined,
    f.gender ? eq(bookings.gender, f.gender) : undefined,
    f.email ? emailContains(f.email) : undefined,
    // the same expression as the trigram index bookings_mobile_digits_trgm_idx
    digits ? sql`regexp_replace(coalesce(${bookings.mobile}, ''), '\\D', '', 'g') like ${contains(digits)}` : undefined,
  );
}

export function bookingOrder(f: BookingFilter): SQL[] {
  const dir = f.sort_dir === 'asc' ? asc : desc;
  const nullsLast = (col: SQL | typeof bookings.roomRef) => sql`${col} ${sql.raw(f.sort_dir)} nulls last`;
  switch (f.sort_field) {
    case 'id':
      return [dir(bookings.id)];
    case 'deposit_payment_date':
      return [nullsLast(sql`${bookings.depositPaymentDate}`), dir(bookings.id)];
    case 'trip_name':
      return [dir(trips.name), dir(bookings.createdAt), dir(bookings.id)];
    case 'name':
      return [dir(bookings.lastName), dir(bookings.firstName), dir(bookings.id)];
    case 'room_ref':
      return [nullsLast(sql`${bookings.roomRef}`), dir(bookings.id)];
    case 'created_at':
    default:
      return [dir(bookings.createdAt), dir(bookings.id)];
  }
}

const iso = (d: Date) => d.toISOString();

/** Whether the filters or the sort look at the trip; when they do not, the trip is joined only to the page's rows. */
export function needsTrip(f: BookingFilter): boolean {
  return Boolean(f.passport) || f.sort_field === 'trip_name';
}

export type ListOptions = {
  /**
   * Below this many matches (by the planner's estimate) the total is counted exactly; at or
   * above it the reply carries the estimate and says so. Counting hundreds of thousands of rows
   * for every page is what made the list slow on a large office.
   */
  exactCountBelow?: number;
  /** the planner's estimate of the matches (tests give a wrong one, as the planner gives for a filter it cannot see into) */
  estimate?: (query: SQLWrapper) => Promise<number>;
  /** the fundraising rule in SQL (with the office's defaults and today), for the fundraising filter */
  fundraising?: FundraisingSql;
  /** from how many rows in a page starts from the weekly counts (WEEK_JUMP_FROM; tests take it from 0) */
  weekJumpFrom?: number;
  /** after how long a broad search's count starts beside its page (EARLY_COUNT_AFTER_MS; tests take 0) */
  earlyCountAfterMs?: number;
  /** below how many matches a text search counts them (SEARCH_COUNT_BELOW; tests take a handful) */
  searchCountBelow?: number;
};

type Plan = { Plan: { 'Plan Rows': number } };

/**
 * The matches counted on a 1% sample of the bookings' pages, times a hundred: within a few per
 * cent for the large totals it is used for, at a hundredth of the cost of counting them.
 */
async function sampledRows(db: Db, joined: boolean, where: SQL | undefined): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${bookings} tablesample system (1) repeatable (20)
      ${joined ? sql`join ${trips} on ${eq(trips.id, bookings.tripId)} left join ${countries} on ${tripCountry}` : sql``}
      ${where ? sql`where ${where}` : sql``}`,
  );
  return Number(row?.n ?? 0) * 100;
}

/** The planner's estimate of how many rows a query returns (EXPLAIN, nothing is run). */
async function estimateRows(db: Db, query: SQLWrapper): Promise<number> {
  const [row] = await queryRows<Record<string, unknown>>(db, sql`explain (format json) ${query}`);
  const raw = row ? Object.values(row)[0] : undefined;
  const plans = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Plan[] | undefined;
  return Math.max(0, Math.round(plans?.[0]?.Plan['Plan Rows'] ?? 0));
}

// only what a row of the list shows: the long text fields (notes, medical detail…) stay behind
const listColumns = {
  id: bookings.id,
  ref: bookings.ref,
  createdAt: bookings.createdAt,
  depositPaymentDate: bookings.depositPaymentDate,
  status: bookings.status,
  tripId: bookings.tripId,
  userId: bookings.userId,
  title: bookings.title,
  firstName: bookings.firstName,
  lastName: bookings.lastName,
  preferredName: bookings.preferredName,
  email: bookings.email,
  mobile: bookings.mobile,
  gender: bookings.gender,
  dateOfBirth: bookings.dateOfBirth,
  address1: bookings.address1,
  address4: bookings.address4,
  postCode: bookings.postCode,
  roomType: bookings.roomType,
  roomRef: bookings.roomRef,
  shareWith: bookings.shareWith,
  doubleRoom: bookings.doubleRoom,
  fundingType: bookings.fundingType,
  travelBasis: bookings.travelBasis,
  medicalConditions: bookings.medicalConditions,
  formComplete: bookings.formComplete,
};

/** The page's rows by their ids: the same query on every page, so built once per database and prepared (named) on each connection. */
const pageRows = new WeakMap<Db, ReturnType<typeof prepareRows>>();
const prepareRows = (db: Db) =>
  db
    .select({
      b: listColumns,
      tripName: trips.name,
      departure: trips.departureDate,
      returnDate: trips.returnDate,
      passport: passportState,
      age: ageOnDeparture,
    })
    .from(bookings)
    .innerJoin(trips, eq(trips.id, bookings.tripId))
    .leftJoin(countries, tripCountry)
    .where(sql`${bookings.id} = any(${sql.placeholder('ids')}::bigint[])`)
    .prepare('tripdesk_booking_list_rows');
function rowsOf(db: Db) {
  let prepared = pageRows.get(db);
  if (!prepared) pageRows.set(db, (prepared = prepareRows(db)));
  return prepared;
}

// the outer walk's trips, apart from the "trips" the filters join inside
const t = { id: sql.raw('t.id'), name: sql.raw('t.name'), departureDate: sql.raw('t.departure_date') };

/**
 * The page's ids in bookingOrder's trip-name order (name, then created_at, then id), without
 * sorting every match: the trips are walked in name order and each gives at most its first
 * offset + limit matches from its (trip_id, created_at, id) index, a prefix that holds all of
 * that trip's rows of the page. Exact, and fast because there are few trips and many bookings.
 */
async function idsByTripName(
  db: Db,
  f: BookingFilter,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<number[]> {
  const dir = sql.raw(f.sort_dir === 'asc' ? 'asc' : 'desc');
  // trips that cannot have a match are skipped whole (the booking keeps a copy of the date)
  const tripFilter = and(
    f.timing === 'future'
      ? sql`${t.departureDate} >= current_date`
      : f.timing === 'past'
        ? sql`${t.departureDate} < current_date`
        : undefined,
    f.trips ? sql`${t.id} in ${f.trips}` : undefined,
    f.trip_id ? sql`${t.id} = ${f.trip_id}` : undefined,
  );
  const rows = await queryRows<{ id: number | string }>(
    db,
    sql`select b.id from ${trips} t cross join lateral (
      select ${bookings.id} as id, ${bookings.createdAt} as created_at
      from ${bookings} inner join ${trips} on ${trips.id} = ${bookings.tripId}
      where ${bookings.tripId} = ${t.id} and ${where ?? sql`true`}
      order by ${bookings.createdAt} ${dir}, ${bookings.id} ${dir}
      limit ${offset + limit}
    ) b
    ${tripFilter ? sql`where ${tripFilter}` : sql``}
    order by ${t.name} ${dir}, b.created_at ${dir}, b.id ${dir}
    limit ${limit} offset ${offset}`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Below this many matches (by the planner's estimate) a text search (name, telephone, address)
 * counts them exactly; at or above it, its total is the 1% sample's. A search's matches are found
 * by a trigram index, scattered over the table and each checked again in its row: counting the
 * 4,901 bookings of future trips whose telephone has 0712 in it took 85 ms at a million bookings,
 * where the sample takes 20 and the page 6 (decision 033).
 */
export const SEARCH_COUNT_BELOW = 2_000;

/** How long a broad text search's page may take before its count starts beside it (listBookings). */
export const EARLY_COUNT_AFTER_MS = 5;

/** From this many rows in, a page of the newest-first list starts from the weekly counts rather than walking every row before it. */
export const WEEK_JUMP_FROM = 10_000;
/** The filters the weekly counts (booking_weeks: bookings per trip, week made and status; booking_trip_weeks without the status) can answer; any other filter walks the rows. */
const WEEK_FILTERS = new Set([
  'page',
  'per_page',
  'sort_field',
  'sort_dir',
  'withCustomFields',
  'status',
  'timing',
  'departure_from',
  'departure_to',
  'trips',
  'trip_id',
]);

/**
 * A deep page of the list sorted by when bookings were made, without walking the hundreds of
 * thousands of index entries before it: the weekly counts the database keeps (booking_weeks,
 * migration 0025, by trigger in the same transaction as every booking change) say in which week
 * the page starts and how many matches come before that week; the walk then starts at that
 * week's edge. Exact: the counts and the rows are read by one statement, so from one snapshot.
 * Null when the filter or the sort is not one the counts can answer.
 */
async function idsByWeek(
  db: Db,
  f: BookingFilter,
  where: SQL | undefined,
  limit: number,
  offset: number,
  from = WEEK_JUMP_FROM,
) {
  if (f.sort_field !== 'created_at' || offset < from || offset === 0) return null;
  const used = Object.entries(f).filter(([, v]) => v !== undefined && v !== null);
  if (used.some(([k]) => !WEEK_FILTERS.has(k))) return null;
  // without a status, the narrow per-trip weeks (booking_trip_weeks, migration 0058), a fraction of the rows
  const counts = f.status ? sql`booking_weeks` : sql`booking_trip_weeks`;
  const weekConditions = and(
    f.status ? sql`bw.status = ${f.status}` : undefined,
    f.timing === 'future'
      ? sql`t.departure_date >= current_date`
      : f.timing === 'past'
        ? sql`t.departure_date < current_date`
        : undefined,
    f.departure_from ? sql`t.departure_date >= ${f.departure_from}::date` : undefined,
    f.departure_to ? sql`t.departure_date <= ${f.departure_to}::date` : undefined,
    f.trips ? sql`t.id in ${f.trips}` : undefined,
    f.trip_id ? sql`t.id = ${f.trip_id}` : undefined,
  );
  const desc = f.sort_dir !== 'asc';
  const dir = sql.raw(desc ? 'desc' : 'asc');
  const back = sql.raw(desc ? 'asc' : 'desc');
  // the weeks' edges, London time, as booking_weeks counts them. Newest first: from the end of the
  // page's week back to the start of the week of the page's last row (or the oldest week, when
  // the page reaches the end). Oldest first, the other way. Without the far edge the last page
  // walked on through every older booking looking for the rows that are not there.
  const start = (from: SQL) => sql`(select week::timestamp at time zone 'Europe/London' from ${from})`;
  const end = (from: SQL) => sql`(select (week + 7)::timestamp at time zone 'Europe/London' from ${from})`;
  const edges = desc
    ? sql`${bookings.createdAt} < ${end(sql`pick`)} and ${bookings.createdAt} >= ${start(sql`stop`)}`
    : sql`${bookings.createdAt} >= ${start(sql`pick`)} and ${bookings.createdAt} < ${end(sql`stop`)}`;
  // each trip's weeks read from its own index entries (booking_trip_weeks_read_idx): for the
  // future trips' 22,000 of 128,000 rows, 7 ms where a scan of them all took 20
  const rows = await queryRows<{ id: number | string }>(
    db,
    sql`with weeks as (
        select bw.week, sum(bw.n)::bigint as n
        from ${trips} t cross join lateral (select * from ${counts} b where b.trip_id = t.id offset 0) bw
        ${weekConditions ? sql`where ${weekConditions}` : sql``}
        group by bw.week
      ), counted as (
        select week, n, coalesce(sum(n) over (order by week ${dir} rows between unbounded preceding and 1 preceding), 0) as before
        from weeks
      ), pick as (
        select week, before from counted where before <= ${offset} and before + n > ${offset} limit 1
      ), stop as (
        select week from counted where before < ${offset + limit} order by week ${back} limit 1
      )
      select ${bookings.id} as id from ${bookings}
      where ${where ? sql`${where} and ` : sql``}${edges}
      order by ${bookings.createdAt} ${dir}, ${bookings.id} ${dir}
      limit ${limit} offset (select ${offset}::bigint - before from pick)`,
  );
  return rows.map((r) => Number(r.id));
}

export async function listBookings(db: Db, f: BookingFilter, options: ListOptions = {}): Promise<BookingPage> {
  const broadSearch = Boolean(f.name || f.telephone || f.address);
  const estimateFrom = options.exactCountBelow ?? EXACT_COUNT_BELOW;
  // a text search counts fewer matches exactly than the other filters (SEARCH_COUNT_BELOW)
  const exactCountBelow = broadSearch
    ? Math.min(estimateFrom, options.searchCountBelow ?? SEARCH_COUNT_BELOW)
    : estimateFrom;
  const where = bookingConditions(f, options.fundraising);
  const joined = needsTrip(f);
  const offset = (f.page - 1) * f.per_page;
  // the bookings that match, joined to their trip and its country only when a filter or the sort
  // reads them; written in SQL rather than with the query builder, which took three times as long
  // to turn into text, on every request (issue 33)
  const from = joined
    ? sql`${bookings} inner join ${trips} on ${eq(trips.id, bookings.tripId)} left join ${countries} on ${tripCountry}`
    : sql`${bookings}`;
  const filtered = where ? sql`${from} where ${where}` : from;
  const matching = sql`select 1 from ${filtered}`;
  // the planner takes a fundraising state to be independent of the trip and its departure,
  // which it is not (the milestones count back from the departure): at 1M it was 75% out for
  // all trips, and a third of the matches for one trip, which then counted 10,000 rows at
  // random over the table. A 1% sample of the table's pages is within a few per cent.
  const bySample = !options.estimate && Boolean(f.fundraising);
  const judge = options.estimate ?? ((q) => (bySample ? sampledRows(db, joined, where) : estimateRows(db, q)));
  /** The total, when the page does not tell it: counted when the estimate is small, else the estimate. */
  const countTotal = async (): Promise<{ n: number; estimated: boolean }> => {
    const estimate = await judge(matching);
    if (estimate >= estimateFrom) return { n: roundEstimate(estimate), estimated: true };
    if (estimate >= exactCountBelow) {
      // a search of some thousands: its total from the sample, as the planner's guess at a
      // trigram match is only a guess (6,666 for 4,901); when the sample sees few, counted after
      // all. A fundraising state was judged by the sample already.
      const sampled = bySample ? estimate : await sampledRows(db, joined, where);
      if (sampled >= exactCountBelow) return { n: roundEstimate(sampled), estimated: true };
    }
    // counted, but never past the threshold: the planner can misjudge a filter it cannot see
    // into (a fundraising state is a CASE over several columns) by a hundred times, and an
    // exact count of a quarter of a million rows is what the threshold is there to avoid
    const [counted] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (${matching} limit ${exactCountBelow + 1}) m`,
    );
    const n = Number(counted?.n ?? 0);
    if (n <= exactCountBelow) return { n, estimated: false };
    return { n: Math.max(roundEstimate(await sampledRows(db, joined, where)), n), estimated: true };
  };
  // A text search finds its matches by a trigram index and reads every one of them to sort them,
  // and its count reads the same rows again. For the searches that often match more than a page (a
  // name, part of a telephone number, a town or post code), when the page's ids take longer than
  // EARLY_COUNT_AFTER_MS the count starts beside them rather than after them; a quick answer (one
  // traveller found, whose page tells the total) never starts it.
  let early: Promise<{ n: number; estimated: boolean }> | undefined;
  const startCount = () => {
    early = countTotal();
    // when the page turns out to tell the total, the early count is not waited for
    early.catch(() => {});
  };

  // first the page's ids, from the bookings alone when that is enough (the sort indexes carry the
  // usual filters' columns, so deep pages are read from the index alone); then their rows.
  // One row more than the page tells whether there are more.
  const ids = async () =>
    f.sort_field === 'trip_name'
      ? await idsByTripName(db, f, where, f.per_page + 1, offset)
      : ((await idsByWeek(db, f, where, f.per_page + 1, offset, options.weekJumpFrom)) ??
        (
          await queryRows<{ id: number | string }>(
            db,
            sql`select ${bookings.id} as id from ${filtered}
              order by ${sql.join(bookingOrder(f), sql`, `)} limit ${f.per_page + 1} offset ${offset}`,
          )
        ).map((r) => Number(r.id)));
  const finding = ids();
  const after = options.earlyCountAfterMs ?? EARLY_COUNT_AFTER_MS;
  if (broadSearch && after === 0) startCount();
  const timer = broadSearch && after > 0 ? setTimeout(startCount, after) : undefined;
  const found = await finding.finally(() => clearTimeout(timer));
  const pageIds = found.slice(0, f.per_page);
  // the last page tells the total without counting; otherwise it is counted (or estimated) while the page's rows are read
  const lastPage = found.length <= f.per_page && (found.length > 0 || offset === 0);
  const [total, fetched] = await Promise.all([
    lastPage ? { n: offset + found.length, estimated: false } : (early ?? countTotal()),
    pageIds.length ? rowsOf(db).execute({ ids: `{${pageIds.join(',')}}` }) : [],
  ]);
  const estimated = total.estimated;
  // an estimate is never fewer than this page shows to be there
  const n = estimated ? Math.max(total.n, found.length > f.per_page ? offset + f.per_page + 1 : 0) : total.n;

  const position = new Map(pageIds.map((id, i) => [id, i]));
  const rows = fetched.sort((a, b) => position.get(a.b.id)! - position.get(b.b.id)!);

  let answers = new Map<number, Record<string, string>>();
  if (f.withCustomFields && rows.length) {
    const found = await db
      .select({
        bookingId: bookingCustomFieldAnswers.bookingId,
        label: tripCustomFields.label,
        answer: bookingCustomFieldAnswers.answer,
      })
      .from(bookingCustomFieldAnswers)
      .innerJoin(tripCustomFields, eq(tripCustomFields.id, bookingCustomFieldAnswers.customFieldId))
      .where(
        inArray(
          bookingCustomFieldAnswers.bookingId,
          rows.map((r) => r.b.id),
        ),
      );
    answers = new Map();
    for (const a of found) answers.set(a.bookingId, { ...(answers.get(a.bookingId) ?? {}), [a.label]: a.answer });
  }

  const data: BookingRow[] = rows.map(({ b, ...r }) => ({
    id: b.id,
    ref: b.ref,
    created_at: iso(b.createdAt),
    deposit_payment_date: b.depositPaymentDate,
    status: b.status as BookingRow['status'],
    trip: { id: b.tripId, name: r.tripName, departure: r.departure, return: r.returnDate },
    user_id: b.userId,
    user_url: b.userId ? `/users/${b.userId}/edit` : null,
    title: b.title,
    first_name: b.firstName,
    last_name: b.lastName,
    preferred_name: b.preferredName,
    email: b.email,
    mobile: b.mobile,
    gender: b.gender,
    date_of_birth: b.dateOfBirth,
    age: r.age === null ? null : Number(r.age),
    address_1: b.address1,
    address_4: b.address4,
    post_code: b.postCode,
    room_type: b.roomType,
    room_ref: b.roomRef,
    share_with: b.shareWith,
    double_room: b.doubleRoom,
    passport_valid: r.passport,
    funding_type: b.fundingType,
    travel_basis: b.travelBasis,
    medical_conditions: b.medicalConditions,
    form_complete: b.formComplete,
    ...(f.withCustomFields ? { custom_fields: answers.get(b.id) ?? {} } : {}),
  }));
  return { ...pageOf(data, n, f.page, f.per_page), total_is_estimate: estimated };
}
