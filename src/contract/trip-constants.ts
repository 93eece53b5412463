// Plain values of the contract (no zod), so that a screen which shows them does not load zod.

export const TRIP_TYPES = ['charity', 'open', 'school'] as const;
export const TRIP_TYPE_LABELS: Record<(typeof TRIP_TYPES)[number], string> = {
  charity: 'Charity',
  open: 'Open',
  school: 'School',
};
export const TRIP_LEVELS: Record<number, string> = {
  1: 'Project Trip',
  2: 'Moderate',
  3: 'Moderate to Challenging',
  4: 'Challenging',
  5: 'Challenging to Extreme',
};
// open and closed are the spec's; full stops sales without closing, cancelled calls a trip off
export const TRIP_STATUSES = ['open', 'closed', 'full', 'cancelled'] as const;
export const TRIP_FUNDING = ['both', 'self', 'fundraise'] as const;
export const TRIP_FUNDING_LABELS: Record<(typeof TRIP_FUNDING)[number], string> = {
  both: 'Self-funded or fundraising',
  self: 'Self-funded only',
  fundraise: 'Fundraising only',
};
/** Spec §9 */
export const TRIP_DEFAULTS = { type: 'charity', level: 2 } as const;
export const TRIP_CREATE_FIXED = { status: 'open', deposit: 0, cost: 0, require_passport: 1, funding: 'both' } as const;
export const TRIPS_PER_PAGE = 20;
/** Spec §9: the trip list's name search waits this long after the last key. */
export const TRIP_SEARCH_DEBOUNCE_MS = 500;
