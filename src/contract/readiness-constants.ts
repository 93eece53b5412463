// The readiness board's values, without zod: the board and the booking page show them
// without loading the contract's schemas (decision 005).

export const READINESS_CHECKS = [
  'passport',
  'forms',
  'money',
  'medical',
  'next_of_kin',
  'room',
  'documents',
  'fundraising',
  'consent',
] as const;
export type ReadinessCheck = (typeof READINESS_CHECKS)[number];
export const READINESS_CHECK_LABELS: Record<ReadinessCheck, string> = {
  passport: 'Passport',
  forms: 'Forms',
  money: 'Money',
  medical: 'Medical',
  next_of_kin: 'Next of kin',
  room: 'Room',
  documents: 'Documents',
  fundraising: 'Fundraising',
  consent: 'Consent',
};
/** The checks only some trips have: a parent's consent is asked for pupils on school trips (issue 37). */
export const SCHOOL_ONLY_CHECKS: readonly ReadinessCheck[] = ['consent'];
/** Under this age on departure, a pupil needs a parent's consent. */
export const CONSENT_UNDER_AGE = 18;
/** What a parent agrees to when the trip has no wording of its own. */
export const DEFAULT_CONSENT_TEXT =
  'I give my consent for my child to take part in this trip and its activities, and for the trip’s leaders to act for me in an emergency, including agreeing to medical treatment on a doctor’s advice. I have given the trip everything it needs to know about my child’s health.';
/** The checks a chaser email can be sent for (automatically, and from the board); consent only ever on school trips. */
export const CHASER_CHECKS = ['passport', 'forms', 'consent'] as const;
export type ChaserCheck = (typeof CHASER_CHECKS)[number];
/** green: nothing to do; amber: to do, not yet pressing; red: wrong, or pressing */
export const READINESS_STATES = ['green', 'amber', 'red'] as const;
export type ReadinessState = (typeof READINESS_STATES)[number];
/** Within this many days of departure, what is still to do turns red (the balance's own 8 weeks). */
export const READINESS_URGENT_DAYS = 56;
