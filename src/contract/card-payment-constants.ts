// Plain values of the card payments contract (no zod), for screens that only show them.

/** Said wherever a pay link would be when Stripe is not configured. */
export const CARD_PAYMENTS_OFF = 'Card payments are not set up';

export const PAY_PAGE_REASONS = ['invalid', 'expired', 'paid', 'withdrawn', 'cancelled', 'off', 'hold_ended'] as const;
export type PayPageReason = (typeof PAY_PAGE_REASONS)[number];

export const CHECKOUT_STATES = ['paid', 'processing', 'open', 'expired'] as const;
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

/** What a payer is told when a pay link cannot be used. */
export const PAY_PAGE_MESSAGES: Record<PayPageReason, string> = {
  invalid: 'This pay link is not valid. Please check that you have the whole link, or ask us for a new one.',
  expired: 'This pay link has expired. Please ask us for a new one.',
  paid: 'This invoice has been paid in full. Thank you.',
  withdrawn:
    'This invoice has been withdrawn, so there is nothing to pay on this link. Please contact us if you have any questions.',
  cancelled:
    'This booking has been cancelled, so there is nothing to pay on this link. Please contact us if you have any questions.',
  off: 'Card payments are not set up. Please contact us to pay another way.',
  hold_ended:
    'The place held for this booking has been let go: its deposit was not paid in time. Please book again if places are left.',
};
