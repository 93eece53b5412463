import { Button, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Invoice, Transaction } from '../../../../contract/invoices.ts';
import { PROCESSOR_LABELS } from '../../../../contract/invoice-constants.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { ServerAlert } from '../../../components/form-frame.tsx';
import { formatLongDate, formatMoney } from '../../../lib/format.ts';
import { useFormMutation } from '../../../lib/mutation.ts';
import { useCan } from '../../../lib/session.tsx';
import { deleteTransaction, invoiceChangeKeys } from '../api/invoices.ts';

const struck = (t: Transaction) =>
  t.deleted_at !== null ? { style: { textDecoration: 'line-through', color: 'var(--mantine-color-dimmed)' } } : {};

/**
 * Every payment and refund of an invoice; deleted ones stay, struck through, with who and when.
 * Delete only for a team that may change money.
 */
export function PaymentHistoryDialog({
  invoice,
  onClose,
  onFailed,
}: {
  invoice: Invoice | undefined;
  onClose: () => void;
  onFailed: () => void;
}) {
  // the question replaces the history while it is asked (Escape then closes the question only)
  const [confirming, setConfirming] = useState<Transaction | null>(null);
  const changes = useCan()('finance');
  const removing = useFormMutation({
    mutationFn: (t: Transaction) => deleteTransaction(t.id),
    // deleting a transaction reloads the invoices (spec §4), and the booking's history
    invalidate: invoice ? invoiceChangeKeys(invoice.booking_id) : [],
    fallback: 'Sorry, an error occurred. Please refresh the page and try again.',
  });
  const remove = async (t: Transaction) => {
    if (!(await removing.submit(t))) onFailed();
    setConfirming(null);
  };

  const columns: Array<Column<Transaction>> = [
    { key: 'date', label: 'Date', cell: (t) => formatLongDate(t.date), cellProps: struck },
    { key: 'type', label: 'Type', cell: (t) => (t.type === 'refund' ? 'Refund' : 'Payment'), cellProps: struck },
    { key: 'processor', label: 'Paid by', cell: (t) => PROCESSOR_LABELS[t.processor], cellProps: struck },
    {
      key: 'amount',
      label: 'Amount',
      align: 'right',
      cell: (t) => `${t.type === 'refund' ? '−' : ''}${formatMoney(t.amount)}`,
      cellProps: struck,
    },
    // a card provider's id is one long word: it wraps rather than pushing the columns out of the dialog
    {
      key: 'notes',
      label: 'Notes',
      cell: (t) => <span style={{ overflowWrap: 'anywhere' }}>{t.notes}</span>,
      cellProps: struck,
    },
    {
      key: 'by',
      label: 'Recorded by',
      cell: (t) => (
        <>
          <Text size="sm">{t.created_by ?? '—'}</Text>
          {t.deleted_at !== null && (
            <Text size="xs" c="red.9">
              Deleted{t.deleted_by ? ` by ${t.deleted_by}` : ''} on {formatLongDate(t.deleted_at)}
            </Text>
          )}
        </>
      ),
    },
    ...(changes
      ? [
          {
            key: 'action',
            label: 'Action',
            cell: (t: Transaction) =>
              t.deleted_at === null && (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => setConfirming(t)}
                  aria-label={`Delete the ${t.type} of ${formatMoney(t.amount)}`}
                >
                  Delete
                </Button>
              ),
          },
        ]
      : []),
  ];

  return (
    <>
      <Modal
        opened={invoice !== undefined && !confirming}
        onClose={onClose}
        title={invoice ? `Payment History: ${invoice.invoice_ref}` : ''}
        size="xl"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {invoice && (
          <Stack gap="sm">
            <Text size="sm">
              Total {formatMoney(invoice.total)} · received {formatMoney(invoice.payment_received)} · outstanding{' '}
              {formatMoney(invoice.outstanding)}
            </Text>
            <ServerAlert failure={removing.failure} variant="light" />
            <DataTable
              columns={columns}
              data={invoice.transactions}
              rowKey={(t) => t.id}
              empty="No payments or refunds have been recorded."
              rowProps={(t) => ({ 'data-deleted': t.deleted_at !== null || undefined })}
            />
          </Stack>
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
        busy={removing.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void remove(confirming)}
      />
    </>
  );
}
