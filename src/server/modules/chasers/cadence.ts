import { addDays } from '../../../contract/dates.ts';

/** The first chaser goes this many days after the booking is made. */
export const CHASER_FIRST_AFTER_DAYS = 7;
/** Then one every this many days … */
export const CHASER_EVERY_DAYS = 14;
/** … until this many days (8 weeks) before departure, from when they go weekly. */
export const CHASER_WEEKLY_WITHIN_DAYS = 56;
export const CHASER_WEEKLY_DAYS = 7;

/**
 * The day the next chaser for a check is due: booking + 7 days, then every 14 days
 * while that keeps it more than 8 weeks before departure, then weekly. `lastOn` is the day of
 * the last decision for the check (a chaser sent, or one skipped), null when there has been none.
 * None go on or after the departure day: the caller stops there.
 */
export function nextChaseOn(bookedOn: string, lastOn: string | null, departure: string): string {
  if (lastOn === null) return addDays(bookedOn, CHASER_FIRST_AFTER_DAYS);
  const fortnight = addDays(lastOn, CHASER_EVERY_DAYS);
  return fortnight <= addDays(departure, -CHASER_WEEKLY_WITHIN_DAYS) ? fortnight : addDays(lastOn, CHASER_WEEKLY_DAYS);
}

/** A chaser is due today when its day has come and the trip has not left. */
export const chaseDue = (today: string, bookedOn: string, lastOn: string | null, departure: string) =>
  today < departure && nextChaseOn(bookedOn, lastOn, departure) <= today;
