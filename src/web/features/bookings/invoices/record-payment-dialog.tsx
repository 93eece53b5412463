import { Alert, Button, Group, Modal, NativeSelect, SegmentedControl, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { CreateTransactionInput, Invoice } from '../../../../contract/invoices.ts';
import { PROCESSOR_LABELS, PROCESSORS, REFUND_WARNING } from '../../../../contract/invoice-constants.ts';
import { ukToday } from '../../../../contract/dates.ts';
import { DateField } from '../../../components/date-field.tsx';
import { errorMessage, setFieldErrors } from '../../../lib/errors.ts';
import { formatMoney } from '../../../lib/format.ts';
import { createTransaction } from '../api/invoices.ts';

type Values = { type: 'payment' | 'refund'; amount: string; processor: string; date: string | null; notes: string };

/** Record Payment (spec §2): a payment, or a refund when the type selector says refund. */
export function RecordPaymentDialog({ invoice, onClose, onDone, onFailed }: { invoice: Invoice; onClose: () => void; onDone: (message: string) => void; onFailed: () => void }) {
  // one key for this dialog: a retry or a double click records the payment once
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    // the raw values go to the server, which speaks pounds; the schema checks them here first
    resolver: lazyZodResolver(() => import('../../../../contract/invoices.ts').then((m) => m.createTransactionSchema.omit({ booking_id: true, invoice_id: true, invoice_type: true, date: true })), { raw: true }) as never,
    // a paid invoice has nothing left to pay: what staff come to record is a refund
    defaultValues: { type: invoice.paid && invoice.payment_received > 0 ? 'refund' : 'payment', amount: '', processor: 'STRIPE', date: ukToday(), notes: '' },
  });
  const errors = form.formState.errors;
  const type = useWatch({ control: form.control, name: 'type' });

  const submit = form.handleSubmit(async (v) => {
    setFailure(null);
    if (!v.date) {
      form.setError('date', { message: 'The date field is required.' });
      return;
    }
    const body: CreateTransactionInput = {
      booking_id: invoice.booking_id,
      invoice_id: invoice.id,
      invoice_type: invoice.type,
      amount: v.amount,
      type: v.type,
      processor: v.processor as CreateTransactionInput['processor'],
      date: v.date,
      notes: v.notes,
    };
    try {
      const res = await createTransaction(body, idempotencyKey);
      onDone(res.message);
    } catch (error) {
      // spec §8 only logs a failed transaction; staff must know it was not recorded
      console.error('The transaction was not recorded', error);
      setFieldErrors(error, form.setError);
      setFailure(`The ${v.type} was not recorded. ${errorMessage(error)}`);
      // the invoice may have changed under us (a colleague's payment, a deleted invoice)
      onFailed();
    }
  });

  return (
    <Modal opened onClose={onClose} title={`Record Payment: ${invoice.invoice_ref}`} size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <SimpleGrid cols={3}>
            <div>
              <Text size="xs" c="dimmed">Total</Text>
              <Text fw={600}>{formatMoney(invoice.total)}</Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">Received</Text>
              <Text fw={600}>{formatMoney(invoice.payment_received)}</Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">Outstanding</Text>
              <Text fw={600}>{formatMoney(invoice.outstanding)}</Text>
            </div>
          </SimpleGrid>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <SegmentedControl
                aria-label="Type"
                data={[{ value: 'payment', label: 'Payment' }, { value: 'refund', label: 'Refund' }]}
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
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label="Amount" required leftSection="£" placeholder="0.00" inputMode="decimal" error={errors.amount?.message} {...form.register('amount')} data-autofocus />
            <NativeSelect label="Paid by" data={PROCESSORS.map((p) => ({ value: p, label: PROCESSOR_LABELS[p] }))} error={errors.processor?.message} {...form.register('processor')} />
            <Controller
              control={form.control}
              name="date"
              render={({ field }) => <DateField label="Date" required value={field.value} onChange={field.onChange} error={errors.date?.message} maxDate={ukToday()} />}
            />
          </SimpleGrid>
          <Textarea label="Notes" autosize minRows={2} error={errors.notes?.message} {...form.register('notes')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {type === 'refund' ? 'Record Refund' : 'Record Payment'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
