import {
  TRIP_FUNDING,
  TRIP_FUNDING_LABELS,
  TRIP_LEVELS,
  TRIP_STATUSES,
  TRIP_TYPE_LABELS,
  TRIP_TYPES,
} from '../../../contract/trip-constants.ts';

export const typeOptions = TRIP_TYPES.map((value) => ({ value, label: TRIP_TYPE_LABELS[value] }));
export const levelOptions = Object.entries(TRIP_LEVELS).map(([value, label]) => ({
  value,
  label: `${value} – ${label}`,
}));
export const statusOptions = TRIP_STATUSES.map((value) => ({
  value,
  label: value.charAt(0).toUpperCase() + value.slice(1),
}));
export const fundingOptions = TRIP_FUNDING.map((value) => ({ value, label: TRIP_FUNDING_LABELS[value] }));
