import { describe, expect, it } from 'vitest';
import { type CancellationBand, DEFAULT_BANDS } from '../../../contract/changes.ts';
import { bandFor, daysBetween, feeOf, labelIn } from './fees.ts';

const trip = { tripCostPence: 189_500, depositPence: 25_000, addonsPence: 0 };
const feeAt = (days: number, bands = DEFAULT_BANDS, funding: string | null = 'self', facts = trip) =>
  feeOf(bandFor(bands, funding, days), facts);

describe('the cancellation scale', () => {
  it('keeps the deposit from 57 days, half the trip cost from 29 to 56, everything from 28 (the defaults)', () => {
    expect(feeAt(400)).toBe(25_000);
    expect(feeAt(57)).toBe(25_000);
    expect(feeAt(56)).toBe(94_750);
    expect(feeAt(29)).toBe(94_750);
    expect(feeAt(28)).toBe(189_500);
    expect(feeAt(0)).toBe(189_500);
    // after departure: the band from 0 days
    expect(feeAt(-3)).toBe(189_500);
  });

  it('never keeps less than the deposit, and never more than the trip and its add-ons', () => {
    const cheap = { tripCostPence: 30_000, depositPence: 25_000, addonsPence: 4_000 };
    // 50 % of £300 is £150: the deposit of £250 is kept instead
    expect(feeAt(40, DEFAULT_BANDS, 'self', cheap)).toBe(25_000);
    expect(feeAt(10, DEFAULT_BANDS, 'self', cheap)).toBe(34_000);
    // a deposit larger than everything keeps everything
    expect(feeAt(100, DEFAULT_BANDS, 'self', { tripCostPence: 10_000, depositPence: 25_000, addonsPence: 0 })).toBe(
      10_000,
    );
  });

  it('uses a funding type’s own bands when the scale has them, and the bands for every booking otherwise', () => {
    const bands: CancellationBand[] = [
      ...DEFAULT_BANDS,
      { from_days: 90, keep: 'percent', percent: 25, funding_type: 'fundraise' },
      { from_days: 0, keep: 'all', funding_type: 'fundraise', percent: null },
    ];
    expect(feeAt(120, bands, 'fundraise')).toBe(47_375);
    expect(feeAt(89, bands, 'fundraise')).toBe(189_500);
    expect(feeAt(89, bands, 'self')).toBe(25_000);
    expect(feeAt(89, bands, 'flexi')).toBe(25_000);
    expect(feeAt(89, bands, null)).toBe(25_000);
  });

  it('says each band in words, from its own start to the next band’s', () => {
    const [top, middle, last] = DEFAULT_BANDS;
    expect(labelIn(DEFAULT_BANDS, top!)).toBe('57 days or more before departure: the deposit is kept');
    expect(labelIn(DEFAULT_BANDS, middle!)).toBe('29–56 days before departure: 50 % of the trip cost is kept');
    expect(labelIn(DEFAULT_BANDS, last!)).toBe('28 days or fewer before departure: everything is kept');
  });

  it('counts whole days between UK days, the same across the clocks going forward', () => {
    expect(daysBetween('2027-03-27', '2027-03-29')).toBe(2);
    expect(daysBetween('2027-10-30', '2027-11-01')).toBe(2);
    expect(daysBetween('2027-05-01', '2027-05-01')).toBe(0);
    expect(daysBetween('2027-05-02', '2027-05-01')).toBe(-1);
  });
});
