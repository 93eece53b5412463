import { toDdMmYyyy } from '../../../contract/dates.ts';
import type { InvoiceStatus, InvoiceType, TransactionType } from '../../../contract/invoices.ts';
import { formatPence } from '../../../contract/money.ts';

/**
 * The money rules of invoices, in pence, with no database: what an invoice totals, what is
 * outstanding, its status, whether a payment or refund may be recorded, what a balance
 * invoice bills and whether a discount applies. Everything the API and the pages show about
 * an invoice's money comes from summarise(); nothing derived is stored.
 */

export type Entry = { type: TransactionType; amountPence: number; deleted: boolean };

export type InvoiceMoney = {
  itemsPence: number[];
  addonsPence: number[];
  /** the discount as applied when the invoice was raised (never more than its items and add-ons) */
  discountPence: number;
  dueDate: string;
  entries: Entry[];
};

export type Summary = {
  subtotalPence: number;
  discountPence: number;
  totalPence: number;
  paidInPence: number;
  refundedPence: number;
  /** payments less refunds */
  receivedPence: number;
  outstandingPence: number;
  paid: boolean;
  /** money still owed after the due date, whatever has been paid */
  pastDue: boolean;
  status: InvoiceStatus;
};

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The part of a discount an invoice can use: never more than what it bills. */
export const appliedDiscount = (discountPence: number, subtotalPence: number) =>
  Math.max(0, Math.min(discountPence, subtotalPence));

/** today: yyyy-mm-dd in the operator's time zone */
export function summarise(invoice: InvoiceMoney, today: string): Summary {
  const subtotalPence = sum(invoice.itemsPence) + sum(invoice.addonsPence);
  const discountPence = appliedDiscount(invoice.discountPence, subtotalPence);
  const totalPence = subtotalPence - discountPence;
  const live = invoice.entries.filter((e) => !e.deleted);
  const paidInPence = sum(live.filter((e) => e.type === 'payment').map((e) => e.amountPence));
  const refundedPence = sum(live.filter((e) => e.type === 'refund').map((e) => e.amountPence));
  const receivedPence = paidInPence - refundedPence;
  const outstandingPence = totalPence - receivedPence;
  const paid = outstandingPence <= 0;
  let status: InvoiceStatus;
  if (paid) status = 'Paid';
  else if (receivedPence > 0) status = 'Part Paid';
  else if (refundedPence > 0) status = 'Refunded';
  else if (invoice.dueDate < today) status = 'Overdue';
  else status = 'Unpaid';
  const pastDue = !paid && invoice.dueDate < today;
  return {
    subtotalPence,
    discountPence,
    totalPence,
    paidInPence,
    refundedPence,
    receivedPence,
    outstandingPence,
    paid,
    pastDue,
    status,
  };
}

/**
 * Why a new payment or refund may not be recorded, or null. What has been received always
 * stays between nothing and the invoice total: a payment may not be more than is outstanding
 * (an overpayment is refused, not kept as credit), a refund not more than was paid and not
 * yet refunded.
 */
export function transactionRefusal(summary: Summary, type: TransactionType, amountPence: number): string | null {
  if (!Number.isSafeInteger(amountPence) || amountPence <= 0) return 'The amount must be more than £0.00.';
  if (type === 'payment') {
    if (summary.outstandingPence <= 0)
      return 'This invoice is already paid in full, so no payment can be recorded against it.';
    if (amountPence > summary.outstandingPence)
      return `This payment of ${formatPence(amountPence)} is more than the ${formatPence(summary.outstandingPence)} outstanding on this invoice.`;
    return null;
  }
  if (summary.receivedPence <= 0) return 'Nothing has been paid on this invoice, so there is nothing to refund.';
  if (amountPence > summary.receivedPence)
    return `This refund of ${formatPence(amountPence)} is more than the ${formatPence(summary.receivedPence)} paid and not yet refunded on this invoice.`;
  return null;
}

/**
 * Why an entry may not be struck out, or null: without it, what was received must still be
 * between nothing and the total (a payment whose money was since refunded needs its refund
 * struck out first; a refund cannot be struck out if the payments since cover the invoice).
 */
export function deletionRefusal(invoice: InvoiceMoney, entryIndex: number, today: string): string | null {
  const entry = invoice.entries[entryIndex];
  if (!entry || entry.deleted) return 'This payment or refund has already been deleted.';
  const after = summarise(
    { ...invoice, entries: invoice.entries.map((e, i) => (i === entryIndex ? { ...e, deleted: true } : e)) },
    today,
  );
  if (after.receivedPence < 0) return 'Part of this payment has been refunded: delete the refund first.';
  if (after.receivedPence > after.totalPence)
    return 'Without this refund more would have been paid than the invoice total: delete a later payment first.';
  return null;
}

/**
 * A standard balance invoice: the trip cost, plus the booking's add-ons not yet invoiced,
 * less the travel-basis discount, less what earlier deposit and balance invoices billed
 * (their items; custom invoices of other types bill extras and do not count). Never negative.
 */
export function balanceDue(v: {
  costPence: number;
  travelBasisDiscountPence: number;
  earlierBilledPence: number;
  uninvoicedAddonsPence: number[];
}) {
  const tripPence = Math.max(0, v.costPence - v.travelBasisDiscountPence - v.earlierBilledPence);
  return { tripPence, addonsPence: sum(v.uninvoicedAddonsPence), totalPence: tripPence + sum(v.uninvoicedAddonsPence) };
}

/** Which earlier invoices' items count towards the trip cost when a balance is worked out. */
export const billsTripCost = (type: InvoiceType) => type === 'deposit' || type === 'balance';

export type DiscountRule = {
  code: string;
  invoiceType: string;
  tripId: number | null;
  /** yyyy-mm-dd, or null */
  validFrom: string | null;
  validUntil: string | null;
  usageLimit: number;
  usageCount: number;
};

/**
 * Why a discount code may not go on an invoice, or null: it must match the invoice type (or
 * be for any), the trip (or none), today must be inside its dates (both days included) and
 * it must have a use left. The use itself is taken atomically by the caller.
 */
export function discountRefusal(
  d: DiscountRule,
  at: { invoiceType: InvoiceType; tripId: number; today: string },
): string | null {
  if (d.invoiceType !== 'any' && d.invoiceType !== at.invoiceType)
    return `The discount code ${d.code} is only for ${d.invoiceType} invoices.`;
  if (d.tripId !== null && d.tripId !== at.tripId) return `The discount code ${d.code} is for another trip.`;
  if (d.validFrom && at.today < d.validFrom)
    return `The discount code ${d.code} cannot be used before ${toDdMmYyyy(d.validFrom)}.`;
  if (d.validUntil && at.today > d.validUntil)
    return `The discount code ${d.code} expired on ${toDdMmYyyy(d.validUntil)}.`;
  if (d.usageCount >= d.usageLimit) return `The discount code ${d.code} has been used up.`;
  return null;
}
