/**
 * Issue 36's permission names and the one rule of what a level allows, without zod or labels: the
 * web app's shell reads them on every page (labels and messages are in team-constants.ts).
 */

/*
 * What a team may do (issue 36): each area none, read or change, and one more permission for the
 * travellers' health and passport data. The server's one table (plugins/scopes.ts) names each
 * route's area; the web app builds its menus and buttons from the same names.
 */
export type PermissionArea = 'bookings' | 'trips' | 'finance' | 'charities' | 'people' | 'settings';
export type Permission = PermissionArea | 'traveller_data';
export type Level = 'none' | 'read' | 'change';
const RANK: Record<Level, number> = { none: 0, read: 1, change: 2 };

export type TeamPermissions = Record<Permission, Level>;

/** Whether these permissions reach the level asked for (a member with no team may do nothing). */
export function allows(permissions: TeamPermissions | null | undefined, permission: Permission, level: Level): boolean {
  if (level === 'none') return true;
  const has = permissions?.[permission] ?? 'none';
  return RANK[has] >= RANK[level];
}

/** Whether `own` may do everything `other` may: no one changes a member, or a team, above their own. */
export const reachesAll = (own: TeamPermissions | null | undefined, other: TeamPermissions): boolean =>
  (Object.keys(other) as Permission[]).every((p) => allows(own, p, other[p]));
