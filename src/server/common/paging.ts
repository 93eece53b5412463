/** Below this many matches a list counts them exactly; above, the planner's estimate is shown, rounded. */
export const EXACT_COUNT_BELOW = 10_000;

/** Two significant figures: an estimate should not look more precise than it is. */
export function roundEstimate(n: number): number {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}
