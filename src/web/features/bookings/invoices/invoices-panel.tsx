import { Alert, Button, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { BookingDetail } from '../../../../contract/bookings.ts';
import type { Invoice } from '../../../../contract/invoices.ts';
import { INVOICE_TYPE_LABELS, REFUND_WARNING } from '../../../../contract/invoice-constants.ts';
import { path } from '../../../../contract/paths.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ToneBadge, type Tone } from '../../../components/status-badge.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatMoney, formatShortDate } from '../../../lib/format.ts';
import { bookingKeys } from '../api/bookings.ts';
import { deleteInvoice, invoiceKeys, sendInvoice, useInvoices } from '../api/invoices.ts';
import { PaymentHistoryDialog } from './payment-history-dialog.tsx';

// the dialogs (and the date picker they use) load when first opened, not with the booking page
const NewInvoiceDialog = lazy(() => import('./new-invoice-dialog.tsx').then((m) => ({ default: m.NewInvoiceDialog })));
const RecordPaymentDialog = lazy(() => import('./record-payment-dialog.tsx').then((m) => ({ default: m.RecordPaymentDialog })));
const StandardInvoiceDialog = lazy(() => import('./standard-invoice-dialog.tsx').then((m) => ({ default: m.StandardInvoiceDialog })));

const STATUS_TONE: Record<Invoice['status'], Tone> = { Unpaid: 'neutral', 'Part Paid': 'warn', Paid: 'good', Overdue: 'bad', Refunded: 'info' };

type Dialog =
  | { kind: 'payment'; invoice: Invoice }
  | { kind: 'history'; invoiceId: number }
  | { kind: 'delete'; invoice: Invoice }
  | { kind: 'new' }
  | { kind: 'standard' }
  | null;

/** Spec §2 Invoices panel: the booking's invoices, payments and refunds. */
export function InvoicesPanel({ booking }: { booking: BookingDetail }) {
  const invoices = useInvoices(booking.id);
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<{ tone: 'info' | 'red'; text: string } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: invoiceKeys.forBooking(booking.id) });
    // the booking's add-ons change their invoiced mark with its invoices
    void queryClient.invalidateQueries({ queryKey: bookingKeys.one(booking.id) });
  };
  const done = (text: string) => {
    setNotice({ tone: 'info', text });
    reload();
  };

  const send = async (invoice: Invoice) => {
    setBusy(invoice.id);
    setNotice(null);
    try {
      const res = await sendInvoice(booking.id, invoice.id);
      done(res.message);
    } catch {
      setNotice({ tone: 'red', text: 'Sorry, an error occurred. Please try again.' });
    } finally {
      setBusy(null);
    }
  };

  const remove = async (invoice: Invoice) => {
    setBusy(invoice.id);
    try {
      await deleteInvoice(invoice.id);
      setDialog(null);
      done(`Invoice ${invoice.invoice_ref} has been deleted.`);
    } catch (error) {
      setDialog(null);
      setNotice({ tone: 'red', text: error instanceof ApiError && error.status === 422 ? error.message : 'Sorry, an error occurred. Please refresh the page and try again.' });
      reload();
    } finally {
      setBusy(null);
    }
  };

  const list = invoices.data ?? [];
  const historyInvoice = dialog?.kind === 'history' ? list.find((i) => i.id === dialog.invoiceId) : undefined;

  return (
    <Paper withBorder p="md" radius="md" id="invoices" component="section" aria-labelledby="invoices-heading">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="invoices-heading">
          Invoices
        </Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => setDialog({ kind: 'standard' })}>
            Standard Invoice
          </Button>
          <Button onClick={() => setDialog({ kind: 'new' })}>New Invoice</Button>
        </Group>
      </Group>
      <Stack gap="sm">
        <Alert color="yellow" variant="light" title="Refunds" styles={{ title: { color: '#6b4400' }, message: { color: '#3d2a00' } }}>
          {REFUND_WARNING}
        </Alert>
        {notice && (
          <Alert color={notice.tone === 'info' ? 'blue' : 'red'} role={notice.tone === 'red' ? 'alert' : 'status'} withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
            {notice.text}
          </Alert>
        )}
        {invoices.isPending ? (
          <Text size="sm" c="dimmed">
            Loading invoices…
          </Text>
        ) : invoices.isError ? (
          <Alert color="red" role="alert">
            The invoices could not be loaded. Please refresh the page and try again.
          </Alert>
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed">
            This booking has no invoices yet. Raise the standard deposit or balance invoice, or a new invoice of your own.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Reference</Table.Th>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Description</Table.Th>
                  <Table.Th ta="right">Amount</Table.Th>
                  <Table.Th>Due</Table.Th>
                  <Table.Th>Action</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((inv) => (
                  <Table.Tr key={inv.id} data-testid={`invoice-${inv.invoice_ref}`}>
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {inv.invoice_ref}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {INVOICE_TYPE_LABELS[inv.type]}
                        {inv.sent_at && ` · sent ${formatShortDate(inv.sent_at)}`}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatShortDate(inv.invoice_date)}</Table.Td>
                    <Table.Td>
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
                    </Table.Td>
                    <Table.Td ta="right">{formatMoney(inv.total)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" c={inv.past_due ? 'red.9' : undefined} fw={inv.past_due ? 600 : undefined}>
                        {formatShortDate(inv.due_date)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Button size="compact-sm" onClick={() => setDialog({ kind: 'payment', invoice: inv })}>
                          Payment
                        </Button>
                        <Button size="compact-sm" variant="default" component="a" href={path('invoice-view', { id: inv.id })} target="_blank" rel="noopener">
                          View
                        </Button>
                        <Button size="compact-sm" variant="default" loading={busy === inv.id} onClick={() => void send(inv)}>
                          Send
                        </Button>
                        <StatusButton invoice={inv} onOpen={() => setDialog({ kind: 'history', invoiceId: inv.id })} />
                        {inv.transactions.length === 0 && (
                          <Button size="compact-sm" variant="light" color="red" onClick={() => setDialog({ kind: 'delete', invoice: inv })}>
                            Delete
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>

      <Suspense fallback={null}>
      {dialog?.kind === 'payment' && (
        <RecordPaymentDialog invoice={dialog.invoice} onClose={() => setDialog(null)} onDone={(message) => { setDialog(null); done(message); }} onFailed={reload} />
      )}
      <PaymentHistoryDialog key={historyInvoice?.id ?? 0} invoice={historyInvoice} onClose={() => setDialog(null)} onChanged={reload} />
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title="Delete invoice"
        message={dialog?.kind === 'delete' ? `Are you sure you want to delete invoice ${dialog.invoice.invoice_ref}? This cannot be undone.` : ''}
        confirmLabel="Yes, Delete the Invoice"
        cancelLabel="No, Cancel"
        busy={busy !== null}
        onCancel={() => setDialog(null)}
        onConfirm={() => dialog?.kind === 'delete' && void remove(dialog.invoice)}
      />
      {dialog?.kind === 'new' && (
        <NewInvoiceDialog booking={booking} onClose={() => setDialog(null)} onDone={(inv) => { setDialog(null); done(`Invoice ${inv.invoice_ref} has been created.`); }} />
      )}
      {dialog?.kind === 'standard' && (
        <StandardInvoiceDialog bookingId={booking.id} onClose={() => setDialog(null)} onDone={(inv) => { setDialog(null); done(`Invoice ${inv.invoice_ref} has been created.`); }} />
      )}
      </Suspense>
    </Paper>
  );
}

/** The status opens the payment history; an unpaid invoice with nothing ever recorded has none. */
function StatusButton({ invoice, onOpen }: { invoice: Invoice; onOpen: () => void }) {
  const empty = invoice.status === 'Unpaid' && invoice.transactions.length === 0;
  const button = (
    <Button
      size="compact-sm"
      variant="default"
      disabled={empty}
      onClick={onOpen}
      aria-label={`${invoice.status}: payment history of ${invoice.invoice_ref}`}
    >
      <ToneBadge tone={STATUS_TONE[invoice.status]}>{invoice.status}</ToneBadge>
    </Button>
  );
  return empty ? (
    <Tooltip label="No payments yet">
      <span>{button}</span>
    </Tooltip>
  ) : (
    button
  );
}
