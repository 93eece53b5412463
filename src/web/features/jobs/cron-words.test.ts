import { describe, expect, it } from 'vitest';
import { cronInWords } from './cron-words.ts';

describe('a schedule in words', () => {
  it('reads the simple shapes', () => {
    expect(cronInWords('17 * * * *')).toBe('hourly at :17');
    expect(cronInWords('5 * * * *')).toBe('hourly at :05');
    expect(cronInWords('0 18 * * *')).toBe('daily at 18:00');
    expect(cronInWords('30 7 * * 1')).toBe('every Monday at 07:30');
    expect(cronInWords('0 9 * * 0')).toBe('every Sunday at 09:00');
    expect(cronInWords('0 9 * * 1-5')).toBe('weekdays at 09:00');
    expect(cronInWords('0 6 1 * *')).toBe('monthly on the 1st at 06:00');
    expect(cronInWords('0 6 22 * *')).toBe('monthly on the 22nd at 06:00');
    expect(cronInWords('0 6 11 * *')).toBe('monthly on the 11th at 06:00');
    expect(cronInWords('*/15 * * * *')).toBe('every 15 minutes');
    expect(cronInWords('* * * * *')).toBe('every minute');
  });

  it('leaves anything else to the cron itself', () => {
    for (const cron of [
      '0 9 * 1 *',
      '0,30 * * * *',
      '0 9-17 * * *',
      '0 9 1 * 1',
      '*/0 * * * *',
      '61 * * * *',
      '0 24 * * *',
      '0 0 0 * *',
      '@hourly',
      '1 2 3 4 5 6',
    ]) {
      expect(cronInWords(cron)).toBeNull();
    }
  });
});
