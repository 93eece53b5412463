import dayjs from 'dayjs';
import { formatPounds } from '../../contract/pounds.ts';
import advancedFormat from 'dayjs/plugin/advancedFormat';

dayjs.extend(advancedFormat);

const shortDate = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/London' });

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

/** 22nd Nov 2026 — booking views (spec §9 'Do MMM YYYY'). */
export function formatLongDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  return dayjs(value).format('Do MMM YYYY');
}

const dateTime = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' });

/** 22 Nov 2026, 14:05 — when something happened (the history), in the office's time zone. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  return dateTime.format(new Date(value));
}

/** "1 traveller", "3 travellers" */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
