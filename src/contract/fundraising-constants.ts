// Fundraising's values, without zod: the booking page and the trip page show them
// without loading the contract's schemas (decision 005).

/** The funding types whose travellers raise sponsorship. */
export const FUNDRAISING_TYPES = ['fundraise', 'flexi'] as const;
export type FundraisingType = (typeof FUNDRAISING_TYPES)[number];
export const FUNDRAISING_TYPE_LABELS: Record<FundraisingType, string> = { fundraise: 'Fundraise', flexi: 'Flexi' };

/** Where a raised-to-date figure comes from. */
export const ENTRY_SOURCES = ['page_total', 'offline', 'gift_aid', 'charity_confirmed'] as const;
export type EntrySource = (typeof ENTRY_SOURCES)[number];
export const ENTRY_SOURCE_LABELS: Record<EntrySource, string> = {
  page_total: 'Page total',
  offline: 'Offline',
  gift_aid: 'Gift Aid',
  charity_confirmed: 'Charity confirmed',
};

export const FUNDRAISING_STATES = ['not_fundraising', 'on_track', 'behind', 'met'] as const;
export type FundraisingState = (typeof FUNDRAISING_STATES)[number];
export const FUNDRAISING_STATE_LABELS: Record<FundraisingState, string> = {
  not_fundraising: 'Not fundraising',
  on_track: 'On track',
  behind: 'Behind',
  met: 'Target met',
};

/** A milestone: this percentage of the target raised by this many weeks before departure. */
export type Milestone = { percent: number; weeks_before: number };

/** Tripdesk's own defaults, for a trip that has not set its own (FUNDRAISING_MINIMUM and FUNDRAISING_MILESTONES override them). */
export const DEFAULT_MILESTONES: Milestone[] = [
  { percent: 50, weeks_before: 16 },
  { percent: 80, weeks_before: 12 },
  { percent: 100, weeks_before: 4 },
];
export const MILESTONES_MAX = 6;
