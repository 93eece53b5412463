import { Alert, Button, Modal, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { Invoice, Transaction } from '../../../../contract/invoices.ts';
import { PROCESSOR_LABELS } from '../../../../contract/invoice-constants.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatLongDate, formatMoney } from '../../../lib/format.ts';
import { deleteTransaction } from '../api/invoices.ts';

/** Every payment and refund of an invoice; deleted ones stay, struck through, with who and when. */
export function PaymentHistoryDialog({ invoice, onClose, onChanged }: { invoice: Invoice | undefined; onClose: () => void; onChanged: () => void }) {
  const [confirming, setConfirming] = useState<Transaction | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const remove = async (t: Transaction) => {
    setBusy(true);
    setFailure(null);
    try {
      await deleteTransaction(t.id);
    } catch (error) {
      setFailure(error instanceof ApiError && error.status === 422 ? error.message : 'Sorry, an error occurred. Please refresh the page and try again.');
    } finally {
      setBusy(false);
      setConfirming(null);
      // deleting a transaction reloads the invoices (spec §4)
      onChanged();
    }
  };

  return (
    <>
      <Modal opened={Boolean(invoice) && !confirming} onClose={onClose} title={invoice ? `Payment History: ${invoice.invoice_ref}` : ''} size="xl" closeButtonProps={{ 'aria-label': 'Close' }}>
        {invoice && (
          <>
            <Text size="sm" mb="sm">
              Total {formatMoney(invoice.total)} · received {formatMoney(invoice.payment_received)} · outstanding {formatMoney(invoice.outstanding)}
            </Text>
            {failure && (
              <Alert color="red" role="alert" mb="sm">
                {failure}
              </Alert>
            )}
            {invoice.transactions.length === 0 ? (
              <Text size="sm" c="dimmed">
                No payments or refunds have been recorded.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={700}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Date</Table.Th>
                      <Table.Th>Type</Table.Th>
                      <Table.Th>Paid by</Table.Th>
                      <Table.Th ta="right">Amount</Table.Th>
                      <Table.Th>Notes</Table.Th>
                      <Table.Th>Recorded by</Table.Th>
                      <Table.Th>Action</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {invoice.transactions.map((t) => {
                      const deleted = t.deleted_at !== null;
                      const strike = deleted ? { textDecoration: 'line-through', color: 'var(--mantine-color-dimmed)' } : undefined;
                      return (
                        <Table.Tr key={t.id} data-deleted={deleted || undefined}>
                          <Table.Td style={strike}>{formatLongDate(t.date)}</Table.Td>
                          <Table.Td style={strike}>{t.type === 'refund' ? 'Refund' : 'Payment'}</Table.Td>
                          <Table.Td style={strike}>{PROCESSOR_LABELS[t.processor]}</Table.Td>
                          <Table.Td style={strike} ta="right">
                            {t.type === 'refund' ? '−' : ''}
                            {formatMoney(t.amount)}
                          </Table.Td>
                          <Table.Td style={strike}>{t.notes}</Table.Td>
                          <Table.Td>
                            <Text size="sm">{t.created_by ?? '—'}</Text>
                            {deleted && (
                              <Text size="xs" c="red.9">
                                Deleted{t.deleted_by ? ` by ${t.deleted_by}` : ''} on {formatLongDate(t.deleted_at)}
                              </Text>
                            )}
                          </Table.Td>
                          <Table.Td>
                            {!deleted && (
                              <Button size="compact-sm" variant="light" color="red" onClick={() => setConfirming(t)}>
                                Delete
                              </Button>
                            )}
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </>
        )}
      </Modal>
      <ConfirmDialog
        opened={confirming !== null}
        title="Delete transaction"
        message={
          confirming
            ? `Are you sure you want to delete this ${confirming.type} of ${formatMoney(confirming.amount)}? It will stay in the history, struck through, and no longer count towards the invoice.`
            : ''
        }
        confirmLabel="Yes, Delete it"
        cancelLabel="No, Cancel"
        busy={busy}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void remove(confirming)}
      />
    </>
  );
}
