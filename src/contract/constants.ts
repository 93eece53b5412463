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
