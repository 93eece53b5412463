import type { Discount } from '../../../contract/discounts.ts';
import { formatShortDate } from '../../lib/format.ts';

/** Spec §2: 'date to date', 'From date', 'Until date' or Unrestricted, in en-GB short dates. */
export function validityText(discount: Pick<Discount, 'valid_from' | 'valid_until'>): string {
  const from = discount.valid_from ? formatShortDate(discount.valid_from.slice(0, 10)) : null;
  const until = discount.valid_until ? formatShortDate(discount.valid_until.slice(0, 10)) : null;
  if (from && until) return `${from} to ${until}`;
  if (from) return `From ${from}`;
  if (until) return `Until ${until}`;
  return 'Unrestricted';
}

/** any → Any */
export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
