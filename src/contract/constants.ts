// Plain constants shared by server and web, kept apart from the zod schemas so that a screen
// which only needs a constant does not load zod.

/** Spec §6: user_role_id. */
export const ROLES = { administrator: 1, charity: 2, endUser: 3 } as const;
export const ROLE_NAMES: Record<number, string> = { 1: 'Administrator', 2: 'Charity', 3: 'End User' };

/** Spec §3: charity types, id = label. */
export const CHARITY_TYPES: Record<number, string> = {
  1: 'Animal Charity',
  2: 'Armed Forces Charity',
  3: "Children's Charity",
  4: 'Health/Medical Charity',
  5: 'Hospice',
  6: 'International Aid Charity',
  7: 'Community Charity',
  8: 'Other',
};

// ---- users ----

/** Spec §9: a new user is an End User unless told otherwise. */
export const DEFAULT_ROLE = 3;
export const USERS_PER_PAGE = 25;
export const MIN_PASSWORD_LENGTH = 12;
export const userCreatedMessage = (password: string) => `User created. The password for the account is: ${password}`;

// ---- booking notes ----

export const NOTES_EMPTY_TEXT = 'There are no notes for this booking.';
/** Longest note, in characters of HTML as the editor sends it. */
export const NOTE_MAX_LENGTH = 50_000;

// ---- history ----

export const AUDIT_PER_PAGE = 25;
/** portal: a traveller on their own pages (/my) */
export const AUDIT_SOURCES = ['web', 'api', 'system', 'webhook', 'portal', 'online'] as const;
export const AUDIT_ACTOR_TYPES = ['user', 'personal_token', 'oauth_client', 'system', 'anonymous'] as const;

// ---- charities ----

export const CHARITY_TYPE_IDS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
/** Spec §9: a new charity is a Hospice unless told otherwise. */
export const DEFAULT_CHARITY_TYPE = 5;
