import { describe, expect, it } from 'vitest';
import { addDays } from '../../../contract/dates.ts';
import { fundraisingStanding, milestonePence } from './rules.ts';

// A fundraiser's standing against the milestones, on plain facts: no database, no clock.
const departure = '2027-06-30';
const milestones = [
  { percent: 50, weeks_before: 16 },
  { percent: 80, weeks_before: 12 },
  { percent: 100, weeks_before: 4 },
];
const at50 = addDays(departure, -112);
const at80 = addDays(departure, -84);
const f = (raisedPence: number, targetPence = 250_000) => ({
  fundraises: true,
  targetPence,
  raisedPence,
  milestones,
  departure,
});

describe('fundraising standing', () => {
  it('not fundraising for a booking that does not fundraise, whatever is recorded', () => {
    expect(fundraisingStanding({ ...f(999_999), fundraises: false }, at80).state).toBe('not_fundraising');
  });
  it('on track before the first milestone, with what is still to raise to the target', () => {
    expect(fundraisingStanding(f(10_000), addDays(at50, -1))).toMatchObject({
      state: 'on_track',
      shortfallPence: 240_000,
      missed: null,
      next: { percent: 50, due: at50, pence: 125_000 },
    });
  });
  it('the milestone’s own day still counts as in time; the day after, behind by the shortfall to it', () => {
    expect(fundraisingStanding(f(100_000), at50).state).toBe('on_track');
    expect(fundraisingStanding(f(100_000), addDays(at50, 1))).toMatchObject({
      state: 'behind',
      missed: { percent: 50, due: at50, pence: 125_000 },
      shortfallPence: 25_000,
    });
    expect(fundraisingStanding(f(125_000), addDays(at50, 1)).state).toBe('on_track');
  });
  it('behind names the latest milestone passed and not reached', () => {
    expect(fundraisingStanding(f(150_000), addDays(at80, 1))).toMatchObject({
      state: 'behind',
      missed: { percent: 80 },
      shortfallPence: 50_000,
    });
    expect(fundraisingStanding(f(100_000), addDays(at80, 1))).toMatchObject({
      state: 'behind',
      missed: { percent: 80 },
      shortfallPence: 100_000,
    });
  });
  it('target met whatever the date, even after departure; a changed target moves every milestone', () => {
    expect(fundraisingStanding(f(250_000), addDays(departure, 10)).state).toBe('met');
    expect(fundraisingStanding(f(160_000, 200_000), addDays(at80, 1)).state).toBe('on_track');
    expect(fundraisingStanding(f(159_999, 200_000), addDays(at80, 1))).toMatchObject({
      state: 'behind',
      shortfallPence: 1,
    });
  });
  it('a milestone’s amount is rounded up to the penny; a zero target is met at once', () => {
    expect(milestonePence(333, { percent: 50, weeks_before: 1 })).toBe(167);
    expect(fundraisingStanding(f(0, 0), at80).state).toBe('met');
  });
  it('with no milestones: on track until the target is met', () => {
    expect(fundraisingStanding({ ...f(1), milestones: [] }, addDays(departure, 5)).state).toBe('on_track');
  });
});
