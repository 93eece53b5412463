import { formatPounds } from '../../contract/pounds.ts';

const shortDate = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'Europe/London',
});

/** £1,234.50 */
export const formatMoney = formatPounds;

/** 22/11/2026 — lists (spec §9). A plain date (yyyy-mm-dd) is read as that calendar day. */
export function formatShortDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [y, m, d] = value.split('-');
    return `${d}/${m}/${y}`;
  }
  return shortDate.format(new Date(value));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ordinal = (d: number) =>
  `${d}${d % 100 >= 11 && d % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][d % 10] ?? 'th')}`;

/**
 * 22nd Nov 2026 — booking views (spec §9 'Do MMM YYYY'). A plain date is that calendar day, a
 * moment its day in the office's time zone. (Written out rather than with dayjs, which the first
 * visit to a screen then need not load; the months are spelt as dayjs did: "Sep", not Intl's "Sept".)
 */
export function formatLongDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const plain = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
  const date = plain ? null : new Date(value);
  if (date && Number.isNaN(date.getTime())) return '';
  const [y, m, d] = (plain ?? londonDay.format(date!)).split('-').map(Number) as [number, number, number];
  return `${ordinal(d)} ${MONTHS[m - 1]} ${y}`;
}
// en-CA writes yyyy-mm-dd
const londonDay = new Intl.DateTimeFormat('en-CA', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  timeZone: 'Europe/London',
});

const dateTime = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

/** 22 Nov 2026, 14:05 — when something happened (the history), in the office's time zone. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  return dateTime.format(new Date(value));
}

/** "1 traveller", "3 travellers" */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
