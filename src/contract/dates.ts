/** A real calendar date from dd/mm/yyyy, or null; 31/02/2026 is not a date. */
export function parseDdMmYyyy(value: string): string | null {
  if (value.length !== 10) return null;
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (!m) return null;
  const [, dd, mm, yyyy] = m;
  const d = new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd)));
  if (d.getUTCFullYear() !== Number(yyyy) || d.getUTCMonth() !== Number(mm) - 1 || d.getUTCDate() !== Number(dd))
    return null;
  if (Number(yyyy) < 1900) return null;
  return `${yyyy}-${mm}-${dd}`;
}

/** A yyyy-mm-dd day that exists (no 31 February), between 1900 and 2100. */
export function isCalendarDay(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || v < '1900-01-01' || v > '2100-12-31') return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** yyyy-mm-dd (or an ISO date-time) → dd/mm/yyyy */
export function toDdMmYyyy(iso: string | null | undefined): string {
  if (!iso) return '';
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

/** yyyy-mm-dd of now in the operator's time zone: invoices are raised, due and paid on UK days. */
// one formatter for every call: making one costs far more than using it
const ukDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
export function ukToday(now = new Date()): string {
  return ukDay.format(now);
}

// the days already moved: a readiness board or a list moves the same few days (today, a trip's
// departure) by the same few amounts for each of a thousand travellers, and a Date round trip
// each time was a seventh of the board's time
const moved = new Map<string, string>();
const MOVED_KEPT = 5_000;

/** yyyy-mm-dd moved by whole days (negative goes back). */
export function addDays(isoDate: string, days: number): string {
  const key = `${isoDate}|${days}`;
  const known = moved.get(key);
  if (known !== undefined) return known;
  const d = new Date(isoDate + 'T00:00:00Z');
  d.setUTCDate(d.getUTCDate() + days);
  const day = d.toISOString().slice(0, 10);
  if (moved.size >= MOVED_KEPT) moved.clear();
  moved.set(key, day);
  return day;
}
