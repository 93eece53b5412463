import { randomInt } from 'node:crypto';

// no 0/O, 1/I/L: a reference is read aloud on the phone
export const BOOKING_REF_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** What every reference the app makes starts with. */
export const BOOKING_REF_PREFIX = 'TD-';

/** A booking reference such as TD-7KQ3MP: short, unambiguous, ~30 bits. */
export function makeBookingRef(random: (max: number) => number = randomInt): string {
  let s = BOOKING_REF_PREFIX;
  for (let i = 0; i < 6; i++) s += BOOKING_REF_ALPHABET[random(BOOKING_REF_ALPHABET.length)];
  return s;
}
