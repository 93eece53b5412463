import { sql } from 'drizzle-orm';
import { ROLES } from '../../../contract/constants.ts';
import { queryRows, type Tx } from '../../../db/client.ts';
import { pgError } from '../../sql.ts';
import { users } from '../../../db/schema/index.ts';

/**
 * The account a traveller's booking goes on: the user with this email (whatever its case), or a
 * new End User made with it. Two makers of the same new account at once: the second gets
 * users_email_lower_unique and retries.
 */
export async function endUserFor(
  tx: Tx,
  who: { email: string; first_name: string; last_name: string },
): Promise<{ id: number; created: boolean }> {
  // one round trip (online booking's hot path): the account with this email, or a new End User's
  const [row] = await queryRows<{ id: string; created: boolean }>(
    tx,
    sql`with found as (select id from ${users} where lower(email) = ${who.email.toLowerCase()}),
      made as (insert into ${users} (email, first_name, last_name, user_role_id)
        select ${who.email}, ${who.first_name}, ${who.last_name}, ${ROLES.endUser} where not exists (select from found)
        returning id)
      select id, false as created from found union all select id, true as created from made`,
  );
  return { id: Number(row!.id), created: row!.created };
}

/**
 * The accounts of several bookings made in one statement (a launch day's batch), in their order: as
 * `endUserFor`, each the user with its email or a new End User, one account for an email given twice
 * (made for the first, which alone is `created`).
 */
export async function endUsersFor(
  tx: Tx,
  who: Array<{ email: string; first_name: string; last_name: string }>,
): Promise<Array<{ id: number; created: boolean }>> {
  const input = sql.join(
    who.map((w, n) => sql`(${n}::int, ${w.email}::text, ${w.first_name}::text, ${w.last_name}::text)`),
    sql`, `,
  );
  const rows = await queryRows<{ id: string; made: boolean }>(
    tx,
    sql`with input (n, email, first_name, last_name) as (values ${input}),
      found as (select lower(u.email) as e, u.id from ${users} u where lower(u.email) in (select lower(email) from input)),
      made as (insert into ${users} (email, first_name, last_name, user_role_id)
        select distinct on (lower(i.email)) i.email, i.first_name, i.last_name, ${ROLES.endUser}::int from input i
        where not exists (select from found f where f.e = lower(i.email))
        order by lower(i.email), i.n
        returning id, lower(email) as e)
      select coalesce(f.id, m.id) as id, m.id is not null as made
      from input i left join found f on f.e = lower(i.email) left join made m on m.e = lower(i.email)
      order by i.n`,
  );
  const seen = new Set<number>();
  return rows.map((r) => {
    const id = Number(r.id);
    const created = r.made && !seen.has(id);
    seen.add(id);
    return { id, created };
  });
}

/** A person's names from the one field a form asks for: the first word, and the rest. */
export function namesOf(full: string): { first_name: string; last_name: string } {
  const [first, ...rest] = full.trim().split(/\s+/);
  return { first_name: first!, last_name: rest.join(' ') || first! };
}

/**
 * A new booking's transaction met a clash of random references, or another request making the
 * same new account at once: either passes on a retry.
 */
export function isNewBookingClash(error: unknown): boolean {
  const cause = pgError(error);
  return (
    cause.code === '23505' &&
    (cause.constraint === 'bookings_ref_unique' || cause.constraint === 'users_email_lower_unique')
  );
}
