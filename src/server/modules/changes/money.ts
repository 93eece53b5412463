import { eq, inArray } from 'drizzle-orm';
import { CANCELLATION_DUE_DAYS, REFUND_DUE_DAYS } from '../../../contract/changes.ts';
import { addDays } from '../../../contract/dates.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { invoices, refundsOwed, transactions } from '../../../db/schema/index.ts';
import { type LoadedInvoice, loadInvoices } from '../invoices/load.ts';
import type { InvoiceService } from '../invoices/service.ts';

/**
 * A booking's invoices as a change settles them: one with no payment or refund ever recorded goes;
 * one with money on it stays as it is and counts for what was paid.
 */
export async function invoicesByMoney(
  tx: Db | Tx,
  bookingId: number,
): Promise<{ unpaid: LoadedInvoice[]; withMoney: LoadedInvoice[] }> {
  const loaded = await loadInvoices(tx as Db, eq(invoices.bookingId, bookingId));
  const used = loaded.length
    ? await tx
        .selectDistinct({ invoiceId: transactions.invoiceId })
        .from(transactions)
        .where(
          inArray(
            transactions.invoiceId,
            loaded.map((l) => l.reply.id),
          ),
        )
    : [];
  const ids = new Set(used.map((u) => u.invoiceId));
  return {
    unpaid: loaded.filter((l) => !ids.has(l.reply.id)),
    withMoney: loaded.filter((l) => ids.has(l.reply.id)),
  };
}

/** A fee (a cancellation's, a transfer's, a move's) invoiced on its own, due in 14 days; its id. */
export function invoiceFee(
  service: InvoiceService,
  tx: Tx,
  f: {
    bookingId: number;
    tripId: number;
    type: 'cancellation' | 'other';
    description: string;
    item: string;
    pence: number;
    today: string;
    userId: number;
  },
): Promise<number> {
  return service.raiseIn(tx, {
    bookingId: f.bookingId,
    tripId: f.tripId,
    type: f.type,
    invoiceRef: null,
    description: f.description,
    invoiceDate: f.today,
    dueDate: addDays(f.today, CANCELLATION_DUE_DAYS),
    items: [{ description: f.item, amountPence: f.pence }],
    addons: [],
    discountCode: null,
    createdBy: f.userId,
  });
}

/** Money owed back to the traveller, due 14 days from today (reg 12); its id. */
export async function oweRefund(
  tx: Tx,
  o: { bookingId: number; pence: number; reason: string; today: string; userId: number },
): Promise<number> {
  const [row] = await tx
    .insert(refundsOwed)
    .values({
      bookingId: o.bookingId,
      amountPence: o.pence,
      reason: o.reason,
      dueOn: addDays(o.today, REFUND_DUE_DAYS),
      createdBy: o.userId,
      // created_at from the database's clock, as the refunds that settle it are stamped by it
    })
    .returning({ id: refundsOwed.id });
  return row!.id;
}
