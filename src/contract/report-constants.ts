// The finance reports' names and words, without zod: the /reports screen shows them
// without loading the contract's schemas (decision 005).

export const REPORT_NAMES = ['payments', 'aged-debt', 'trip-profit', 'discount-usage', 'card-payments'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

export const REPORTS: Record<ReportName, { title: string; description: string; days: 'range' | 'at' }> = {
  payments: {
    title: 'Payments received',
    description:
      'Payments and refunds recorded between two days (by the day of the transaction), by trip and processor.',
    days: 'range',
  },
  'aged-debt': {
    title: 'Aged debt',
    description: 'What is owed today, by trip, aged by how long past its due date it is on a given day.',
    days: 'at',
  },
  'trip-profit': {
    title: 'Trip profit view',
    description:
      'Each trip departing between two days: bookings, invoiced, discounts given, received, refunded and still outstanding.',
    days: 'range',
  },
  'discount-usage': {
    title: 'Discount usage',
    description: 'Each discount code used on invoices dated between two days: how often and how much, by trip.',
    days: 'range',
  },
  'card-payments': {
    title: 'Card payments',
    description:
      'Each card payment and refund Stripe reported between two days, with its Stripe id, to check against Stripe’s own payouts.',
    days: 'range',
  },
};

/** How many rows the screen shows before the download. */
export const REPORT_PREVIEW_ROWS = 50;
