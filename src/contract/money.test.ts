import { describe, expect, it } from 'vitest';
import { parsePounds, poundsToPence } from './money.ts';

describe('parsePounds', () => {
  it('reads pounds as staff type them, into pence', () => {
    expect(parsePounds('12')).toBe(1200);
    expect(parsePounds('12.5')).toBe(1250);
    expect(parsePounds('£1,250.05')).toBe(125005);
    expect(parsePounds('1,000,000')).toBe(100000000);
  });
  it('refuses a decimal comma and stray commas rather than misread them', () => {
    expect(parsePounds('1,50')).toBeNull();
    expect(parsePounds('1,2,3')).toBeNull();
    expect(parsePounds('12.345')).toBeNull();
    expect(parsePounds('-5')).toBeNull();
    expect(parsePounds('1e3')).toBeNull();
  });
  it('is what the contract takes', () => {
    expect(poundsToPence('amount').parse('1,250.50')).toBe(125050);
    expect(poundsToPence('amount').safeParse('1,50').success).toBe(false);
    expect(poundsToPence('amount').parse(19.99)).toBe(1999);
  });
});
