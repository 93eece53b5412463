// Money as people type and read it, with no zod: the web shell and its lists import this alone.

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

/** £1,234.50 from pence — the same, for the amounts the server keeps in pence. */
export const formatPence = (pence: number): string => gbp.format(pence / 100);
