import { z } from 'zod';
import { parsePounds } from './pounds.ts';

export { formatPence, formatPounds, parsePounds, penceToPounds } from './pounds.ts';

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
