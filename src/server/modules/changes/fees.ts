import { type CancellationBand, KEEP_LABELS } from '../../../contract/changes.ts';

/** Whole UK days from one yyyy-mm-dd to another (the departure day itself is 0). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * The band of the scale for a booking of this funding type cancelled this many days before
 * departure: the funding type's own bands when the scale has any, else the bands for every
 * booking; of those, the one starting latest that has started. After departure (negative days)
 * the band from 0 days applies.
 */
export function bandFor(bands: CancellationBand[], fundingType: string | null, days: number): CancellationBand | null {
  const own = bands.filter((b) => b.funding_type !== null && b.funding_type === fundingType);
  const pool = own.length ? own : bands.filter((b) => b.funding_type === null);
  const started = pool.filter((b) => b.from_days <= Math.max(0, days));
  return started.sort((a, b) => b.from_days - a.from_days)[0] ?? null;
}

export type FeeFacts = {
  /** the trip's cost, the whole price the schedule bills */
  tripCostPence: number;
  /** the trip's deposit: the least a cancellation keeps */
  depositPence: number;
  /** the booking's add-ons, at the prices booked */
  addonsPence: number;
};

/** What a band keeps: the deposit, a share of the trip cost or everything, never less than the deposit nor more than everything. */
export function feeOf(band: CancellationBand | null, f: FeeFacts): number {
  const everything = f.tripCostPence + f.addonsPence;
  if (!band) return Math.min(f.depositPence, everything);
  const kept =
    band.keep === 'deposit'
      ? f.depositPence
      : band.keep === 'percent'
        ? Math.round((f.tripCostPence * (band.percent ?? 0)) / 100)
        : everything;
  return Math.min(Math.max(kept, f.depositPence), everything);
}

/** "57 days or more before departure: the deposit is kept" */
export function bandLabel(band: CancellationBand, next: CancellationBand | undefined): string {
  const when =
    next === undefined
      ? `${band.from_days} days or more before departure`
      : band.from_days === 0
        ? `${next.from_days - 1} days or fewer before departure`
        : `${band.from_days}–${next.from_days - 1} days before departure`;
  const kept =
    band.keep === 'percent'
      ? `${band.percent} % of the trip cost is kept`
      : `${KEEP_LABELS[band.keep].toLowerCase()} is kept`;
  const who = band.funding_type ? ` (${band.funding_type} bookings)` : '';
  return `${when}${who}: ${kept}`;
}

/** The band's label among its own bands (those of its funding type, or those for every booking). */
export function labelIn(bands: CancellationBand[], band: CancellationBand): string {
  const pool = bands.filter((b) => b.funding_type === band.funding_type).sort((a, b) => a.from_days - b.from_days);
  const next = pool.find((b) => b.from_days > band.from_days);
  return bandLabel(band, next);
}
