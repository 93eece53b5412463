import { Checkbox, List, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useForm, useWatch } from 'react-hook-form';
import type { Cancelled, CancelPreview } from '../../../contract/changes.ts';
import { formatPounds } from '../../../contract/pounds.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { api } from '../../lib/api.ts';
import { formatLongDate } from '../../lib/format.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { bookingKeys } from './api/bookings.ts';
import { Figure, PreviewFrame, useChangePreview } from './change-preview.tsx';
import { invoiceChangeKeys } from './api/invoices.ts';

type Values = { reason: string; fee_waived: boolean; waived_reason: string; notify: boolean };

/** What cancelling would do, from the server's preview: the same function that then does it. */
function PreviewOf({ p }: { p: CancelPreview }) {
  const owed =
    p.refund_owed > 0
      ? { label: `Owed back by ${formatLongDate(p.refund_due_on!)}`, value: formatPounds(p.refund_owed) }
      : { label: 'Still to pay (a cancellation invoice)', value: formatPounds(p.still_owed) };
  return (
    <Stack gap="xs" aria-label="What cancelling does" role="group">
      <Text size="sm">
        {p.days_before_departure >= 0
          ? `${p.days_before_departure} days before departure.`
          : `${-p.days_before_departure} days after departure.`}{' '}
        {p.fee_waived
          ? `The fee is waived (the scale keeps ${formatPounds(p.scale_fee)}).`
          : p.band
            ? `The scale: ${p.band.label}.`
            : ''}
      </Text>
      <SimpleGrid cols={3} spacing="xs">
        <Figure label="Fee kept" value={formatPounds(p.fee)} />
        <Figure label="Paid so far" value={formatPounds(p.paid)} />
        <Figure label={owed.label} value={owed.value} strong />
      </SimpleGrid>
      {(p.invoices_deleted.length > 0 || p.rows_waived.length > 0 || p.invoices_kept.length > 0) && (
        <List size="sm" spacing={2}>
          {p.invoices_deleted.map((i) => (
            <List.Item key={`d${i.id}`}>
              Invoice {i.ref} ({formatPounds(i.total)}) is deleted: nothing was paid on it.
            </List.Item>
          ))}
          {p.invoices_kept.map((i) => (
            <List.Item key={`k${i.id}`}>
              Invoice {i.ref} stays: {formatPounds(i.paid)} paid on it counts against the fee.
            </List.Item>
          ))}
          {p.rows_waived.length > 0 && (
            <List.Item>
              {p.rows_waived.length === 1 ? 'The instalment' : `${p.rows_waived.length} instalments`} not yet paid (
              {p.rows_waived.map((r) => `${r.label} ${formatPounds(r.amount)}`).join(', ')}) waived.
            </List.Item>
          )}
        </List>
      )}
    </Stack>
  );
}

/** Cancels a booking by the fee scale, showing first what it will do. */
export function CancelBookingDialog({
  bookingId,
  onClose,
  onDone,
}: {
  bookingId: number;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values>({
    resolver: lazyZodResolver(() => import('../../../contract/changes.ts').then((m) => m.cancelBookingSchema)) as never,
    defaultValues: { reason: '', fee_waived: false, waived_reason: '', notify: true },
  });
  const waived = useWatch({ control: form.control, name: 'fee_waived' });
  const preview = useChangePreview<CancelPreview>(bookingId, 'cancel', { fee_waived: waived ? '1' : '0' });
  const errors = form.formState.errors;
  const cancelling = useFormMutation({
    mutationFn: (body: Values) =>
      api<Cancelled>(`/api/bookings/${bookingId}/cancel`, {
        method: 'POST',
        body,
      }),
    // the booking (its schedule and history under it), its invoices, and the lists it is in
    invalidate: [...invoiceChangeKeys(bookingId), bookingKeys.lists],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the booking could not be cancelled. Please try again.',
    onSuccess: (res) => onDone(res.message),
  });
  const p = preview.data;
  return (
    <FormDialog
      title="Cancel this booking"
      size="lg"
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => cancelling.submit(v))}
      failure={cancelling.failure ?? (p && !p.cancellable ? p.refused : null)}
      submitLabel="Cancel Booking"
      cancelLabel="Keep Booking"
      danger
      submitting={cancelling.isPending}
      above={
        <PreviewFrame preview={preview} what="cancelling">
          {(p) => <PreviewOf p={p} />}
        </PreviewFrame>
      }
    >
      <Textarea
        label="Reason"
        required
        autosize
        minRows={2}
        maxLength={500}
        error={errors.reason?.message}
        {...form.register('reason')}
      />
      <Checkbox label="Waive the fee (unavoidable and extraordinary circumstances)" {...form.register('fee_waived')} />
      {waived && (
        <Textarea
          label="Why the fee is waived"
          required
          autosize
          minRows={2}
          maxLength={500}
          error={errors.waived_reason?.message}
          {...form.register('waived_reason')}
        />
      )}
      <Checkbox label="Email the traveller what was decided" {...form.register('notify')} />
    </FormDialog>
  );
}
