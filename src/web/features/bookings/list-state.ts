import type { BookingListQuery } from '../../../contract/bookings.ts';
import { BOOKING_LIST_DEFAULTS } from '../../../contract/booking-constants.ts';

/** The search form's fields, as text (what the inputs hold). */
export type BookingFilters = {
  status: string;
  timing: string;
  passport: string;
  fundraising: string;
  trips: string[];
  booking_ref: string;
  name: string;
  age_min: string;
  age_max: string;
  medical: string;
  address: string;
  gender: string;
  email: string;
  telephone: string;
  trip_id: string;
  user_id: string;
  /** from the dashboard's cards: trips departing in a season, bookings made before a day (yyyy-mm-dd) */
  departure_from: string;
  departure_to: string;
  booked_before: string;
  withCustomFields: boolean;
};

export const COLUMNS = [
  { key: 'id', label: 'ID', sort: 'id' },
  { key: 'created_at', label: 'Date Received', sort: 'created_at' },
  { key: 'deposit_payment_date', label: 'Date Paid', sort: 'deposit_payment_date' },
  { key: 'status', label: 'Status' },
  { key: 'trip', label: 'Trip', sort: 'trip_name' },
  { key: 'name', label: 'Traveller Name', sort: 'name' },
  { key: 'email', label: 'Email' },
  { key: 'mobile', label: 'Mobile' },
  { key: 'age', label: 'Age' },
  { key: 'gender', label: 'Gender' },
  { key: 'passport_valid', label: 'Passport' },
  { key: 'room_type', label: 'Room Type' },
  { key: 'room_ref', label: 'Room Ref', sort: 'room_ref' },
  { key: 'funding_type', label: 'Funding' },
  { key: 'post_code', label: 'Post Code' },
] as const;
export type ColumnKey = (typeof COLUMNS)[number]['key'];
export const DEFAULT_COLUMNS: ColumnKey[] = [
  'id',
  'created_at',
  'deposit_payment_date',
  'status',
  'trip',
  'name',
  'passport_valid',
  'room_ref',
];

export type ListState = {
  filters: BookingFilters;
  sort_field: NonNullable<BookingListQuery['sort_field']>;
  sort_dir: 'asc' | 'desc';
  page: number;
  columns: ColumnKey[];
};

export const emptyFilters = (): BookingFilters => ({
  status: BOOKING_LIST_DEFAULTS.status,
  timing: BOOKING_LIST_DEFAULTS.timing,
  passport: '',
  fundraising: '',
  trips: [],
  booking_ref: '',
  name: '',
  age_min: '',
  age_max: '',
  medical: '',
  address: '',
  gender: '',
  email: '',
  telephone: '',
  trip_id: '',
  user_id: '',
  departure_from: '',
  departure_to: '',
  booked_before: '',
  withCustomFields: false,
});

export const defaultState = (): ListState => ({
  filters: emptyFilters(),
  sort_field: BOOKING_LIST_DEFAULTS.sort_field,
  sort_dir: BOOKING_LIST_DEFAULTS.sort_dir,
  page: 1,
  columns: DEFAULT_COLUMNS,
});

const KEY = 'tripdesk.bookingList';

/** Spec §4: the filters (and our column choice) are kept in the browser session between visits. */
export function loadState(params: URLSearchParams): ListState {
  let state = defaultState();
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<ListState> | null;
    if (kept) state = { ...state, ...kept, filters: { ...state.filters, ...kept.filters } };
  } catch {
    // a damaged entry is ignored
  }
  // spec §2: booking_ref, timing, trip_id and user_id in the address fill the form; the dashboard's
  // cards send status, fundraising, a season of departures and a booked-before day too
  const fromUrl = [
    'booking_ref',
    'timing',
    'trip_id',
    'user_id',
    'status',
    'fundraising',
    'departure_from',
    'departure_to',
    'booked_before',
  ] as const;
  if (fromUrl.some((k) => params.has(k))) {
    state = { ...state, page: 1, filters: { ...emptyFilters() } };
    for (const k of fromUrl) {
      const v = params.get(k);
      if (v !== null) state.filters[k] = v;
    }
  }
  return state;
}

export function saveState(state: ListState): void {
  sessionStorage.setItem(KEY, JSON.stringify(state));
}

/** The call to the API for a state of the page. */
export function toQuery(s: ListState): BookingListQuery {
  const f = s.filters;
  return {
    page: s.page,
    sort_field: s.sort_field,
    sort_dir: s.sort_dir,
    status: f.status || undefined,
    timing: (f.timing || 'future') as 'future' | 'past' | 'all',
    passport: f.passport || undefined,
    fundraising: f.fundraising || undefined,
    trips: f.trips.length ? f.trips : undefined,
    trip_id: f.trip_id || undefined,
    user_id: f.user_id || undefined,
    departure_from: f.departure_from || undefined,
    departure_to: f.departure_to || undefined,
    booked_before: f.booked_before || undefined,
    booking_ref: f.booking_ref || undefined,
    name: f.name || undefined,
    age_min: f.age_min || undefined,
    age_max: f.age_max || undefined,
    medical: f.medical || undefined,
    address: f.address || undefined,
    gender: f.gender || undefined,
    email: f.email || undefined,
    telephone: f.telephone || undefined,
    withCustomFields: f.withCustomFields ? '1' : undefined,
  } as BookingListQuery;
}
