import { sql } from 'drizzle-orm';
import { ukToday } from '../../contract/dates.ts';
import { queryRows, type Db } from '../client.ts';
import { GENERATED_REFS } from './scale.ts';

const NOTES = [
  'Called about the balance: will pay by the end of the month.',
  'Asked to share a room with a friend on the same trip.',
  'Sent the kit list again by email.',
  'Vegetarian: told the ground team.',
  'Passport renewal in progress: will send the new number.',
  'Fundraising page set up; first donations in.',
  'Changed mobile number on the phone today.',
  'Wants to add the pre-trip training weekend.',
];

/** The generated bookings' range of ids (those seedScale made), or null when there are none. */
async function generatedRange(db: Db) {
  const [range] = await queryRows<{ lo: string | null; hi: string | null }>(
    db,
    sql`select min(id) as lo, max(id) as hi from bookings where ref like ${GENERATED_REFS}`,
  );
  return range?.lo ? { lo: Number(range.lo), hi: Number(range.hi) } : null;
}

/**
 * What the generated fundraisers of a large office have: the charity of their trip (charity
 * trips), and their fundraising entries — none for one in five, else one to four entries whose
 * total spreads from a few pounds to past the target, dated between the booking and today — so the
 * list's Fundraising filter finds every state in realistic shares. Only bookings with no entries
 * yet are given any, so a second run adds nothing. Made inside the database, `batch` bookings
 * per INSERT … SELECT; values come from hashes of the ids, so the same bookings get the same.
 */
export async function seedFundraising(db: Db, onProgress: (done: number, of: number) => void, batch = 100_000) {
  const range = await generatedRange(db);
  if (!range) return 0;
  const today = ukToday();
  let entries = 0;
  for (let from = range.lo; from <= range.hi; from += batch) {
    const to = Math.min(from + batch - 1, range.hi);
    await db.execute(sql`
      update bookings b set charity_id = t.charity_id
      from trips t
      where t.id = b.trip_id and t.type = 'charity' and t.charity_id is not null and b.charity_id is null
        and b.id between ${from} and ${to} and b.ref like ${GENERATED_REFS} and b.funding_type in ('fundraise', 'flexi')`);
    const [made] = await queryRows<{ n: number }>(
      db,
      sql`with made as (
        insert into fundraising_entries (booking_id, amount_pence, entry_date, source, note, created_at)
        select b.id,
          -- the booking's share of a £2,500 target: 2% to 115%, split over its entries
          greatest(100, (250000 * (2 + abs(hashint4(b.id::int + 31)) % 114) / 100) / e.n),
          least(${today}::date, b.created_at::date + (e.k * 20 + abs(hashint4(b.id::int * 4 + e.k)) % 20)),
          (array['page_total','page_total','offline','gift_aid','charity_confirmed'])[1 + abs(hashint4(b.id::int * 4 + e.k + 1)) % 5],
          case when e.k = 1 then 'Imported' end,
          least(${today}::date, b.created_at::date + e.k * 20) + time '10:00'
        from bookings b
        cross join lateral (select 1 + abs(hashint4(b.id::int + 30)) % 4 as n) c
        cross join lateral (select k, c.n from generate_series(1, c.n) k) e
        where b.id between ${from} and ${to} and b.ref like ${GENERATED_REFS} and b.funding_type in ('fundraise', 'flexi')
          and abs(hashint4(b.id::int + 29)) % 5 <> 0
          and b.created_at::date <= ${today}::date
          and not exists (select 1 from fundraising_entries x where x.booking_id = b.id)
        returning 1
      ) select count(*)::int as n from made`,
    );
    entries += Number(made?.n ?? 0);
    onProgress(to - range.lo + 1, range.hi - range.lo + 1);
  }
  await db.execute(sql`vacuum analyze fundraising_entries`);
  await db.execute(sql`vacuum analyze bookings`);
  return entries;
}

/**
 * Notes on the generated bookings as an office writes them: about one booking in two has one
 * to three, by the office's first administrator, a few days to months after the booking. Only
 * bookings with no notes yet are given any.
 */
export async function seedNotes(db: Db, onProgress: (done: number, of: number) => void, batch = 100_000) {
  const range = await generatedRange(db);
  if (!range) return 0;
  const [author] = await queryRows<{ id: number }>(
    db,
    sql`select id from users where user_role_id = 1 order by id limit 1`,
  );
  const texts = sql.raw(`ARRAY[${NOTES.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`);
  let notes = 0;
  for (let from = range.lo; from <= range.hi; from += batch) {
    const to = Math.min(from + batch - 1, range.hi);
    const [made] = await queryRows<{ n: number }>(
      db,
      sql`with made as (
        insert into booking_notes (booking_id, note_text, user_id, created_at, updated_at)
        select b.id, '<p>' || (${texts})[1 + abs(hashint4(b.id::int * 3 + k)) % ${NOTES.length}] || '</p>', ${author?.id ?? null}::int,
          b.created_at + make_interval(days => k * (1 + abs(hashint4(b.id::int + k + 40)) % 60)),
          b.created_at + make_interval(days => k * (1 + abs(hashint4(b.id::int + k + 40)) % 60))
        from bookings b
        cross join lateral generate_series(1, 1 + abs(hashint4(b.id::int + 41)) % 3) k
        where b.id between ${from} and ${to} and b.ref like ${GENERATED_REFS} and abs(hashint4(b.id::int + 42)) % 2 = 0
          and not exists (select 1 from booking_notes x where x.booking_id = b.id)
        returning 1
      ) select count(*)::int as n from made`,
    );
    notes += Number(made?.n ?? 0);
    onProgress(to - range.lo + 1, range.hi - range.lo + 1);
  }
  await db.execute(sql`vacuum analyze booking_notes`);
  return notes;
}
