import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import { ROLE_NAMES, ROLES } from '../../../contract/constants.ts';
import type { Paged } from '../../../contract/common.ts';
import { type CreatedUser, type User, USERS_PER_PAGE } from '../../../contract/users.ts';
import type { Db, Tx } from '../../../db/client.ts';
import {
  bookings,
  charities,
  oauthAccessTokens,
  oauthAuthCodes,
  oauthClients,
  oauthRefreshTokens,
  personalAccessTokens,
  sessions,
  teams,
  users,
} from '../../../db/schema/index.ts';
import { assertAnotherFullAccessMember, assertWithinOwn, teamForMember } from '../teams/service.ts';
import { FULL_ACCESS, MANAGE_ABOVE, reachesAll, type TeamPermissions } from '../../../contract/teams.ts';
import { retireCodes, revokeAccessTokens } from '../oauth/service.ts';
import { audit, describeChanges, diff } from '../../audit/audit.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';
import { generatePassword, hashPassword } from '../../../shared/password.ts';
import { escapeLike, pgError } from '../../sql.ts';
import { pageOf } from '../../common/paging.ts';

/** Nothing changed: "saved the trip … without changes" (describeChanges words this case "saved of …"). */

const LAST_ADMIN = 'Tripdesk needs at least one Administrator: make another user an Administrator first.';

// qualified by hand: drizzle leaves columns bare in a one-table select, and a bare "id" here would be bookings.id
const bookingsCount = sql<number>`(select count(*) from ${bookings} b where b.user_id = ${users}.id)`.mapWith(Number);

const columns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  roleId: users.userRoleId,
  stripeCustomerId: users.stripeCustomerId,
  createdAt: users.createdAt,
  bookingsCount,
  charityId: users.charityId,
  charityName: sql<string | null>`(select c.name from ${charities} c where c.id = ${users}.charity_id)`,
  teamId: users.teamId,
  teamName: sql<string | null>`(select t.name from ${teams} t where t.id = ${users}.team_id)`,
};
type Row = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  roleId: number;
  stripeCustomerId: string | null;
  createdAt: Date;
  bookingsCount: number;
  charityId: number | null;
  charityName: string | null;
  teamId: number | null;
  teamName: string | null;
};

const fullName = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();
const roleName = (id: number) => ROLE_NAMES[id] ?? 'Unknown';

const toUser = (r: Row): User => ({
  id: r.id,
  first_name: r.firstName,
  last_name: r.lastName,
  email: r.email,
  user_role_id: r.roleId,
  role: { display_name: ROLE_NAMES[r.roleId] ?? 'Unknown' },
  stripe_customer_id: r.stripeCustomerId,
  charity: r.charityId !== null && r.charityName !== null ? { id: r.charityId, name: r.charityName } : null,
  team: r.teamId !== null && r.teamName !== null ? { id: r.teamId, name: r.teamName } : null,
  created_at: r.createdAt.toISOString(),
  bookings_count: r.bookingsCount,
});

/** Who changes a user: their own team's permissions bound the team they may give (issue 36). */
export type Actor = { userId: number; sessionId?: string | undefined; permissions?: TeamPermissions | null };

export class UserService {
  constructor(private readonly db: Db) {}

  async list(page: number, search?: string): Promise<Paged<User>> {
    const like = search ? `%${escapeLike(search)}%` : null;
    const where = like
      ? or(ilike(users.email, like), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, like))
      : undefined;
    const [total] = await this.db.select({ n: count() }).from(users).where(where);
    const n = Number(total?.n ?? 0);
    const rows = await this.db
      .select(columns)
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(USERS_PER_PAGE)
      .offset((page - 1) * USERS_PER_PAGE);
    return pageOf(rows.map(toUser), n, page, USERS_PER_PAGE);
  }

  async get(id: number, db: Db | Tx = this.db): Promise<User> {
    const [row] = await db.select(columns).from(users).where(eq(users.id, id));
    if (!row) throw notFound('User not found.');
    return toUser(row);
  }

  private async emailTaken(db: Db | Tx, email: string, exceptId?: number) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, exceptId ? ne(users.id, exceptId) : undefined));
    return Boolean(taken);
  }

  /** A new account with a strong generated password, returned this once; only its argon2id hash is kept. */
  async create(
    input: {
      email: string;
      first_name: string;
      last_name: string;
      user_role_id: number;
      team_id?: number | undefined;
    },
    actor?: Actor,
  ): Promise<CreatedUser> {
    if (await this.emailTaken(this.db, input.email))
      throw validationError({ email: ['The email has already been taken.'] });
    const password = generatePassword();
    const passwordHash = await hashPassword(password);
    const id = await this.db.transaction(async (tx) => {
      // an Administrator without a team given joins Full access (the database's rule)
      const team =
        input.user_role_id === ROLES.administrator ? await this.teamToGive(tx, input.team_id ?? null, actor) : null;
      const [row] = await tx
        .insert(users)
        .values({
          email: input.email,
          firstName: input.first_name,
          lastName: input.last_name,
          userRoleId: input.user_role_id,
          teamId: team?.id ?? null,
          passwordHash,
        })
        .returning()
        .catch(uniqueEmail);
      // the generated password is in the reply only: never in the history
      await audit(tx, {
        action: 'user.created',
        subject: { type: 'user', id: row!.id },
        summary: `added the user ${fullName(row!)} (${row!.email}) as ${roleName(row!.userRoleId)}`,
        details: {
          email: row!.email,
          first_name: row!.firstName,
          last_name: row!.lastName,
          user_role_id: row!.userRoleId,
          team_id: row!.teamId,
        },
      });
      return row!.id;
    });
    return { ...(await this.get(id)), password };
  }

  async update(
    actor: Actor,
    input: {
      id: number;
      email: string;
      first_name: string;
      last_name: string;
      user_role_id: number;
      password: string | null;
      charity_id?: number | null | undefined;
      team_id?: number | undefined;
    },
  ): Promise<User> {
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    return this.db.transaction(async (tx) => {
      await staffChangesInTurn(tx);
      const current = await this.lockUser(tx, input.id);
      assertMayManage(actor, current);
      if (await this.emailTaken(tx, input.email, input.id))
        throw validationError({ email: ['The email has already been taken.'] });
      const roleChanges = current.userRoleId !== input.user_role_id;
      if (roleChanges && current.userRoleId === ROLES.administrator) {
        if (input.id === actor.userId) throw validationError({ user_role_id: ['You cannot change your own role.'] });
        await this.assertAnotherAdmin(tx, input.id, 'user_role_id');
      }
      // only a Charity user speaks for a charity; one not given keeps the one it has
      const charityId =
        input.user_role_id !== ROLES.charity
          ? null
          : input.charity_id === undefined
            ? current.charityId
            : input.charity_id;
      const charity =
        charityId === null
          ? null
          : ((
              await tx
                .select({ id: charities.id, name: charities.name })
                .from(charities)
                .where(eq(charities.id, charityId))
            )[0] ?? null);
      if (charityId !== null && !charity) throw validationError({ charity_id: ['The selected charity is invalid.'] });
      const charityChanges = charityId !== current.charityId;
      // an Administrator's team: the one given, else the one they have (Full access for a new one)
      const staying = current.userRoleId === ROLES.administrator;
      const team =
        input.user_role_id !== ROLES.administrator
          ? null
          : input.team_id !== undefined && input.team_id !== current.teamId
            ? await this.teamToGive(tx, input.team_id, actor)
            : staying
              ? { id: current.teamId!, name: current.teamName ?? '', fullAccess: current.teamFullAccess }
              : await this.teamToGive(tx, null, actor);
      const teamChanges = (team?.id ?? null) !== current.teamId;
      if (teamChanges && staying) {
        if (input.id === actor.userId) throw validationError({ team_id: ['You cannot change your own team.'] });
        if (current.teamFullAccess && !team?.fullAccess)
          await assertAnotherFullAccessMember(tx, input.id, team ? 'team_id' : 'user_role_id');
      }
      await tx
        .update(users)
        .set({
          email: input.email,
          firstName: input.first_name,
          lastName: input.last_name,
          userRoleId: input.user_role_id,
          charityId,
          teamId: team?.id ?? null,
          ...(passwordHash ? { passwordHash } : {}),
          updatedAt: new Date(),
        })
        .where(eq(users.id, input.id))
        .catch(uniqueEmail);
      // new keys or new powers: every other way in that the user had is closed
      if (passwordHash || roleChanges || charityChanges) await this.endAccess(tx, input.id, actor);

      const name = `${input.first_name} ${input.last_name}`.trim();
      const subject = { type: 'user', id: input.id };
      const changes = diff({
        first_name: [current.firstName, input.first_name],
        last_name: [current.lastName, input.last_name],
        email: [current.email, input.email],
      });
      // a save that changes nothing at all is still recorded, as every other edit is
      if (Object.keys(changes).length || (!roleChanges && !passwordHash && !charityChanges)) {
        await audit(tx, {
          action: 'user.updated',
          subject,
          changes,
          summary: describeChanges(changes, `the user ${name}`),
        });
      }
      if (roleChanges) {
        await audit(tx, {
          action: 'user.role_changed',
          subject,
          changes: { user_role_id: [current.userRoleId, input.user_role_id] },
          summary: `changed the role of ${name} from ${roleName(current.userRoleId)} to ${roleName(input.user_role_id)}`,
        });
      }
      if (charityChanges) {
        await audit(tx, {
          action: 'user.charity_changed',
          subject,
          changes: { charity_id: [current.charityId, charityId] },
          summary: charity ? `linked ${name} to the charity ${charity.name}` : `unlinked ${name} from their charity`,
        });
      }
      if (teamChanges && team && staying) {
        await audit(tx, {
          action: 'user.team_changed',
          subject,
          changes: { team_id: [current.teamId, team.id] },
          summary: `moved ${name} from the team ${current.teamName ?? '(none)'} to ${team.name}`,
        });
      }
      if (passwordHash) {
        await audit(tx, {
          action: 'user.password_changed',
          subject,
          summary: input.id === actor.userId ? 'changed their own password' : `changed the password of ${name}`,
        });
      }
      return this.get(input.id, tx);
    });
  }

  /** Bookings, payments and notes stay: their links to the user become empty, the traveller details remain. */
  async delete(actor: Actor, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await staffChangesInTurn(tx);
      const current = await this.lockUser(tx, id);
      assertMayManage(actor, current);
      if (id === actor.userId) throw new HttpError(422, 'You cannot delete your own account.');
      if (current.userRoleId === ROLES.administrator) {
        await this.assertAnotherAdmin(tx, id);
        if (current.teamFullAccess) await assertAnotherFullAccessMember(tx, id);
      }
      await tx.delete(users).where(eq(users.id, id));
      await audit(tx, {
        action: 'user.deleted',
        subject: { type: 'user', id },
        summary: `deleted the user ${fullName(current)} (${current.email})`,
        details: {
          email: current.email,
          first_name: current.firstName,
          last_name: current.lastName,
          user_role_id: current.userRoleId,
        },
      });
    });
  }

  private async lockUser(tx: Tx, id: number) {
    const [row] = await tx
      .select({
        id: users.id,
        userRoleId: users.userRoleId,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        charityId: users.charityId,
        teamId: users.teamId,
      })
      .from(users)
      .where(eq(users.id, id))
      .for('update');
    if (!row) throw notFound('User not found.');
    const [team] =
      row.teamId === null
        ? []
        : await tx
            .select({ name: teams.name, fullAccess: teams.fullAccess, permissions: teams.permissions })
            .from(teams)
            .where(eq(teams.id, row.teamId));
    return {
      ...row,
      teamName: team?.name ?? null,
      teamFullAccess: team?.fullAccess ?? false,
      teamPermissions: team ? (team.fullAccess ? FULL_ACCESS : team.permissions) : null,
    };
  }

  /**
   * The team an Administrator is given: the one named (null: Full access), never one that may do
   * more than the team of whoever gives it.
   */
  private async teamToGive(tx: Tx, teamId: number | null, actor: Actor | undefined) {
    const id =
      teamId ?? (await tx.select({ id: teams.id }).from(teams).where(eq(teams.fullAccess, true)))[0]?.id ?? null;
    if (id === null) throw validationError({ team_id: ['The selected team is invalid.'] });
    const team = await teamForMember(tx, id);
    if (actor?.permissions !== undefined) assertWithinOwn(actor.permissions, team.permissions, 'team_id');
    return team;
  }

  /** Locks every Administrator row, so two people cannot each remove the other last-but-one. */
  private async assertAnotherAdmin(tx: Tx, exceptId: number, field?: string) {
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.userRoleId, ROLES.administrator))
      .orderBy(asc(users.id))
      .for('update');
    if (!admins.some((a) => a.id !== exceptId)) {
      throw field ? validationError({ [field]: [LAST_ADMIN] }) : new HttpError(422, LAST_ADMIN);
    }
  }

  private async endAccess(tx: Tx, userId: number, actor: Actor) {
    await tx
      .delete(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          actor.userId === userId && actor.sessionId ? ne(sessions.id, actor.sessionId) : undefined,
        ),
      );
    await tx.update(personalAccessTokens).set({ revoked: true }).where(eq(personalAccessTokens.userId, userId));
    await tx.update(oauthAccessTokens).set({ revoked: true }).where(eq(oauthAccessTokens.userId, userId));
    await tx
      .update(oauthRefreshTokens)
      .set({ revoked: true })
      .where(
        inArray(
          oauthRefreshTokens.accessTokenId,
          tx.select({ id: oauthAccessTokens.id }).from(oauthAccessTokens).where(eq(oauthAccessTokens.userId, userId)),
        ),
      );
    // the user's own clients: their client_credentials tokens act for the user, and codes not yet
    // exchanged (for any client) would bring tokens straight back
    const ownClients = tx.select({ id: oauthClients.id }).from(oauthClients).where(eq(oauthClients.userId, userId));
    await revokeAccessTokens(tx, inArray(oauthAccessTokens.clientId, ownClients));
    await retireCodes(tx, eq(oauthAuthCodes.userId, userId));
  }
}

/**
 * A member of staff whose team may do more than the actor's is not theirs to change or delete:
 * else a new password on a Full access account would make anyone with people change Full access.
 */
/** The advisory lock (class, key) that changes and deletions of accounts take first. */
const STAFF_CHANGES_LOCK = [36, 1] as const;

/**
 * Changes and deletions of accounts, one at a time: each locks its account, then (when it may
 * take an Administrator or a Full access member away) every such member. Two of them locking
 * their own accounts first and then each other's would deadlock; taken in turn, the second
 * sees what the first did and is refused with the last-member rule instead.
 */
async function staffChangesInTurn(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${STAFF_CHANGES_LOCK[0]}, ${STAFF_CHANGES_LOCK[1]})`);
}

function assertMayManage(actor: Actor, target: { teamPermissions: TeamPermissions | null }): void {
  if (actor.permissions === undefined || target.teamPermissions === null) return;
  if (!reachesAll(actor.permissions, target.teamPermissions)) throw new HttpError(403, MANAGE_ABOVE);
}

function uniqueEmail(error: unknown): never {
  const cause = pgError(error);
  if (cause.code === '23505' && cause.constraint === 'users_email_lower_unique') {
    throw validationError({ email: ['The email has already been taken.'] });
  }
  throw error;
}
