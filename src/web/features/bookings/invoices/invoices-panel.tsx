import { Alert, Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { BookingDetail } from '../../../../contract/bookings.ts';
import type { Invoice } from '../../../../contract/invoices.ts';
import { INVOICE_TYPE_LABELS, REFUND_WARNING } from '../../../../contract/invoice-constants.ts';
import { path } from '../../../../contract/paths.ts';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { DestructiveButton } from '../../../components/form-frame.tsx';
import { lazyComponent, lazyDialog } from '../../../components/lazy.tsx';
import { ToneBadge, type Tone } from '../../../components/status-badge.tsx';
import { formatMoney, formatShortDate } from '../../../lib/format.ts';
import { useFormMutation } from '../../../lib/mutation.ts';
import { createPayLink, deleteInvoice, invoiceChangeKeys, sendInvoice, useInvoices } from '../api/invoices.ts';
import { CARD_PAYMENTS_OFF } from '../../../../contract/card-payment-constants.ts';
import { readBootstrap } from '../../../lib/bootstrap.ts';
import { useCan } from '../../../lib/session.tsx';
import { BookingPanel } from '../booking-panel.tsx';

// the dialogs (and the date picker they use) load when first opened, not with the booking page
const NewInvoiceDialog = lazyComponent(() => import('./new-invoice-dialog.tsx').then((m) => m.NewInvoiceDialog));
const RecordPaymentDialog = lazyComponent(() =>
  import('./record-payment-dialog.tsx').then((m) => m.RecordPaymentDialog),
);
const StandardInvoiceDialog = lazyComponent(() =>
  import('./standard-invoice-dialog.tsx').then((m) => m.StandardInvoiceDialog),
);
const PaymentHistoryDialog = lazyDialog(
  () => import('./payment-history-dialog.tsx').then((m) => m.PaymentHistoryDialog),
  (p) => p.invoice !== undefined,
);

// whether Stripe is set up, as the page says (it does not change while the page is open)
const cardPayments = readBootstrap().card_payments === true;

const STATUS_TONE: Record<Invoice['status'], Tone> = {
  Unpaid: 'neutral',
  'Part Paid': 'warn',
  Paid: 'good',
  Overdue: 'bad',
  Refunded: 'info',
};

type Dialog =
  | { kind: 'payment'; invoice: Invoice }
  | { kind: 'history'; invoiceId: number }
  | { kind: 'new' }
  | { kind: 'standard' }
  | null;

/** An unpaid invoice with nothing ever recorded against it has no payment history to open. */
const noPayments = (invoice: Invoice) => invoice.status === 'Unpaid' && invoice.transactions.length === 0;
const noPaymentsId = (invoice: Invoice) => `no-payments-${invoice.id}`;

/**
 * Spec §2 Invoices panel: the booking's invoices, payments and refunds. A team that may only read
 * money sees them and their payment history, without the buttons that change them.
 */
export function InvoicesPanel({ booking }: { booking: BookingDetail }) {
  const changes = useCan()('finance');
  const invoices = useInvoices(booking.id);
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sendingId, setSendingId] = useState<number | null>(null);
  const changed = invoiceChangeKeys(booking.id);
  // a change that failed may still find the invoices changed (a colleague's payment, a deleted invoice)
  const refresh = () => changed.forEach((queryKey) => void queryClient.invalidateQueries({ queryKey }));

  const sending = useFormMutation({
    mutationFn: (invoice: Invoice) => sendInvoice(booking.id, invoice.id),
    invalidate: changed,
    fallback: 'Sorry, an error occurred. Please try again.',
    onSuccess: (res) => setNotice(res.message),
  });
  const linking = useFormMutation({
    mutationFn: (invoice: Invoice) => createPayLink(invoice.id),
    fallback: 'The pay link could not be made. Please try again.',
    onSuccess: async (link, invoice) => {
      let copied = false;
      try {
        await navigator.clipboard.writeText(link.url);
        copied = true;
      } catch {
        // a browser that will not let the page write the clipboard: the link is shown to copy by hand
      }
      setNotice(
        `${copied ? 'Copied the pay link' : 'The pay link'} of ${invoice.invoice_ref} (it works until ${formatShortDate(link.expires_at)}): ${link.url}`,
      );
    },
  });
  const removing = useFormMutation({
    mutationFn: (invoice: Invoice) => deleteInvoice(invoice.id),
    invalidate: changed,
    fallback: 'Sorry, an error occurred. Please refresh the page and try again.',
    onSuccess: (_, invoice) => setNotice(`Invoice ${invoice.invoice_ref} has been deleted.`),
  });
  // one message at a time: a new action clears the last one's
  const clearMessages = () => {
    setNotice(null);
    sending.clearFailure();
    removing.clearFailure();
    linking.clearFailure();
  };
  const send = async (invoice: Invoice) => {
    clearMessages();
    setSendingId(invoice.id);
    await sending.submit(invoice);
    setSendingId(null);
  };
  const remove = async (invoice: Invoice) => {
    clearMessages();
    if (!(await removing.submit(invoice))) refresh();
  };
  const copyPayLink = async (invoice: Invoice) => {
    clearMessages();
    await linking.submit(invoice);
  };
  const open = (next: Dialog) => {
    clearMessages();
    setDialog(next);
  };
  const done = (text: string) => {
    setDialog(null);
    setNotice(text);
  };

  const list = invoices.data ?? [];
  const cancelled = booking.status === 'cancelled';
  const historyInvoice = dialog?.kind === 'history' ? list.find((i) => i.id === dialog.invoiceId) : undefined;

  const columns: Array<Column<Invoice>> = [
    {
      key: 'ref',
      label: 'Reference',
      cell: (inv) => (
        <>
          <Text fw={600} size="sm">
            {inv.invoice_ref}
          </Text>
          <Text size="xs" c="dimmed">
            {INVOICE_TYPE_LABELS[inv.type]}
            {inv.sent_at && ` · sent ${formatShortDate(inv.sent_at)}`}
          </Text>
        </>
      ),
    },
    { key: 'date', label: 'Date', cell: (inv) => formatShortDate(inv.invoice_date) },
    {
      key: 'description',
      label: 'Description',
      cell: (inv) => (
        <>
          <Text size="sm">{inv.description}</Text>
          {inv.status === 'Part Paid' && (
            <Text size="xs" c="#7a4100" fw={600}>
              {formatMoney(inv.outstanding)} outstanding
            </Text>
          )}
          {inv.discount_amount > 0 && (
            <Text size="xs" c="dimmed">
              Discount {inv.discount_code}: −{formatMoney(inv.discount_amount)}
            </Text>
          )}
          {!cardPayments && inv.outstanding > 0 && !cancelled && (
            <Text size="xs" c="dimmed">
              {CARD_PAYMENTS_OFF}
            </Text>
          )}
          {noPayments(inv) && (
            // why the status button is unavailable, in words (it describes the button too)
            <Text size="xs" c="dimmed" id={noPaymentsId(inv)}>
              No payments yet
            </Text>
          )}
        </>
      ),
    },
    { key: 'amount', label: 'Amount', align: 'right', cell: (inv) => formatMoney(inv.total) },
    {
      key: 'due',
      label: 'Due',
      cell: (inv) => (
        <Text size="sm" c={inv.past_due ? 'red.9' : undefined} fw={inv.past_due ? 600 : undefined}>
          {formatShortDate(inv.due_date)}
        </Text>
      ),
    },
    {
      key: 'action',
      label: 'Action',
      cell: (inv) => (
        <Group gap={6} wrap="nowrap" w="max-content">
          {changes && (
            <Button size="xs" onClick={() => open({ kind: 'payment', invoice: inv })}>
              Payment
            </Button>
          )}
          <Button
            size="xs"
            variant="default"
            component="a"
            href={path('invoice-view', { id: inv.id })}
            target="_blank"
            rel="noopener"
          >
            View
          </Button>
          {changes && (
            <Button size="xs" variant="default" loading={sendingId === inv.id} onClick={() => void send(inv)}>
              Send
            </Button>
          )}
          {changes && cardPayments && inv.outstanding > 0 && !cancelled && (
            <Button
              size="xs"
              variant="default"
              onClick={() => void copyPayLink(inv)}
              aria-label={`Copy pay link of ${inv.invoice_ref}`}
            >
              Copy pay link
            </Button>
          )}
          <Button
            size="xs"
            variant="default"
            disabled={noPayments(inv)}
            onClick={() => open({ kind: 'history', invoiceId: inv.id })}
            aria-label={`${inv.status}: payment history of ${inv.invoice_ref}`}
            aria-describedby={noPayments(inv) ? noPaymentsId(inv) : undefined}
          >
            <ToneBadge tone={STATUS_TONE[inv.status]}>{inv.status}</ToneBadge>
          </Button>
          {changes && inv.transactions.length === 0 && (
            <DestructiveButton
              size="xs"
              label="Delete"
              ariaLabel={`Delete invoice ${inv.invoice_ref}`}
              title="Delete invoice"
              message={`Are you sure you want to delete invoice ${inv.invoice_ref}? This cannot be undone.`}
              confirmLabel="Yes, Delete the Invoice"
              cancelLabel="No, Cancel"
              onConfirm={() => remove(inv)}
            />
          )}
        </Group>
      ),
    },
  ];

  return (
    <BookingPanel
      id="invoices"
      title="Invoices"
      actions={
        changes && (
          <Group gap="xs">
            <Button variant="default" onClick={() => open({ kind: 'standard' })}>
              Standard Invoice
            </Button>
            <Button onClick={() => open({ kind: 'new' })}>New Invoice</Button>
          </Group>
        )
      }
      intro={
        <Alert
          color="yellow"
          variant="light"
          title="Refunds"
          styles={{ title: { color: '#6b4400' }, message: { color: '#3d2a00' } }}
        >
          {REFUND_WARNING}
        </Alert>
      }
      notice={notice}
      onDismiss={() => setNotice(null)}
      failure={sending.failure ?? removing.failure ?? linking.failure}
    >
      <DataTable
        columns={columns}
        query={invoices}
        failed="The invoices could not be loaded. Please refresh the page and try again."
        rowKey={(inv) => inv.id}
        empty="This booking has no invoices yet. Raise the standard deposit or balance invoice, or a new invoice of your own."
        rowProps={(inv) => ({ 'data-testid': `invoice-${inv.invoice_ref}` })}
      />

      {dialog?.kind === 'payment' && (
        <RecordPaymentDialog
          invoice={dialog.invoice}
          onClose={() => setDialog(null)}
          onDone={done}
          onFailed={refresh}
        />
      )}
      <PaymentHistoryDialog
        key={historyInvoice?.id ?? 0}
        invoice={historyInvoice}
        onClose={() => setDialog(null)}
        onFailed={refresh}
      />
      {dialog?.kind === 'new' && (
        <NewInvoiceDialog
          booking={booking}
          onClose={() => setDialog(null)}
          onDone={(inv) => done(`Invoice ${inv.invoice_ref} has been created.`)}
        />
      )}
      {dialog?.kind === 'standard' && (
        <StandardInvoiceDialog
          bookingId={booking.id}
          onClose={() => setDialog(null)}
          onDone={(inv) => done(`Invoice ${inv.invoice_ref} has been created.`)}
        />
      )}
    </BookingPanel>
  );
}
