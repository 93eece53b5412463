import { describe, expect, it } from 'vitest';
import { capitalise, validityText } from './validity.ts';

describe('discount validity', () => {
  it('reads as the spec says for each combination of dates', () => {
    expect(validityText({ valid_from: '2027-06-01T00:00:00', valid_until: '2027-08-31T00:00:00' })).toBe(
      '01/06/2027 to 31/08/2027',
    );
    expect(validityText({ valid_from: '2027-06-01T00:00:00', valid_until: null })).toBe('From 01/06/2027');
    expect(validityText({ valid_from: null, valid_until: '2027-08-31T00:00:00' })).toBe('Until 31/08/2027');
    expect(validityText({ valid_from: null, valid_until: null })).toBe('Unrestricted');
  });

  it('capitalises the invoice type', () => {
    expect(['any', 'deposit', 'balance', 'other'].map(capitalise)).toEqual(['Any', 'Deposit', 'Balance', 'Other']);
  });
});
