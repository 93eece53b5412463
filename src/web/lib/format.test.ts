import { describe, expect, it } from 'vitest';
import { formatLongDate, formatShortDate, plural } from './format.ts';

describe('dates as the screens show them', () => {
  it("writes the long date as spec §9's 'Do MMM YYYY': ordinals, three-letter months (Sep, not Sept)", () => {
    expect(formatLongDate('2026-11-22')).toBe('22nd Nov 2026');
    expect(formatLongDate('2026-09-01')).toBe('1st Sep 2026');
    expect(formatLongDate('2026-09-11')).toBe('11th Sep 2026');
    expect(formatLongDate('2026-09-12')).toBe('12th Sep 2026');
    expect(formatLongDate('2026-05-13')).toBe('13th May 2026');
    expect(formatLongDate('2026-09-23')).toBe('23rd Sep 2026');
    expect(formatLongDate('2026-03-31')).toBe('31st Mar 2026');
  });

  it('reads a moment as its day in the office’s time zone, and nothing for nothing', () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (summer time); in January London is UTC
    expect(formatLongDate('2026-06-30T23:30:00Z')).toBe('1st Jul 2026');
    expect(formatLongDate(new Date('2026-01-31T23:30:00Z'))).toBe('31st Jan 2026');
    expect(formatLongDate('not a date')).toBe('');
    expect(formatLongDate(null)).toBe('');
    expect(formatShortDate('2026-11-22')).toBe('22/11/2026');
    expect(plural(1, 'traveller')).toBe('1 traveller');
    expect(plural(3, 'traveller')).toBe('3 travellers');
  });
});
