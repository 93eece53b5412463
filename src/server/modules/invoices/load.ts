import { asc, eq, inArray, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Invoice, InvoiceType, Processor, TransactionType } from '../../../contract/invoices.ts';
import { penceToPounds } from '../../../contract/money.ts';
import type { Db } from '../../../db/client.ts';
import { invoiceAddons, invoiceItems, invoices, transactions, users } from '../../../db/schema/index.ts';
import { type InvoiceMoney, summarise, type Summary } from './money.ts';
import { ukToday } from '../../../contract/dates.ts';

const creator = alias(users, 'creator');
const deleter = alias(users, 'deleter');
export const fullName = (u: { firstName: string | null; lastName: string | null } | null) =>
  u && u.firstName !== null ? `${u.firstName} ${u.lastName}` : null;

export type LoadedInvoice = {
  reply: Invoice;
  money: InvoiceMoney;
  summary: Summary;
  transactionIds: number[];
  /** a school group's share (issue 37): the school's to pay, not the traveller's */
  groupId: number | null;
};

/** Invoices with their items, add-ons and every payment and refund, summed by the money rules. */
export async function loadInvoices(db: Db, where: SQL): Promise<LoadedInvoice[]> {
  const rows = await db.select().from(invoices).where(where).orderBy(asc(invoices.invoiceDate), asc(invoices.id));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  // one after another: inside a transaction they share one connection, which takes one query at a
  // time (node-postgres queues them today and refuses from pg 9)
  const items = await db
    .select()
    .from(invoiceItems)
    .where(inArray(invoiceItems.invoiceId, ids))
    .orderBy(asc(invoiceItems.sortOrder), asc(invoiceItems.id));
  const addons = await db
    .select()
    .from(invoiceAddons)
    .where(inArray(invoiceAddons.invoiceId, ids))
    .orderBy(asc(invoiceAddons.addonId));
  const entries = await selectTransactions(db, inArray(transactions.invoiceId, ids));
  const today = ukToday();
  return rows.map((inv) => {
    const its = items.filter((i) => i.invoiceId === inv.id);
    const ads = addons.filter((a) => a.invoiceId === inv.id);
    const txs = entries.filter((e) => e.t.invoiceId === inv.id);
    const money: InvoiceMoney = {
      itemsPence: its.map((i) => i.amountPence),
      addonsPence: ads.map((a) => a.pricePence),
      discountPence: inv.discountPence,
      dueDate: inv.dueDate,
      entries: txs.map(({ t }) => ({
        type: t.type as TransactionType,
        amountPence: t.amountPence,
        deleted: t.deletedAt !== null,
      })),
    };
    const s = summarise(money, today);
    const reply: Invoice = {
      id: inv.id,
      booking_id: inv.bookingId,
      invoice_date: inv.invoiceDate,
      due_date: inv.dueDate,
      type: inv.type as InvoiceType,
      invoice_ref: inv.invoiceRef,
      description: inv.description,
      items: its.map((i) => ({ description: i.description, amount: penceToPounds(i.amountPence) })),
      addons: ads.map((a) => ({ id: a.addonId, name: a.name, price: penceToPounds(a.pricePence) })),
      total: penceToPounds(s.totalPence),
      payment_received: penceToPounds(s.receivedPence),
      refunded: penceToPounds(s.refundedPence),
      outstanding: penceToPounds(s.outstandingPence),
      status: s.status,
      paid: s.paid,
      past_due: s.pastDue,
      discount_amount: penceToPounds(s.discountPence),
      discount_code: inv.discountCode,
      sent_at: inv.sentAt?.toISOString() ?? null,
      created_at: inv.createdAt.toISOString(),
      transactions: txs.map(({ t, creator, deleter }) => toTransaction(t, fullName(creator), fullName(deleter))),
    };
    return { reply, money, summary: s, transactionIds: txs.map(({ t }) => t.id), groupId: inv.groupId };
  });
}

/** Payments and refunds with the names of who recorded and who struck them out, oldest first. */
export function selectTransactions(db: Db, where: SQL) {
  return db
    .select({
      t: transactions,
      creator: { firstName: creator.firstName, lastName: creator.lastName },
      deleter: { firstName: deleter.firstName, lastName: deleter.lastName },
    })
    .from(transactions)
    .leftJoin(creator, eq(creator.id, transactions.createdBy))
    .leftJoin(deleter, eq(deleter.id, transactions.deletedBy))
    .where(where)
    .orderBy(asc(transactions.date), asc(transactions.id));
}

export function toTransaction(
  t: typeof transactions.$inferSelect,
  createdBy: string | null,
  deletedBy: string | null,
): Invoice['transactions'][number] {
  return {
    id: t.id,
    booking_id: t.bookingId,
    invoice_id: t.invoiceId,
    invoice_type: t.invoiceType as InvoiceType,
    amount: penceToPounds(t.amountPence),
    type: t.type as TransactionType,
    processor: t.processor as Processor,
    date: t.date,
    created_at: t.createdAt.toISOString(),
    // what the card provider reported is recorded by nobody at the office
    created_by: createdBy ?? (t.createdBy === null && t.providerRef !== null ? 'Stripe' : null),
    provider_ref: t.providerRef,
    notes: t.notes,
    deleted_at: t.deletedAt?.toISOString() ?? null,
    deleted_by: deletedBy,
  };
}
