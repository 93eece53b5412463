import { and, eq, gt, isNull } from 'drizzle-orm';
import type { CreateTransactionValues, Processor, Transaction, TransactionType } from '../../../contract/invoices.ts';
import { formatPence, formatPounds, penceToPounds } from '../../../contract/money.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { bookings, invoices, transactions } from '../../../db/schema/index.ts';
import { settleRefundsOwed } from './refunds-owed.ts';
import { audit } from '../../audit/audit.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';
import { pgError } from '../../sql.ts';
import { fullName, loadInvoices, selectTransactions, toTransaction } from './load.ts';
import { deletionRefusal, transactionRefusal } from './money.ts';
import { ukToday } from '../../../contract/dates.ts';

export type Recorded = { transaction: Transaction; replayed: boolean };

export type ProviderEntry = {
  invoiceId: number;
  type: TransactionType;
  amountPence: number;
  processor: Processor;
  date: string;
  notes: string | null;
  providerRef: string;
  /** only an entry typed after this may be the same money (typed after the payer opened Stripe's page) */
  typedAfter: Date;
};

export type Entry = {
  type: TransactionType;
  amountPence: number;
  processor: Processor;
  date: string;
  notes: string | null;
  idempotencyKey: string | null;
  providerRef: string | null;
  createdBy: number | null;
};

/** One payment or refund on a locked invoice, with its event, in the caller's transaction. */
export async function insertEntry(tx: Tx, invoice: typeof invoices.$inferSelect, e: Entry): Promise<number> {
  const [row] = await tx
    .insert(transactions)
    .values({ bookingId: invoice.bookingId, invoiceId: invoice.id, invoiceType: invoice.type, ...e })
    .returning({ id: transactions.id });
  const [booking] = await tx
    .select({ tripId: bookings.tripId })
    .from(bookings)
    .where(eq(bookings.id, invoice.bookingId));
  const amount = penceToPounds(e.amountPence);
  await audit(tx, {
    action: 'transaction.recorded',
    subject: { type: 'transaction', id: row!.id },
    bookingId: invoice.bookingId,
    tripId: booking?.tripId ?? null,
    summary: `recorded a ${e.type} of ${formatPounds(amount)} (${e.processor}) on ${invoice.invoiceRef}`,
    details: {
      type: e.type,
      amount,
      processor: e.processor,
      date: e.date,
      notes: e.notes,
      invoice_id: invoice.id,
      invoice_ref: invoice.invoiceRef,
      ...(e.providerRef ? { provider_ref: e.providerRef } : {}),
    },
  });
  // a refund to a school of its group share is not money owed back to the traveller (issue 37)
  if (e.type === 'refund' && invoice.groupId === null) await settleRefundsOwed(tx, invoice.bookingId, row!.id);
  return row!.id;
}

/**
 * Payments and refunds. They are append-only: a delete marks the entry with who and when.
 * Each write locks its invoice, so concurrent payments and refunds are checked one after the
 * other against what is really outstanding.
 */
export class TransactionService {
  constructor(private readonly db: Db) {}

  /**
   * With an idempotency key, the same request sent again (a double click, a retry after a lost
   * reply, twenty at once) records one entry and always gets that entry back.
   */
  async create(v: CreateTransactionValues, idempotencyKey: string | undefined, userId: number): Promise<Recorded> {
    if (idempotencyKey) {
      const earlier = await this.replay(idempotencyKey, v);
      if (earlier) return earlier;
    }
    try {
      const id = await this.db.transaction(async (tx) => {
        const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, v.invoice_id)).for('update');
        if (!invoice) throw validationError({ invoice_id: ['The selected invoice is invalid.'] });
        if (invoice.bookingId !== v.booking_id)
          throw validationError({ invoice_id: ['This invoice belongs to another booking.'] });
        if (invoice.type !== v.invoice_type)
          throw validationError({ invoice_type: [`This is a ${invoice.type} invoice.`] });
        if (idempotencyKey) {
          // a twin that held the lock before us has committed by now
          const [twin] = await tx
            .select({ id: transactions.id })
            .from(transactions)
            .where(eq(transactions.idempotencyKey, idempotencyKey));
          if (twin) return null;
        }
        if (v.date > ukToday()) throw validationError({ date: ['The date must not be in the future.'] });
        const [loaded] = await loadInvoices(tx, eq(invoices.id, invoice.id));
        const refusal = transactionRefusal(loaded!.summary, v.type, v.amount);
        if (refusal) throw validationError({ amount: [refusal] });
        return insertEntry(tx, invoice, {
          type: v.type,
          amountPence: v.amount,
          processor: v.processor,
          date: v.date,
          notes: v.notes,
          idempotencyKey: idempotencyKey ?? null,
          providerRef: null,
          createdBy: userId,
        });
      });
      if (id === null) return (await this.replay(idempotencyKey!, v))!;
      return { transaction: await this.get(id), replayed: false };
    } catch (error) {
      const e = pgError(error);
      if (idempotencyKey && e.code === '23505' && e.constraint === 'transactions_idempotency_key_unique')
        return (await this.replay(idempotencyKey, v))!;
      throw error;
    }
  }

  /**
   * Money the card provider reports (a payment taken, a refund made in its dashboard), recorded
   * in the caller's transaction. Never refused for being more than is outstanding: money that
   * came in is kept, and an invoice paid twice shows as overpaid. Recorded once per provider id:
   * an entry already carrying it is returned (struck out too), and one staff typed by hand for the
   * same money (the provider's processor, the same type and amount, no id yet, typed after the
   * payer opened the provider's page) gains the id instead of being doubled: an earlier payment of
   * the same amount by phone is other money. Null when the invoice is gone.
   */
  async recordFromProvider(
    tx: Tx,
    e: ProviderEntry,
  ): Promise<{ id: number; outcome: 'recorded' | 'matched' | 'known' } | null> {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, e.invoiceId)).for('update');
    if (!invoice) return null;
    const live = and(
      eq(transactions.invoiceId, invoice.id),
      eq(transactions.type, e.type),
      isNull(transactions.deletedAt),
    );
    // struck out or not: money staff struck out is not recorded again when Stripe tells of it again
    const [known] = await tx
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.type, e.type), eq(transactions.providerRef, e.providerRef)))
      .orderBy(transactions.id)
      .limit(1);
    if (known) return { id: known.id, outcome: 'known' };
    const [typed] = await tx
      .select({ id: transactions.id })
      .from(transactions)
      .where(
        and(
          live,
          eq(transactions.processor, e.processor),
          eq(transactions.amountPence, e.amountPence),
          isNull(transactions.providerRef),
          gt(transactions.createdAt, e.typedAfter),
        ),
      )
      .orderBy(transactions.id)
      .limit(1);
    if (typed) {
      await tx.update(transactions).set({ providerRef: e.providerRef }).where(eq(transactions.id, typed.id));
      const [booking] = await tx
        .select({ tripId: bookings.tripId })
        .from(bookings)
        .where(eq(bookings.id, invoice.bookingId));
      await audit(tx, {
        action: 'transaction.matched',
        subject: { type: 'transaction', id: typed.id },
        bookingId: invoice.bookingId,
        tripId: booking?.tripId ?? null,
        summary: `matched the ${e.type} of ${formatPence(e.amountPence)} recorded by hand on ${invoice.invoiceRef} to ${e.providerRef}`,
        details: {
          type: e.type,
          amount: penceToPounds(e.amountPence),
          processor: e.processor,
          provider_ref: e.providerRef,
          invoice_id: invoice.id,
          invoice_ref: invoice.invoiceRef,
        },
      });
      return { id: typed.id, outcome: 'matched' };
    }
    const id = await insertEntry(tx, invoice, { ...e, idempotencyKey: null, createdBy: null });
    return { id, outcome: 'recorded' };
  }

  private async replay(key: string, v: CreateTransactionValues): Promise<Recorded | null> {
    const [row] = await this.db.select().from(transactions).where(eq(transactions.idempotencyKey, key));
    if (!row) return null;
    const same =
      row.bookingId === v.booking_id &&
      row.invoiceId === v.invoice_id &&
      row.amountPence === v.amount &&
      row.type === v.type &&
      row.processor === v.processor &&
      row.date === v.date;
    if (!same) throw new HttpError(422, 'This Idempotency-Key was already used for a different payment or refund.');
    return { transaction: await this.get(row.id), replayed: true };
  }

  async get(id: number): Promise<Transaction> {
    const [row] = await selectTransactions(this.db, eq(transactions.id, id));
    if (!row) throw notFound('Transaction not found.');
    return toTransaction(row.t, fullName(row.creator), fullName(row.deleter));
  }

  /** Strikes the entry out: kept, with who and when, and left out of every total from now on. */
  async delete(id: number, userId: number, reason?: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [entry] = await tx
        .select({ invoiceId: transactions.invoiceId, deletedAt: transactions.deletedAt })
        .from(transactions)
        .where(eq(transactions.id, id));
      if (!entry) throw notFound('Transaction not found.');
      const [invoice] = await tx
        .select({ id: invoices.id, ref: invoices.invoiceRef })
        .from(invoices)
        .where(eq(invoices.id, entry.invoiceId))
        .for('update');
      const [loaded] = await loadInvoices(tx, eq(invoices.id, entry.invoiceId));
      const refusal = deletionRefusal(loaded!.money, loaded!.transactionIds.indexOf(id), ukToday());
      if (refusal) throw new HttpError(422, refusal);
      const [struck] = await tx
        .update(transactions)
        .set({ deletedAt: new Date(), deletedBy: userId })
        .where(and(eq(transactions.id, id), isNull(transactions.deletedAt)))
        .returning();
      if (!struck) return;
      const [booking] = await tx
        .select({ tripId: bookings.tripId })
        .from(bookings)
        .where(eq(bookings.id, struck.bookingId));
      const amount = penceToPounds(struck.amountPence);
      await audit(tx, {
        action: 'transaction.struck_out',
        subject: { type: 'transaction', id },
        bookingId: struck.bookingId,
        tripId: booking?.tripId ?? null,
        summary: `struck out the ${struck.type} of ${formatPounds(amount)} (${struck.processor}) on ${invoice!.ref}${reason ? `: ${reason}` : ''}`,
        details: {
          type: struck.type,
          amount,
          processor: struck.processor,
          date: struck.date,
          invoice_id: struck.invoiceId,
          invoice_ref: invoice!.ref,
          reason: reason ?? null,
        },
      });
    });
  }
}
