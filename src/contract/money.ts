import { z } from 'zod';

/**
 * An amount in pounds, typed or sent as a number or text ("12", "12.5", "12.50"): never
 * negative, at most two decimals. Parses to integer pence, the only form money takes inside.
 */
export const poundsToPence = (label: string) =>
  z.union([z.number(), z.string()], { error: `The ${label} field is required.` }).transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v.trim();
    if (text === '' || text === '£') {
      ctx.addIssue({ code: 'custom', message: `The ${label} field is required.` });
      return z.NEVER;
    }
    const pence = parsePounds(text);
    if (pence === null) {
      ctx.addIssue({ code: 'custom', message: `The ${label} must be an amount in pounds, such as 25 or 25.50.` });
      return z.NEVER;
    }
    if (!Number.isSafeInteger(pence) || pence > 100_000_000) {
      ctx.addIssue({ code: 'custom', message: `The ${label} must not be more than £1,000,000.00.` });
      return z.NEVER;
    }
    return pence;
  });

/** pence → pounds for the API (1250 → 12.5) */
export const penceToPounds = (pence: number): number => pence / 100;

/**
 * Pence from pounds as typed: "1250", "1,250.50", "£12.5". Commas only as thousands separators
 * (so "1,50" is refused, never read as £150); at most two decimals; null when it is not an amount.
 */
export function parsePounds(typed: string): number | null {
  const text = typed.trim().replace(/^£\s*/, '');
  if (!/^(\d+|\d{1,3}(,\d{3})+)(\.\d{1,2})?$/.test(text)) return null;
  const [whole, fraction = ''] = text.replace(/,/g, '').split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** £1,234.50 — every amount shown to a person: pages, messages, PDFs and email. */
export const formatPounds = (pounds: number): string => gbp.format(pounds);
