import { Alert, Anchor, Badge, Modal, SimpleGrid, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ukToday } from '../../../contract/dates.ts';
import type { GroupInvoice, GroupPaymentInput } from '../../../contract/groups.ts';
import { PaymentFields } from '../../components/payment-fields.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { formatLongDate, formatMoney } from '../../lib/format.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { groupInvoiceKey, groupKeys, recordGroupPayment, useGroupInvoice } from './api/groups.ts';

type Values = { amount: string; processor: string; date: string | null; notes: string };

const Figure = ({ label, value }: { label: string; value: number }) => (
  <div>
    <Text size="xs" c="dimmed">
      {label}
    </Text>
    <Text fw={600}>{formatMoney(value)}</Text>
  </div>
);

/** The group invoice's figures and its lines, one per pupil, with the PDF. */
function InvoiceSummary({ invoice }: { invoice: GroupInvoice }) {
  return (
    <Stack gap="xs">
      <SimpleGrid cols={invoice.credit > 0 ? 4 : 3}>
        <Figure label="Total" value={invoice.total} />
        <Figure label="Received" value={invoice.paid} />
        <Figure label="Outstanding" value={invoice.outstanding} />
        {invoice.credit > 0 && <Figure label="Credit" value={invoice.credit} />}
      </SimpleGrid>
      {invoice.credit > 0 && (
        <Text size="sm" c="dimmed">
          The school paid {formatMoney(invoice.credit)} beyond its lines for pupils who left: refund it on their lines,
          from their bookings.
        </Text>
      )}
      <Text size="sm">
        {invoice.due_date && invoice.outstanding > 0 ? `Due ${formatLongDate(invoice.due_date)} · ` : ''}
        <Anchor href={invoice.pdf_url} target="_blank">
          Open the invoice as a PDF
        </Anchor>
      </Text>
      {invoice.pay_url && (
        <TextInput
          label="The school’s pay link"
          description="For the school to pay what it owes by card; the PDF carries it too."
          value={invoice.pay_url}
          readOnly
          onFocus={(e) => e.currentTarget.select()}
        />
      )}
      {invoice.lines.length === 0 ? (
        <Text size="sm" c="dimmed">
          No pupils have joined yet: each adds a line at the school’s share.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table striped fz="xs" horizontalSpacing="xs" aria-label="The school’s share for each pupil">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Pupil</Table.Th>
                <Table.Th ta="right">Share</Table.Th>
                <Table.Th ta="right" visibleFrom="xs">
                  Paid
                </Table.Th>
                <Table.Th ta="right">Outstanding</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoice.lines.map((l) => (
                <Table.Tr key={l.invoice_id}>
                  <Table.Td>
                    <Anchor href={`/bookings/${l.booking_id}`} size="xs">
                      {l.pupil}
                    </Anchor>{' '}
                    {l.left && (
                      <Badge size="xs" color="gray" variant="light">
                        Left
                      </Badge>
                    )}
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {l.booking_ref}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(l.amount)}</Table.Td>
                  <Table.Td ta="right" visibleFrom="xs">
                    {formatMoney(l.paid)}
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(l.outstanding)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/**
 * A school group's invoice (issue 37), from the trip's groups: its lines, and for a member who
 * may record money, the school's payment, split by the server to its pupils' shares.
 */
export function GroupInvoiceDialog({
  groupId,
  tripId,
  school,
  mayRecord,
  onClose,
}: {
  groupId: number;
  tripId: number;
  school: string;
  mayRecord: boolean;
  onClose: () => void;
}) {
  const invoice = useGroupInvoice(groupId);
  // what the last payment did, shown here where the figures changed (the page's flash is out of sight)
  const [notice, setNotice] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: lazyZodResolver(
      () => import('../../../contract/groups.ts').then((m) => m.groupPaymentInputSchema.omit({ date: true })),
      { raw: true },
    ) as never,
    defaultValues: { amount: '', processor: 'BACS', date: ukToday(), notes: '' },
  });
  const errors = form.formState.errors;
  const recording = useFormMutation({
    mutationFn: (body: GroupPaymentInput) => recordGroupPayment(groupId, body),
    invalidate: [groupInvoiceKey(groupId), groupKeys.ofTrip(tripId)],
    setError: form.setError,
    fallback: 'The payment was not recorded. Please try again.',
    alertWithFieldErrors: false,
    onSuccess: (res) => {
      setNotice(res.message);
      form.reset({ amount: '', processor: 'BACS', date: ukToday(), notes: '' });
    },
  });
  const title = `Group Invoice${invoice.data ? `: ${invoice.data.ref}` : ''} · ${school}`;
  const body = invoice.isError ? (
    <Text c="red.9" role="alert">
      The group invoice could not be loaded. Please close this and try again.
    </Text>
  ) : !invoice.data ? (
    <Text size="sm">{invoice.isPending ? 'Loading…' : 'The parents pay: this group has no invoice.'}</Text>
  ) : (
    <Stack gap="xs">
      {notice && (
        <Alert color="green" variant="light" role="status">
          {notice}
        </Alert>
      )}
      <InvoiceSummary invoice={invoice.data} />
    </Stack>
  );
  const owing = (invoice.data?.outstanding ?? 0) > 0;
  if (!mayRecord || !owing)
    return (
      <Modal opened onClose={onClose} title={title} size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        {body}
      </Modal>
    );

  const submit = form.handleSubmit(async (v) => {
    if (!v.date) {
      form.setError('date', { message: 'The date field is required.' });
      return;
    }
    await recording.submit({
      amount: v.amount,
      processor: v.processor as GroupPaymentInput['processor'],
      date: v.date,
      notes: v.notes,
    });
  });
  return (
    <FormDialog
      title={title}
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      failure={recording.failure}
      submitLabel="Record the School’s Payment"
      submitting={form.formState.isSubmitting}
      above={body}
    >
      <Text size="sm" c="dimmed">
        The payment is split to the pupils’ shares, the earliest due first.
      </Text>
      <PaymentFields form={form} />
      <Textarea label="Notes" autosize minRows={2} error={errors.notes?.message} {...form.register('notes')} />
    </FormDialog>
  );
}
