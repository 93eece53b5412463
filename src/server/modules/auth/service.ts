import { audit } from '../../audit/audit.ts';
import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { CurrentUser } from '../../../contract/auth.ts';
import { LOGIN_FAILED } from '../../../contract/auth.ts';
import { FULL_ACCESS, type TeamPermissions } from '../../../contract/team-constants.ts';
import { ROLE_NAMES, ROLES } from '../../../contract/constants.ts';
import type { Db } from '../../../db/client.ts';
import { loginFailures, rateLimits, sessions, teams, users } from '../../../db/schema/index.ts';
import { HttpError, validationError } from '../../errors.ts';
import { generatePassword, hashPassword, verifyDecoy, verifyPassword } from '../../../shared/password.ts';

export const MAX_FAILURES_PER_MINUTE = 5;

export type AuthUser = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  roleId: number;
  /** the charity a Charity user follows in the portal; null for everyone else */
  charityId: number | null;
  /** when "sign out everywhere" last ended this user's sessions (travellers) */
  sessionsEndedAt?: Date | null;
  /** an Administrator's team as it is now, read with the user on every request (issue 36); null for others */
  team: UserTeam | null;
};

export type UserTeam = { id: number; name: string; full_access: boolean; permissions: TeamPermissions };

export function toCurrentUser(user: AuthUser): CurrentUser {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    user_role_id: user.roleId,
    role: { display_name: ROLE_NAMES[user.roleId] ?? 'Unknown' },
    charity_id: user.roleId === ROLES.charity ? user.charityId : null,
    team: user.team ? { id: user.team.id, name: user.team.name } : null,
    permissions: user.team?.permissions ?? null,
  };
}

/** What a request knows of its user, from a session or a token alike. */
export const authColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  roleId: users.userRoleId,
  charityId: users.charityId,
  /** "sign out everywhere": a session made before it is over */
  sessionsEndedAt: users.sessionsEndedAt,
  // one subquery, not a join (Full access reads every permission there is, whatever is stored): the user's read stays one row from one index whatever the caller joins
  team: sql<UserTeam | null>`(select json_build_object('id', t.id, 'name', t.name, 'full_access', t.full_access, 'permissions', case when t.full_access then ${sql.raw(`'${JSON.stringify(FULL_ACCESS)}'::jsonb`)} else t.permissions end) from ${teams} t where t.id = ${users}.team_id)`,
};

export async function findAuthUser(db: Db, id: number): Promise<AuthUser | null> {
  const rows = await db.select(authColumns).from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

/**
 * Checks an email and password. At most MAX_FAILURES_PER_MINUTE failures a minute per
 * email and IP (counted in the database, so every app server sees them); then 429.
 * A wrong email and a wrong password get the same message and take the same time.
 */
export async function attemptLogin(db: Db, email: string, password: string, ip: string): Promise<AuthUser> {
  const key = email.trim().toLowerCase();
  const since = new Date(Date.now() - 60_000);
  // the attempt is recorded before the password is checked, so guesses sent in parallel
  // count against each other; a successful sign-in clears them again
  const [attempt] = await db.insert(loginFailures).values({ email: key, ip }).returning({ id: loginFailures.id });
  const [recent] = await db
    .select({ n: count(), oldest: sql<string>`min(${loginFailures.attemptedAt})` })
    .from(loginFailures)
    .where(
      and(
        eq(loginFailures.email, key),
        eq(loginFailures.ip, ip),
        gt(loginFailures.attemptedAt, since),
        lt(loginFailures.id, attempt!.id + 1),
      ),
    );
  if ((recent?.n ?? 0) > MAX_FAILURES_PER_MINUTE) {
    // a refused attempt is not a failure of its own: it does not lengthen the wait
    await db.delete(loginFailures).where(eq(loginFailures.id, attempt!.id));
    const oldest = recent?.oldest ? new Date(recent.oldest).getTime() : Date.now();
    const seconds = Math.max(1, Math.ceil((oldest + 60_000 - Date.now()) / 1000));
    throw new HttpError(429, `Too many login attempts. Please try again in ${seconds} seconds.`, undefined, {
      'retry-after': String(seconds),
    });
  }

  const rows = await db
    .select({ ...authColumns, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`lower(${users.email}) = ${key}`)
    .limit(1);
  const found = rows[0];
  const ok = found?.passwordHash
    ? await verifyPassword(found.passwordHash, password)
    : (await verifyDecoy(password), false);
  if (!found || !ok) throw validationError({ email: [LOGIN_FAILED] });
  const { passwordHash: _, ...user } = found;
  await db.transaction(async (tx) => {
    await tx.delete(loginFailures).where(and(eq(loginFailures.email, key), eq(loginFailures.ip, ip)));
    const name = `${user.firstName} ${user.lastName}`.trim();
    await audit(tx, {
      action: 'auth.signed_in',
      subject: { type: 'user', id: user.id },
      actor: { type: 'user', userId: user.id, name, tokenId: null, clientId: null },
      summary: 'signed in',
    });
  });
  return user;
}

/** Old failures, expired sessions and ended rate-limit windows are of no use; called at start and hourly. */
export async function purgeExpired(db: Db): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
  await db.delete(loginFailures).where(lt(loginFailures.attemptedAt, new Date(Date.now() - 3_600_000)));
  await db.delete(rateLimits).where(lt(rateLimits.resetAt, new Date()));
}

export type AdminBootstrap = { created: false } | { created: true; email: string; generatedPassword: string | null };

/**
 * When no Administrator exists, makes one from ADMIN_EMAIL/ADMIN_PASSWORD, or with a
 * strong generated password that the caller prints once.
 */
export async function ensureAdministrator(
  db: Db,
  given: { email?: string | undefined; password?: string | undefined },
): Promise<AdminBootstrap> {
  const [existing] = await db.select({ n: count() }).from(users).where(eq(users.userRoleId, ROLES.administrator));
  if ((existing?.n ?? 0) > 0) return { created: false };
  const email = given.email ?? 'admin@tripdesk.local';
  const generatedPassword = given.password ? null : generatePassword();
  const passwordHash = await hashPassword(given.password ?? generatedPassword!);
  // an existing account with that email is promoted rather than duplicated
  const updated = await db
    .update(users)
    .set({ passwordHash, userRoleId: ROLES.administrator, updatedAt: new Date() })
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .returning({ id: users.id });
  if (updated.length === 0) {
    await db.insert(users).values({
      firstName: 'Tripdesk',
      lastName: 'Administrator',
      email,
      passwordHash,
      userRoleId: ROLES.administrator,
    });
  }
  return { created: true, email, generatedPassword };
}
