import { describe, expect, it } from 'vitest';
import { addDays } from '../../../contract/dates.ts';
import { chaseDue, nextChaseOn } from './cadence.ts';

// The chasers' cadence on plain dates: booking + 7 days, then every 14 days until 8 weeks before
// departure, then weekly; none on or after the departure day.
const booked = '2027-01-04';
const departure = addDays(booked, 100);

/** The days (from booking) a chaser goes when every one is sent on its day, up to departure. */
function days(bookedOn: string, dep: string) {
  const out: number[] = [];
  let last: string | null = null;
  for (let d = 0; d <= 400; d++) {
    const today = addDays(bookedOn, d);
    if (chaseDue(today, bookedOn, last, dep)) {
      out.push(d);
      last = today;
    }
  }
  return out;
}

describe('the chasers’ cadence', () => {
  it('first a week after booking, then fortnightly, then weekly from 8 weeks before departure, none on the day', () => {
    // weekly from day 44 (100 - 56): 35 + 14 = 49 would be inside, so 35 + 7
    expect(days(booked, departure)).toEqual([7, 21, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98]);
  });
  it('a booking made within 8 weeks of departure: a week after booking, then weekly', () => {
    expect(days(booked, addDays(booked, 30))).toEqual([7, 14, 21, 28]);
  });
  it('a booking made less than a week before departure is not chased', () => {
    expect(days(booked, addDays(booked, 7))).toEqual([]);
  });
  it('the fortnight that lands exactly on the 8-week day still counts as fortnightly', () => {
    expect(nextChaseOn(booked, addDays(departure, -70), departure)).toBe(addDays(departure, -56));
    expect(nextChaseOn(booked, addDays(departure, -69), departure)).toBe(addDays(departure, -62));
  });
  it('a run missed for days catches up once, then counts from the day it went', () => {
    expect(chaseDue(addDays(booked, 12), booked, null, departure)).toBe(true);
    expect(nextChaseOn(booked, addDays(booked, 12), departure)).toBe(addDays(booked, 26));
  });
});
