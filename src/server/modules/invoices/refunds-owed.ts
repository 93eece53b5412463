import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../../db/client.ts';
import { formatPence } from '../../../contract/money.ts';
import { audit } from '../../audit/audit.ts';

/**
 * A refund recorded on a booking (any processor) settles the refunds it owes, the oldest first, as
 * far as the refunds recorded since the oldest open one was owed cover them: a refund paid in two
 * parts settles it with the second; a refund to a school of its group share is not one of them.
 * Called in the transaction that records the refund.
 */
export async function settleRefundsOwed(tx: Tx, bookingId: number, transactionId: number): Promise<void> {
  const open = await queryRows<{ id: number; amount_pence: number; created_at: Date }>(
    tx,
    sql`select id, amount_pence, created_at from refunds_owed
        where booking_id = ${bookingId} and state = 'open' order by created_at, id for update`,
  );
  if (!open.length) return;
  const [refunded] = await queryRows<{ pence: string }>(
    tx,
    sql`select coalesce(sum(t.amount_pence), 0)::bigint as pence from transactions t join invoices i on i.id = t.invoice_id
        where t.booking_id = ${bookingId} and t.type = 'refund' and t.deleted_at is null and i.group_id is null
          and t.created_at >= ${open[0]!.created_at}`,
  );
  let left = Number(refunded!.pence);
  for (const owed of open) {
    if (owed.amount_pence > left) break;
    left -= owed.amount_pence;
    await tx.execute(
      sql`update refunds_owed set state = 'settled', settled_at = now(), transaction_id = ${transactionId} where id = ${owed.id}`,
    );
    await audit(tx, {
      action: 'refund_owed.settled',
      subject: { type: 'refund_owed', id: owed.id },
      bookingId,
      summary: `settled the refund owed of ${formatPence(owed.amount_pence)} with the refund recorded`,
      details: { transaction_id: transactionId, amount: owed.amount_pence / 100 },
    });
  }
}
