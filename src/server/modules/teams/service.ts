import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import {
  allows,
  FULL_ACCESS,
  FULL_ACCESS_FIXED,
  FULL_ACCESS_KEPT,
  LAST_FULL_ACCESS,
  MANAGE_TEAM_ABOVE,
  PERMISSION_LABELS,
  PERMISSIONS,
  reachesAll,
  type Team,
  TEAM_HAS_MEMBERS,
  TEAM_NAME_TAKEN,
  type TeamPermissions,
} from '../../../contract/teams.ts';
import { ROLES } from '../../../contract/constants.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { teams, users } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { HttpError, isForeignKeyViolation, notFound, validationError } from '../../errors.ts';
import { pgError } from '../../sql.ts';

type TeamRow = typeof teams.$inferSelect;
type Member = Team['members'][number];

const toTeam = (row: TeamRow, members: Member[]): Team => ({
  id: row.id,
  name: row.name,
  full_access: row.fullAccess,
  permissions: row.fullAccess ? FULL_ACCESS : row.permissions,
  members,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** "bookings: read → change, finance: none → read" */
function describePermissions(before: TeamPermissions, after: TeamPermissions): string[] {
  return PERMISSIONS.filter((p) => before[p] !== after[p]).map(
    (p) => `${PERMISSION_LABELS[p].toLowerCase()} from ${before[p]} to ${after[p]}`,
  );
}

/** The team a user may be put in, checked inside the transaction that puts them there. */
export async function teamForMember(
  tx: Tx,
  teamId: number,
): Promise<{ id: number; name: string; fullAccess: boolean; permissions: TeamPermissions }> {
  const [row] = await tx
    .select({ id: teams.id, name: teams.name, fullAccess: teams.fullAccess, permissions: teams.permissions })
    .from(teams)
    .where(eq(teams.id, teamId))
    .for('share');
  if (!row) throw validationError({ team_id: ['The selected team is invalid.'] });
  return { ...row, permissions: row.fullAccess ? FULL_ACCESS : row.permissions };
}

/**
 * No one gives more than they have: a team made or changed, or a team a user is put in, may not
 * do anything the giver's own team may not (else a member with people change could make
 * themselves Full access through another account's team or a team's permissions).
 */
export function assertWithinOwn(own: TeamPermissions | null, given: TeamPermissions, field: string): void {
  const beyond = PERMISSIONS.filter((p) => !allows(own, p, given[p]));
  if (beyond.length)
    throw validationError({
      [field]: [
        `You cannot give more than your own team has: ${beyond.map((p) => PERMISSION_LABELS[p].toLowerCase()).join(', ')}.`,
      ],
    });
}

/**
 * Refuses to take the last member out of Full access (a team change, a role change, a deletion).
 * Locks every member of Full access, so two people cannot each move the other one out.
 */
export async function assertAnotherFullAccessMember(tx: Tx, exceptUserId: number, field?: string): Promise<void> {
  const members = await tx
    .select({ id: users.id })
    .from(users)
    .innerJoin(teams, eq(teams.id, users.teamId))
    .where(and(eq(teams.fullAccess, true), eq(users.userRoleId, ROLES.administrator)))
    .orderBy(asc(users.id))
    .for('update', { of: users });
  if (!members.some((m) => m.id !== exceptUserId))
    throw field ? validationError({ [field]: [LAST_FULL_ACCESS] }) : new HttpError(422, LAST_FULL_ACCESS);
}

function assertMayManageTeam(own: TeamPermissions | null, team: TeamRow): void {
  const has = team.fullAccess ? FULL_ACCESS : team.permissions;
  if (!reachesAll(own, has)) throw new HttpError(403, MANAGE_TEAM_ABOVE);
}

export class TeamService {
  constructor(private readonly db: Db) {}

  async list(): Promise<Team[]> {
    const rows = await this.db
      .select()
      .from(teams)
      .orderBy(sql`${teams.fullAccess} desc`, asc(teams.name));
    const members = await this.membersOf(this.db);
    return rows.map((r) => toTeam(r, members.get(r.id) ?? []));
  }

  async get(id: number, db: Db | Tx = this.db): Promise<Team> {
    const [row] = await db.select().from(teams).where(eq(teams.id, id));
    if (!row) throw notFound('Team not found.');
    return toTeam(row, (await this.membersOf(db, id)).get(id) ?? []);
  }

  async create(input: { name: string; permissions: TeamPermissions }, own: TeamPermissions | null): Promise<Team> {
    assertWithinOwn(own, input.permissions, 'permissions');
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(teams)
        .values({ name: input.name, permissions: input.permissions })
        .returning()
        .catch(uniqueName);
      await audit(tx, {
        action: 'team.created',
        subject: { type: 'team', id: row!.id },
        summary: `added the team ${row!.name}`,
        details: { name: row!.name, permissions: input.permissions },
      });
      return this.get(row!.id, tx);
    });
  }

  async update(
    id: number,
    input: { name: string; permissions: TeamPermissions },
    own: TeamPermissions | null,
  ): Promise<Team> {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, id);
      // a team that may do more than the actor's is not theirs to change, nor to give more than they have
      assertMayManageTeam(own, current);
      if (!current.fullAccess) assertWithinOwn(own, input.permissions, 'permissions');
      const permissions = current.fullAccess ? FULL_ACCESS : input.permissions;
      if (current.fullAccess && describePermissions(FULL_ACCESS, input.permissions).length)
        throw validationError({ permissions: [FULL_ACCESS_FIXED] });
      await tx
        .update(teams)
        .set({ name: input.name, permissions, updatedAt: new Date() })
        .where(eq(teams.id, id))
        .catch(uniqueName);
      const changed = describePermissions(current.fullAccess ? FULL_ACCESS : current.permissions, permissions);
      const renamed = current.name !== input.name;
      const changes: Record<string, [unknown, unknown]> = {};
      if (renamed) changes.name = [current.name, input.name];
      for (const p of PERMISSIONS)
        if (current.permissions[p] !== permissions[p]) changes[p] = [current.permissions[p], permissions[p]];
      const what = [
        renamed ? `renamed it ${input.name}` : null,
        changed.length ? `changed ${changed.join(', ')}` : null,
      ]
        .filter(Boolean)
        .join('; ');
      await audit(tx, {
        action: 'team.updated',
        subject: { type: 'team', id },
        changes,
        summary: what ? `saved the team ${current.name}: ${what}` : `saved the team ${current.name} without changes`,
      });
      return this.get(id, tx);
    });
  }

  async delete(id: number, own: TeamPermissions | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await this.lock(tx, id);
      assertMayManageTeam(own, current);
      if (current.fullAccess) throw new HttpError(422, FULL_ACCESS_KEPT);
      const [members] = await tx.select({ n: count() }).from(users).where(eq(users.teamId, id));
      if ((members?.n ?? 0) > 0) throw new HttpError(422, TEAM_HAS_MEMBERS);
      await tx
        .delete(teams)
        .where(eq(teams.id, id))
        .catch((error: unknown) => {
          // a member added at the same moment: the foreign key refuses as the check would have
          if (isForeignKeyViolation(error)) throw new HttpError(422, TEAM_HAS_MEMBERS);
          throw error;
        });
      await audit(tx, {
        action: 'team.deleted',
        subject: { type: 'team', id },
        summary: `deleted the team ${current.name}`,
        details: { name: current.name, permissions: current.permissions },
      });
    });
  }

  private async lock(tx: Tx, id: number): Promise<TeamRow> {
    const [row] = await tx.select().from(teams).where(eq(teams.id, id)).for('update');
    if (!row) throw notFound('Team not found.');
    return row;
  }

  private async membersOf(db: Db | Tx, teamId?: number): Promise<Map<number, Member[]>> {
    const rows = await db
      .select({
        teamId: users.teamId,
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(users)
      .where(teamId === undefined ? isNotNull(users.teamId) : eq(users.teamId, teamId))
      .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
    const out = new Map<number, Member[]>();
    for (const r of rows) {
      const list = out.get(r.teamId!) ?? [];
      list.push({ id: r.id, first_name: r.firstName, last_name: r.lastName, email: r.email });
      out.set(r.teamId!, list);
    }
    return out;
  }
}

function uniqueName(error: unknown): never {
  const cause = pgError(error);
  if (cause.code === '23505' && cause.constraint === 'teams_name_lower_unique')
    throw validationError({ name: [TEAM_NAME_TAKEN] });
  throw error;
}
