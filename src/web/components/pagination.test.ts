import { describe, expect, it } from 'vitest';
import { pageSummary, pageWindow } from './pagination.tsx';

describe('the five page links', () => {
  it('centre on the current page and stay within the pages there are', () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(4, 20)).toEqual([2, 3, 4, 5, 6]);
    expect(pageWindow(10, 20)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(19, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(pageWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
  });

  it('show only the pages there are when there are fewer than five', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 0)).toEqual([1]);
  });
});

describe('the summary beside the page links', () => {
  it('gives the range and the total, saying "about" when the total is an estimate', () => {
    expect(pageSummary(1, 25, 1234, 'bookings')).toBe('Showing 1 to 25 of 1,234 bookings');
    expect(pageSummary(26, 50, 710_000, 'bookings', true)).toBe('Showing 26 to 50 of about 710,000 bookings');
    expect(pageSummary(null, null, 0, 'bookings', false)).toBe('No bookings');
  });
});
