import { Alert, SegmentedControl, SimpleGrid, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { CreateTransactionInput, Invoice } from '../../../../contract/invoices.ts';
import { REFUND_WARNING } from '../../../../contract/invoice-constants.ts';
import { readBootstrap } from '../../../lib/bootstrap.ts';
import { ukToday } from '../../../../contract/dates.ts';
import { PaymentFields } from '../../../components/payment-fields.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../../lib/mutation.ts';
import { createTransaction, invoiceChangeKeys } from '../api/invoices.ts';

// whether Stripe is set up, as the page says
const cardPayments = readBootstrap().card_payments === true;

type Values = { type: 'payment' | 'refund'; amount: string; processor: string; date: string | null; notes: string };

/** Record Payment (spec §2): a payment, or a refund when the type selector says refund. */
export function RecordPaymentDialog({
  invoice,
  onClose,
  onDone,
  onFailed,
}: {
  invoice: Invoice;
  onClose: () => void;
  onDone: (message: string) => void;
  onFailed: () => void;
}) {
  // one key for this dialog: a retry or a double click records the payment once
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  // what the last try recorded, for its failure message
  const [tried, setTried] = useState<Values['type']>('payment');
  const form = useForm<Values>({
    // the raw values go to the server, which speaks pounds; the schema checks them here first
    resolver: lazyZodResolver(
      () =>
        import('../../../../contract/invoices.ts').then((m) =>
          m.createTransactionSchema.omit({ booking_id: true, invoice_id: true, invoice_type: true, date: true }),
        ),
      { raw: true },
    ) as never,
    // a paid invoice has nothing left to pay: what staff come to record is a refund
    defaultValues: {
      type: invoice.paid && invoice.payment_received > 0 ? 'refund' : 'payment',
      amount: '',
      processor: 'STRIPE',
      date: ukToday(),
      notes: '',
    },
  });
  const errors = form.formState.errors;
  const type = useWatch({ control: form.control, name: 'type' });
  const processor = useWatch({ control: form.control, name: 'processor' });
  const fromStripe = invoice.transactions.filter((t) => t.provider_ref !== null && t.deleted_at === null).length;
  const recording = useFormMutation({
    mutationFn: (body: CreateTransactionInput) =>
      createTransaction(body, idempotencyKey).catch((error: unknown) => {
        // spec §8 only logs a failed transaction; the dialog says so too (staff must know it was not recorded)
        console.error('The transaction was not recorded', error);
        throw error;
      }),
    invalidate: invoiceChangeKeys(invoice.booking_id),
    setError: form.setError,
    fallback: 'Please try again.',
    onSuccess: (res) => onDone(res.message),
  });

  const submit = form.handleSubmit(async (v) => {
    if (!v.date) {
      form.setError('date', { message: 'The date field is required.' });
      return;
    }
    setTried(v.type);
    const recorded = await recording.submit({
      booking_id: invoice.booking_id,
      invoice_id: invoice.id,
      invoice_type: invoice.type,
      amount: v.amount,
      type: v.type,
      processor: v.processor as CreateTransactionInput['processor'],
      date: v.date,
      notes: v.notes,
    });
    // the invoice may have changed under us (a colleague's payment, a deleted invoice)
    if (!recorded) onFailed();
  });

  return (
    <FormDialog
      title={`Record Payment: ${invoice.invoice_ref}`}
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      failure={recording.failure && `The ${tried} was not recorded. ${recording.failure}`}
      submitLabel={type === 'refund' ? 'Record Refund' : 'Record Payment'}
      submitting={form.formState.isSubmitting}
      above={
        <SimpleGrid cols={3}>
          <div>
            <Text size="xs" c="dimmed">
              Total
            </Text>
            <Text fw={600}>{formatMoney(invoice.total)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Received
            </Text>
            <Text fw={600}>{formatMoney(invoice.payment_received)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Outstanding
            </Text>
            <Text fw={600}>{formatMoney(invoice.outstanding)}</Text>
          </div>
        </SimpleGrid>
      }
    >
      <Controller
        control={form.control}
        name="type"
        render={({ field }) => (
          <SegmentedControl
            aria-label="Type"
            data={[
              { value: 'payment', label: 'Payment' },
              { value: 'refund', label: 'Refund' },
            ]}
            value={field.value}
            onChange={(v) => field.onChange(v)}
          />
        )}
      />
      {type === 'refund' && (
        <Alert color="yellow" variant="light" styles={{ message: { color: '#3d2a00' } }}>
          {REFUND_WARNING}
        </Alert>
      )}
      <PaymentFields form={form} />
      {cardPayments && processor === 'STRIPE' && (
        <Alert color="blue" variant="light" role="status">
          Tripdesk records this invoice’s card payments and refunds from Stripe by itself
          {fromStripe > 0 ? ` (${fromStripe} so far)` : ''}: you need not type them. One you do type is matched to
          Stripe’s report of it, not counted twice.
        </Alert>
      )}
      <Textarea label="Notes" autosize minRows={2} error={errors.notes?.message} {...form.register('notes')} />
    </FormDialog>
  );
}
