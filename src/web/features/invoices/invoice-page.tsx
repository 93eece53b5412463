import { Alert, Button, Divider, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { InvoiceDocument } from '../../../contract/invoices.ts';
import { INVOICE_TYPE_LABELS } from '../../../contract/invoice-constants.ts';
import NotFoundPage from '../../components/not-found-page.tsx';
import { PageLoader } from '../../components/page-loader.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { formatLongDate, formatMoney } from '../../lib/format.ts';

/**
 * /invoices/{id}: the invoice as the customer gets it (the same content as its PDF), printable.
 * RecordLoader's states written out: form-frame.tsx (and the Modal it carries) stays off this page.
 */
export default function InvoicePage() {
  const id = Number(useParams().id);
  const doc = useQuery({
    queryKey: ['invoice-document', id],
    queryFn: () => api<InvoiceDocument>(`/api/invoices/${id}`),
  });
  if (doc.isPending) return <PageLoader />;
  // an address that is no invoice id at all (the API's 422) is not found either
  if (doc.error instanceof ApiError && (doc.error.status === 404 || doc.error.status === 422)) return <NotFoundPage />;
  if (doc.isError) {
    return (
      <Alert color="red" role="alert">
        The invoice could not be loaded. Please refresh the page and try again.
      </Alert>
    );
  }
  return <InvoiceView doc={doc.data} />;
}

/** The invoice as printed: a document, not a list (its items and totals are one table). */
function InvoiceView({ doc }: { doc: InvoiceDocument }) {
  const { invoice, operator, customer, booking, trip } = doc;
  const live = invoice.transactions.filter((t) => t.deleted_at === null);
  const totals: Array<[label: string, amount: number, strong: boolean]> = [
    ['Total', invoice.total, true],
    ['Payments received', invoice.payment_received, false],
    ['Outstanding', invoice.outstanding, true],
  ];
  return (
    <Stack maw={860} mx="auto">
      <Group justify="flex-end" className="no-print">
        <Button variant="default" component="a" href={`/api/invoices/${invoice.id}/pdf`} target="_blank" rel="noopener">
          Download PDF
        </Button>
        <Button onClick={() => window.print()}>Print</Button>
      </Group>
      <Paper withBorder p="xl" radius="md">
        <Group justify="space-between" align="flex-start">
          <div>
            <Text fw={700} size="lg">
              {operator.name}
            </Text>
            {operator.address.map((line) => (
              <Text key={line} size="sm">
                {line}
              </Text>
            ))}
          </div>
          <Stack gap={2} align="flex-end">
            <Title order={1} size="h2">
              Invoice
            </Title>
            <Text size="sm">Reference: {invoice.invoice_ref}</Text>
            <Text size="sm">Date: {formatLongDate(invoice.invoice_date)}</Text>
            <Text size="sm">Due: {formatLongDate(invoice.due_date)}</Text>
            <StatusBadge status={invoice.status} />
          </Stack>
        </Group>
        <SimpleGrid cols={2} mt="xl">
          <div>
            <Text fw={700} size="sm">
              Bill to
            </Text>
            <Text size="sm">{customer.name}</Text>
            {customer.address.map((line) => (
              <Text key={line} size="sm">
                {line}
              </Text>
            ))}
            <Text size="sm">{customer.email}</Text>
          </div>
          <div>
            <Text fw={700} size="sm">
              Booking
            </Text>
            <Text size="sm">{booking.ref}</Text>
            <Text size="sm">{trip.name}</Text>
            <Text size="sm">
              {formatLongDate(trip.departure)} to {formatLongDate(trip.return)}
            </Text>
          </div>
        </SimpleGrid>
        <Title order={2} size="h4" mt="xl" mb="xs">
          {invoice.description}{' '}
          <Text span c="dimmed" size="sm">
            ({INVOICE_TYPE_LABELS[invoice.type]})
          </Text>
        </Title>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Description</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.items.map((item, i) => (
              <Table.Tr key={`i${i}`}>
                <Table.Td>{item.description}</Table.Td>
                <Table.Td ta="right">{formatMoney(item.amount)}</Table.Td>
              </Table.Tr>
            ))}
            {invoice.addons.map((a) => (
              <Table.Tr key={`a${a.id}`}>
                <Table.Td>Add-on: {a.name}</Table.Td>
                <Table.Td ta="right">{formatMoney(a.price)}</Table.Td>
              </Table.Tr>
            ))}
            {invoice.discount_amount > 0 && (
              <Table.Tr>
                <Table.Td>Discount{invoice.discount_code ? ` (${invoice.discount_code})` : ''}</Table.Td>
                <Table.Td ta="right">−{formatMoney(invoice.discount_amount)}</Table.Td>
              </Table.Tr>
            )}
            {totals.map(([label, amount, strong]) => (
              <Table.Tr key={label}>
                <Table.Td fw={strong ? 700 : undefined}>{label}</Table.Td>
                <Table.Td ta="right" fw={strong ? 700 : undefined}>
                  {formatMoney(amount)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {live.length > 0 && (
          <>
            <Divider my="md" />
            <Text fw={700} size="sm" mb={4}>
              Payments and refunds
            </Text>
            {live.map((t) => (
              <Group key={t.id} justify="space-between">
                <Text size="sm">
                  {formatLongDate(t.date)} · {t.type === 'refund' ? 'Refund' : 'Payment'}
                </Text>
                <Text size="sm">
                  {t.type === 'refund' ? '−' : ''}
                  {formatMoney(t.amount)}
                </Text>
              </Group>
            ))}
          </>
        )}
        <Text size="sm" mt="xl">
          {invoice.paid
            ? 'This invoice is paid in full. Thank you.'
            : invoice.status === 'Refunded'
              ? 'The payments on this invoice have been refunded.'
              : `Please pay ${formatMoney(invoice.outstanding)} by ${formatLongDate(invoice.due_date)}, quoting ${invoice.invoice_ref}.`}
        </Text>
        {doc.pay && (
          <Group mt="md" gap="md" wrap="nowrap" align="center">
            <img src={doc.pay.qr} width={110} height={110} alt={`QR code of the pay link of ${invoice.invoice_ref}`} />
            <div>
              <Text size="sm" fw={700}>
                Pay by card
              </Text>
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                <a href={doc.pay.url}>{doc.pay.url}</a>
              </Text>
              <Text size="xs" c="dimmed">
                Scan the code with a phone, or open the link.
              </Text>
            </div>
          </Group>
        )}
      </Paper>
    </Stack>
  );
}
