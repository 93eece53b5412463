import { z } from 'zod';
import { CARD_PAYMENTS_OFF, CHECKOUT_STATES, PAY_PAGE_REASONS } from './card-payment-constants.ts';
export {
  CARD_PAYMENTS_OFF,
  PAY_PAGE_REASONS,
  PAY_PAGE_MESSAGES,
  type PayPageReason,
  CHECKOUT_STATES,
  type CheckoutState,
} from './card-payment-constants.ts';

// ---- card payments: pay links, the pay page, Stripe Checkout ----

/** A pay link's token, as the address carries it (the server checks its signature). */
export const payTokenParam = z.object({
  token: z.string().min(1, { error: 'This pay link is not valid.' }).max(100, { error: 'This pay link is not valid.' }),
});

export const payCheckoutParam = payTokenParam.extend({
  session: z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, { error: 'This is not a card payment of ours.' }),
});

/** GET /api/public/pay/{token}: all a payer sees, and nothing more. */
export const payPageSchema = z.object({
  operator: z.string(),
  trip: z.object({ name: z.string(), departure: z.string() }),
  invoice_ref: z.string(),
  first_name: z.string(),
  /** a school paying its group invoice (issue 37): the school's name */
  school: z.string().optional(),
  /** pounds */
  outstanding: z.number(),
});
export type PayPage = z.infer<typeof payPageSchema>;

/** A pay link that cannot be used: why, in words for the payer, with the operator to contact. */
export const payPageRefusalSchema = z.object({
  message: z.string(),
  reason: z.enum(PAY_PAGE_REASONS),
  operator: z.string().nullable(),
});
export type PayPageRefusal = z.infer<typeof payPageRefusalSchema>;

/** POST /api/public/pay/{token}/checkout: where to send the payer (Stripe's hosted page). */
export const checkoutStartedSchema = z.object({ url: z.string() });

/** GET /api/public/pay/{token}/checkouts/{session}: what Stripe says of that attempt. */
export const checkoutOutcomeSchema = z.object({
  state: z.enum(CHECKOUT_STATES),
  /** pounds: what the attempt was for */
  amount: z.number(),
  message: z.string(),
});
export type CheckoutOutcome = z.infer<typeof checkoutOutcomeSchema>;

/** POST /api/invoices/{id}/pay-link (staff). */
export const payLinkSchema = z.object({ url: z.string(), expires_at: z.string() });
export type PayLinkReply = z.infer<typeof payLinkSchema>;

export const cardPaymentsOffSchema = z.object({ message: z.literal(CARD_PAYMENTS_OFF) });
