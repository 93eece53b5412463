/** Below this many matches a list counts them exactly; above, the planner's estimate is shown, rounded. */
export const EXACT_COUNT_BELOW = 10_000;

/** Two significant figures: an estimate should not look more precise than it is. */
export function roundEstimate(n: number): number {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}

/** A page of a list in the API's envelope: `{data, total, from, to, per_page, current_page, last_page}`. */
export function pageOf<T>(data: T[], total: number, page: number, perPage: number) {
  const from = data.length ? (page - 1) * perPage + 1 : null;
  return {
    data,
    total,
    from,
    to: from === null ? null : from + data.length - 1,
    per_page: perPage,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
  };
}
