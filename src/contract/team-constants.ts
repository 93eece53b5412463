/** Issue 36's labels, messages and field lists, without zod (the shell's part is permissions.ts). */

export * from './permissions.ts';
import type { Level, Permission, PermissionArea, TeamPermissions } from './permissions.ts';

// the lists (the shell needs only the types and `allows`: permissions.ts)
export const PERMISSION_AREAS: readonly PermissionArea[] = [
  'bookings',
  'trips',
  'finance',
  'charities',
  'people',
  'settings',
];
export const TRAVELLER_DATA = 'traveller_data';
export const PERMISSIONS: readonly Permission[] = [...PERMISSION_AREAS, TRAVELLER_DATA];
export const LEVELS = ['none', 'read', 'change'] as const satisfies readonly Level[];

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

export const TEAM_NAME_TAKEN = 'Another team already has this name.';
export const FULL_ACCESS_FIXED = 'Full access keeps every permission: only its name can change.';
export const FULL_ACCESS_KEPT = 'Full access cannot be deleted.';
export const TEAM_HAS_MEMBERS = 'This team has members: move them to another team first.';
export const MANAGE_ABOVE = 'You cannot change a member whose team may do more than yours.';
export const MANAGE_TEAM_ABOVE = 'You cannot change a team that may do more than yours.';
export const LAST_FULL_ACCESS = 'Tripdesk needs at least one member of Full access: add another member to it first.';

/** What the 403 says when a member's team lacks what a route needs. */
export const permissionMessage = (permission: Permission, level: Level) =>
  `Your team does not have the ${PERMISSION_LABELS[permission].toLowerCase()} ${level} permission.`;

/**
 * The travellers' health and passport data (issue 36): absent from every reply, column, export and
 * History change for a team without traveller data read.
 */
export const TRAVELLER_DATA_FIELDS = [
  'passport_number',
  'passport_issue',
  'passport_expiry',
  'nationality',
  'insurance_company',
  'insurance_policy_number',
  'insurance_telephone',
  'nok_name',
  'nok_relationship',
  'nok_email',
  'nok_telephone',
  'nok_address',
  'dietary',
  'medication',
  'medical_detail',
  'medical_conditions',
] as const;
/** The readiness checks whose reasons quote that data: their colour stays, their detail does not. */
export const TRAVELLER_DATA_CHECKS = ['passport', 'medical', 'next_of_kin'] as const;
export const HIDDEN_FOR_TEAM = 'Hidden for your team';

/** The names a transfer gives the old traveller's details it erases (changes/service.ts) that are traveller data. */
export const TRAVELLER_DATA_LABELS: readonly string[] = [
  'passport number',
  'passport dates',
  'passport image',
  'nationality',
  'medical conditions',
  'medical details',
  'medication',
  'dietary needs',
  'insurance',
  'next of kin',
];
/** Said in their place, whichever are held: which ones are held says, for one, that a traveller has a medical condition. */
export const HIDDEN_DETAILS_LABEL = 'any passport, health, insurance and next-of-kin details';
export const hideTravellerLabels = (labels: readonly string[]): string[] => [
  ...labels.filter((l) => !TRAVELLER_DATA_LABELS.includes(l) && l !== HIDDEN_DETAILS_LABEL),
  HIDDEN_DETAILS_LABEL,
];
