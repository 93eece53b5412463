import { z } from 'zod';
import { isStorableText, recordId, UNSTORABLE_TEXT_MESSAGE } from './common.ts';

/**
 * What a team may do (issue 36): each area none, read or change, and one more permission for the
 * travellers' health and passport data. The server's one table (plugins/scopes.ts) names each
 * route's area; the web app builds its menus and buttons from the same names.
 */
export const PERMISSION_AREAS = ['bookings', 'trips', 'finance', 'charities', 'people', 'settings'] as const;
export type PermissionArea = (typeof PERMISSION_AREAS)[number];
export const TRAVELLER_DATA = 'traveller_data';
export type Permission = PermissionArea | typeof TRAVELLER_DATA;
export const PERMISSIONS: readonly Permission[] = [...PERMISSION_AREAS, TRAVELLER_DATA];

export const LEVELS = ['none', 'read', 'change'] as const;
export type Level = (typeof LEVELS)[number];
const RANK: Record<Level, number> = { none: 0, read: 1, change: 2 };

export const PERMISSION_LABELS: Record<Permission, string> = {
  bookings: 'Bookings',
  trips: 'Trips',
  finance: 'Finance',
  charities: 'Charities',
  people: 'People',
  settings: 'Settings',
  traveller_data: 'Traveller health and passport data',
};
export const PERMISSION_HINTS: Record<Permission, string> = {
  bookings: 'Bookings, notes, readiness, chasers, the travellers’ requests',
  trips: 'Trips, questions, documents, online booking, passport rules',
  finance: 'Invoices, payments, refunds, money due, reports, payment plans',
  charities: 'Charities, discounts, fundraising',
  people: 'Users and teams',
  settings: 'Email templates, fees for changes, jobs, retention',
  traveller_data: 'Medical, dietary, passport, insurance and next of kin; passport images; the manifest',
};
export const LEVEL_LABELS: Record<Level, string> = { none: 'None', read: 'Read', change: 'Change' };

export type TeamPermissions = Record<Permission, Level>;

/** Whether these permissions reach the level asked for (a member with no team may do nothing). */
export function allows(permissions: TeamPermissions | null | undefined, permission: Permission, level: Level): boolean {
  if (level === 'none') return true;
  const has = permissions?.[permission] ?? 'none';
  return RANK[has] >= RANK[level];
}

/** What Full access has, and can never lose. */
export const FULL_ACCESS: TeamPermissions = {
  bookings: 'change',
  trips: 'change',
  finance: 'change',
  charities: 'change',
  people: 'change',
  settings: 'change',
  traveller_data: 'change',
};

const level = (label: string) => z.enum(LEVELS, { error: `The ${label} permission must be none, read or change.` });

export const teamPermissionsSchema = z.object({
  bookings: level('bookings'),
  trips: level('trips'),
  finance: level('finance'),
  charities: level('charities'),
  people: level('people'),
  settings: level('settings'),
  traveller_data: level('traveller data'),
});

export const teamInputSchema = z.object({
  name: z
    .string({ error: 'The name field is required.' })
    .trim()
    .min(1, { error: 'The name field is required.', abort: true })
    .max(100, { error: 'The name must not be longer than 100 characters.' })
    .refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE }),
  permissions: teamPermissionsSchema,
});
export type TeamInput = z.input<typeof teamInputSchema>;

export const teamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Full access: every permission, always; it cannot be changed or deleted */
  full_access: z.boolean(),
  permissions: teamPermissionsSchema,
  members: z.array(
    z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string(), email: z.string() }),
  ),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

export const teamIdParam = z.object({ id: recordId('team') });

/** The team named in a user's record and in /api/me. */
export const teamRefSchema = z.object({ id: z.number().int(), name: z.string() });

export const TEAM_NAME_TAKEN = 'Another team already has this name.';
export const FULL_ACCESS_FIXED = 'Full access keeps every permission: only its name can change.';
export const FULL_ACCESS_KEPT = 'Full access cannot be deleted.';
export const TEAM_HAS_MEMBERS = 'This team has members: move them to another team first.';
export const LAST_FULL_ACCESS = 'Tripdesk needs at least one member of Full access: add another member to it first.';

/** What the 403 says when a member's team lacks what a route needs. */
export const permissionMessage = (permission: Permission, level: Level) =>
  `Your team does not have the ${PERMISSION_LABELS[permission].toLowerCase()} ${level} permission.`;
