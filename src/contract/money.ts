import { z } from 'zod';

/**
 * An amount in pounds, typed or sent as a number or text ("12", "12.5", "12.50"): never
 * negative, at most two decimals. Parses to integer pence, the only form money takes inside.
 */
export const poundsToPence = (label: string) =>
  z.union([z.number(), z.string()], { error: `The ${label} field is required.` }).transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v.trim().replace(/^£/, '').replace(/,/g, '');
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: `The ${label} field is required.` });
      return z.NEVER;
    }
    if (!/^\d+(\.\d{1,2})?$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: `The ${label} must be an amount in pounds, such as 25 or 25.50.` });
      return z.NEVER;
    }
    const [whole, fraction = ''] = text.split('.');
    const pence = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
    if (!Number.isSafeInteger(pence) || pence > 100_000_000) {
      ctx.addIssue({ code: 'custom', message: `The ${label} must not be more than £1,000,000.00.` });
      return z.NEVER;
    }
    return pence;
  });

/** pence → pounds for the API (1250 → 12.5) */
export const penceToPounds = (pence: number): number => pence / 100;
