import { sql } from 'drizzle-orm';
import { BOOKING_REF_ALPHABET, BOOKING_REF_PREFIX } from '../../shared/booking-ref.ts';
import { queryRows, type Db } from '../client.ts';

const FIRST = [
  'Olivia',
  'Amelia',
  'Isla',
  'Ava',
  'Mia',
  'Ivy',
  'Lily',
  'Freya',
  'Grace',
  'Sophia',
  'Oliver',
  'George',
  'Noah',
  'Arthur',
  'Leo',
  'Harry',
  'Oscar',
  'Jack',
  'Charlie',
  'Thomas',
  'Aisha',
  'Priya',
  'Mohammed',
  'Yusuf',
  'Chloe',
  'Emily',
  'James',
  'William',
  'Daniel',
  'Ella',
];
const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Wright',
  'Robinson',
  'Thompson',
  'Evans',
  'Walker',
  'White',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Khan',
  'Lewis',
  'Hughes',
  'Edwards',
  'Turner',
  'Hill',
  'Moore',
  'Scott',
  'Cooper',
];
const TOWNS = ['Leeds', 'York', 'Bristol', 'Cardiff', 'Norwich', 'Exeter', 'Derby', 'Bath', 'Chester', 'Durham'];

const arr = (values: string[]) => sql.raw(`ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]`);

/** About as many bookings as a departure of a real operator has: more trips are made when there would be more. */
export const BOOKINGS_PER_TRIP = 330;
const DOMAINS = [
  'gmail.com',
  'outlook.com',
  'hotmail.co.uk',
  'yahoo.co.uk',
  'icloud.com',
  'btinternet.com',
  'live.co.uk',
  'sky.com',
];
/**
 * The generated bookings' references: TD- and seven of the app's letters and digits, as scattered
 * as the app's random six (src/shared/booking-ref.ts) and as searched, one letter longer so that
 * none is ever a demo booking's. A LIKE pattern that finds them and nothing else. (They were TDS
 * and the row number in seven digits, which share each trigram with thousands of others: a search
 * for one reference checked 1,000 rows at a million, where a real office's checks one.)
 */
export const GENERATED_REFS = `${BOOKING_REF_PREFIX}_______`;
const REF_LETTERS = 7;
// the row number times a number prime to the 31 letters, modulo every reference there can be:
// each row its own reference, and neighbouring rows' far apart
const REF_SPACE = BOOKING_REF_ALPHABET.length ** REF_LETTERS;
const REF_STEP = 387_420_489;
/** Row number g's reference (SQL over an int g). */
export const generatedRef = (g: string) =>
  sql.raw(
    `'${BOOKING_REF_PREFIX}' || ` +
      Array.from(
        { length: REF_LETTERS },
        (_, i) =>
          `substr('${BOOKING_REF_ALPHABET}', 1 + ((((${g})::bigint * ${REF_STEP}) % ${REF_SPACE}) / ${BOOKING_REF_ALPHABET.length ** i} % ${BOOKING_REF_ALPHABET.length})::int, 1)`,
      ).join(' || '),
  );

const AREAS = ['LS', 'YO', 'BS', 'CF', 'NR', 'EX', 'DE', 'BA', 'CH', 'DH', 'M', 'B', 'L', 'S', 'N', 'SW', 'SE', 'E'];

/**
 * Departures enough for `bookings` more bookings at about BOOKINGS_PER_TRIP each, copied in turn
 * from the trips there are (their kind, country, charity, price, length), one every few days from
 * September 2023 to June 2028, each named after its template and month ("Kilimanjaro Summit
 * Trek, March 2027"). None when the trips there are suffice.
 */
async function seedTrips(db: Db, bookings: number) {
  const [have] = await queryRows<{ trips: number; bookings: number }>(
    db,
    sql`select (select count(*) from trips)::int as trips, (select count(*) from bookings)::int as bookings`,
  );
  const missing = Math.ceil((Number(have?.bookings ?? 0) + bookings) / BOOKINGS_PER_TRIP) - Number(have?.trips ?? 0);
  if (missing <= 0) return;
  await db.execute(sql`
    with templates as (
      select row_number() over (order by id) as k, count(*) over () as n, * from trips
      -- the office's own trips, not those made by an earlier run (named "…, March 2027")
      where status <> 'cancelled' and deleted_at is null and archived_at is null and name !~ ', [A-Z][a-z]+ [0-9]{4}$'
    ), made as (
      select g, t.*, date '2023-09-01' + ((g - 1) * 1765 / ${missing})::int as dep
      from generate_series(1, ${missing}::int) g join templates t on t.k = 1 + g % t.n
    )
    insert into trips (name, country_id, charity_id, departure_date, return_date, type, level, status, deposit_pence,
      cost_pence, capacity, require_passport, funding)
    select regexp_replace(name, '\\s*(\\d{4}|\\(withdrawn\\))$', '') || ', ' || to_char(dep, 'FMMonth YYYY'),
      country_id, charity_id, dep, dep + (return_date - departure_date), type, level,
      case when dep < current_date then 'closed' else 'open' end, deposit_pence, cost_pence, 400, require_passport, funding
    from made order by g`);
}

/**
 * Adds `total` bookings spread over the trips (made first, when needed, at about
 * BOOKINGS_PER_TRIP a departure), made inside the database by one INSERT … SELECT per batch (no
 * row crosses the wire). Values come from hashes of the row number, so the same run makes the
 * same data: names, email addresses at the usual providers, and post codes of many areas, so
 * that a search finds what it would in a real office.
 */
export async function seedScale(db: Db, total: number, onProgress: (done: number) => void, batch = 50_000) {
  await seedTrips(db, total);
  const tripRows = await queryRows<{ id: number }>(db, sql`select id from trips order by id`);
  const tripIds = tripRows.map((r) => Number(r.id));
  if (!tripIds.length) throw new Error('There are no trips to add bookings to: load the demo office first.');
  const [startRow] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from bookings where ref like ${GENERATED_REFS}`,
  );
  const offset = Number(startRow?.n ?? 0);
  const trips = sql.raw(`ARRAY[${tripIds.join(',')}]::int[]`);
  for (let done = 0; done < total; done += batch) {
    const from = offset + done + 1;
    const to = offset + Math.min(done + batch, total);
    await db.execute(sql`
      insert into bookings (ref, trip_id, status, funding_type, travel_basis, first_name, last_name, preferred_name, email,
        mobile, address_1, address_4, post_code, gender, date_of_birth, room_type, room_ref, passport_number,
        passport_expiry_date, medical_conditions, deposit_payment_date, created_at, updated_at)
      select
        ${generatedRef('g')},
        t.id,
        (array['confirmed','confirmed','provisional','cancelled'])[1 + abs(hashint4(g + 1)) % 4],
        (array['free','flexi','self','fundraise'])[1 + abs(hashint4(g + 2)) % 4],
        case when abs(hashint4(g + 3)) % 7 = 0 then 'landonly' else 'flights' end,
        (${arr(FIRST)})[1 + abs(hashint4(g + 4)) % ${FIRST.length}],
        (${arr(LAST)})[1 + abs(hashint4(g + 5)) % ${LAST.length}],
        null,
        lower((${arr(FIRST)})[1 + abs(hashint4(g + 4)) % ${FIRST.length}] || '.' || (${arr(LAST)})[1 + abs(hashint4(g + 5)) % ${LAST.length}])
          || g || '@' || (${arr(DOMAINS)})[1 + abs(hashint4(g + 21)) % ${DOMAINS.length}],
        '07' || lpad((abs(hashint4(g + 6)) % 1000000000)::text, 9, '0'),
        (1 + abs(hashint4(g + 7)) % 200) || ' High Street',
        (${arr(TOWNS)})[1 + abs(hashint4(g + 8)) % ${TOWNS.length}],
        (${arr(AREAS)})[1 + abs(hashint4(g + 9)) % ${AREAS.length}] || (1 + abs(hashint4(g + 22)) % 30) || ' '
          || (abs(hashint4(g + 10)) % 10) || substr('ABDEFGHJLNPQRSTUWXYZ', 1 + abs(hashint4(g + 23)) % 20, 1)
          || substr('ABDEFGHJLNPQRSTUWXYZ', 1 + abs(hashint4(g + 24)) % 20, 1),
        (array['female','male'])[1 + abs(hashint4(g + 11)) % 2],
        date '1960-01-01' + (abs(hashint4(g + 12)) % 16000),
        (array['Twin','Double','Single'])[1 + abs(hashint4(g + 13)) % 3],
        'R' || lpad((1 + abs(hashint4(g + 14)) % 40)::text, 2, '0'),
        case when abs(hashint4(g + 15)) % 8 = 0 then null else lpad((abs(hashint4(g + 16)) % 1000000000)::text, 9, '0') end,
        case when abs(hashint4(g + 15)) % 8 = 0 then null else date '2024-01-01' + (abs(hashint4(g + 17)) % 4000) end,
        abs(hashint4(g + 18)) % 6 = 0,
        case when abs(hashint4(g + 1)) % 4 < 2 then date '2024-01-01' + (abs(hashint4(g + 19)) % 1000) else null end,
        -- made in the year before the trip departs, up to a week before, and never after now (a
        -- trip more than a year away has been on sale for the last three months)
        w.lo + (w.hi - w.lo) * ((abs(hashint4(g + 20)) % 1000000) / 1000000.0)::float8,
        now()
      from generate_series(${from}::int, ${to}::int) g
      join trips t on t.id = (${trips})[1 + abs(hashint4(g)) % ${tripIds.length}]
      cross join lateral (select least(now(), t.departure_date - 7 + time '18:00') as hi) h
      cross join lateral (select case when h.hi - (t.departure_date - 365 + time '09:00') > interval '90 days'
        then t.departure_date - 365 + time '09:00' else h.hi - interval '90 days' end as lo, h.hi) w`);
    onProgress(Math.min(done + batch, total));
  }
  // a settled table, as autovacuum leaves it: statistics, and a visibility map for index-only scans
  await db.execute(sql`vacuum analyze bookings`);
}
