// Plain values of the contract (no zod), so that a screen which shows them does not load zod.

export const BOOKING_TITLES = ['Mr', 'Mrs', 'Miss', 'Ms', 'Mx', 'Dr'] as const;

// ---- the booking list (spec §7 GET /api/bookings) ----

export const BOOKING_STATUSES = ['confirmed', 'provisional', 'cancelled'] as const;
export const PASSPORT_STATES = ['missing', 'expired', 'expires', 'ok'] as const;
export const BOOKING_SORT_FIELDS = [
  'id',
  'created_at',
  'deposit_payment_date',
  'trip_name',
  'name',
  'room_ref',
] as const;
export const BOOKINGS_PER_PAGE = 25;
/** Spec §9 */
export const BOOKING_LIST_DEFAULTS = {
  status: 'all',
  timing: 'future',
  sort_field: 'created_at',
  sort_dir: 'desc',
} as const;

// ---- the export (spec §7 GET /bookings/export) ----

export const EXPORT_COLUMNS = [
  { key: 'date', label: 'Date Received' },
  { key: 'id', label: 'ID' },
  { key: 'ref', label: 'Booking Ref' },
  { key: 'status', label: 'Status' },
  { key: 'trip_name', label: 'Trip' },
  { key: 'departure', label: 'Departure' },
  { key: 'title', label: 'Title' },
  { key: 'first_name', label: 'First Name' },
  { key: 'last_name', label: 'Last Name' },
  { key: 'preferred_name', label: 'Preferred Name' },
  { key: 'email', label: 'Email' },
  { key: 'mobile', label: 'Mobile' },
  { key: 'address', label: 'Address' },
  { key: 'post_code', label: 'Post Code' },
  { key: 'date_of_birth', label: 'Date of Birth' },
  { key: 'age', label: 'Age on Departure' },
  { key: 'gender', label: 'Gender' },
  { key: 'passport_number', label: 'Passport Number' },
  { key: 'passport_expiry', label: 'Passport Expiry' },
  { key: 'passport_valid', label: 'Passport State' },
  { key: 'room_type', label: 'Room Type' },
  { key: 'room_ref', label: 'Room Ref' },
  { key: 'share_with', label: 'Sharing With' },
  { key: 'funding_type', label: 'Funding' },
  { key: 'fundraising_target', label: 'Fundraising Target' },
  { key: 'fundraising_raised', label: 'Raised' },
  { key: 'fundraising_state', label: 'Fundraising' },
  { key: 'deposit_payment_date', label: 'Date Paid' },
  { key: 'dietary', label: 'Dietary' },
  { key: 'medical_conditions', label: 'Medical Conditions' },
  { key: 'medication', label: 'Medication' },
  { key: 'medical_detail', label: 'Medical Detail' },
  { key: 'insurance_company', label: 'Insurance Company' },
  { key: 'insurance_policy_number', label: 'Insurance Policy' },
  { key: 'nok_name', label: 'Next of Kin' },
  { key: 'nok_relationship', label: 'Next of Kin Relationship' },
  { key: 'nok_telephone', label: 'Next of Kin Telephone' },
  { key: 'referred_by', label: 'Referred By' },
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number]['key'];
/** Spec §9 */
export const DEFAULT_EXPORT_COLUMNS: ExportColumn[] = ['date', 'id', 'status', 'trip_name'];
export const EXPORT_PAGE_SIZE = 5000;
/** Spec §9: the passport zip starts this long after the spreadsheet. */
export const PASSPORT_ZIP_DELAY_MS = 2000;

/** How a booking is paid for: its funding_type. */
export const FUNDING_TYPES = ['self', 'fundraise', 'flexi', 'free'] as const;
export type FundingType = (typeof FUNDING_TYPES)[number];
/** The funding types a trip allows (its funding: both, self-funded only, fundraising only). */
export const FUNDING_ALLOWED: Record<'both' | 'self' | 'fundraise', readonly FundingType[]> = {
  both: ['self', 'fundraise', 'flexi', 'free'],
  self: ['self', 'free'],
  fundraise: ['fundraise', 'flexi', 'free'],
};
/** Funding types that raise money for a charity: on a charity trip, a booking of these needs its charity. */
export const RAISES_FOR_CHARITY: readonly FundingType[] = ['fundraise', 'flexi'];

/** A booking's funding, as staff read it. */
export const FUNDING_TYPE_LABELS: Record<FundingType, string> = {
  free: 'Free place',
  flexi: 'Flexi',
  self: 'Self-funded',
  fundraise: 'Fundraising',
};
