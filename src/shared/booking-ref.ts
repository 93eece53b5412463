import { randomInt } from 'node:crypto';

// no 0/O, 1/I/L: a reference is read aloud on the phone
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** A booking reference such as TD-7KQ3MP: short, unambiguous, ~30 bits. */
export function makeBookingRef(random: (max: number) => number = randomInt): string {
  let s = 'TD-';
  for (let i = 0; i < 6; i++) s += ALPHABET[random(ALPHABET.length)];
  return s;
}
