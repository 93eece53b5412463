import { Checkbox, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm, useWatch } from 'react-hook-form';
import type { Transferred, TransferPreview } from '../../../contract/changes.ts';
import { formatPounds } from '../../../contract/pounds.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { api } from '../../lib/api.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { bookingKeys } from './api/bookings.ts';
import { PreviewFrame, useChangePreview } from './change-preview.tsx';
import { invoiceChangeKeys } from './api/invoices.ts';

type Values = {
  title: string;
  first_name: string;
  last_name: string;
  preferred_name: string;
  email: string;
  mobile: string;
  fee_waived: boolean;
  override_reason: string;
  notify: boolean;
};

/** Passes a booking to another traveller (its reference, money and history stay), showing first what it does. */
export function TransferBookingDialog({
  bookingId,
  onClose,
  onDone,
}: {
  bookingId: number;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values>({
    resolver: lazyZodResolver(() =>
      import('../../../contract/changes.ts').then((m) => m.transferBookingSchema),
    ) as never,
    defaultValues: {
      title: '',
      first_name: '',
      last_name: '',
      preferred_name: '',
      email: '',
      mobile: '',
      fee_waived: false,
      override_reason: '',
      notify: true,
    },
  });
  const waived = useWatch({ control: form.control, name: 'fee_waived' });
  const preview = useChangePreview<TransferPreview>(bookingId, 'transfer', { fee_waived: waived ? '1' : '0' });
  const errors = form.formState.errors;
  const transferring = useFormMutation({
    mutationFn: (body: Values) => api<Transferred>(`/api/bookings/${bookingId}/transfer`, { method: 'POST', body }),
    invalidate: [...invoiceChangeKeys(bookingId), bookingKeys.lists],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the booking could not be passed on. Please try again.',
    onSuccess: (res) => onDone(res.message),
  });
  const p = preview.data;
  const field = (name: keyof Values, label: string, required = true, max = 255) => (
    <TextInput
      label={label}
      required={required}
      maxLength={max}
      error={errors[name]?.message}
      {...form.register(name)}
    />
  );
  return (
    <FormDialog
      title="Transfer to another traveller"
      size="lg"
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => transferring.submit(v))}
      failure={transferring.failure ?? (p && !p.transferable ? p.refused : null)}
      submitLabel="Transfer Booking"
      cancelLabel="Keep As It Is"
      submitting={transferring.isPending}
      above={
        <PreviewFrame preview={preview} what="the transfer">
          {(p) => (
            <Stack gap={4} role="group" aria-label="What the transfer does">
              <Text size="sm">
                From {p.from.name} ({p.from.email}), {p.days_before_departure} days before departure.
              </Text>
              <Text size="sm">{p.summary}</Text>
              <Text size="sm" fw={700}>
                Transfer fee: {formatPounds(p.fee)}
              </Text>
            </Stack>
          )}
        </PreviewFrame>
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {field('title', 'Title', true, 20)}
        {field('first_name', 'First name')}
        {field('last_name', 'Last name')}
        {field('preferred_name', 'Preferred name')}
        {field('email', 'Email')}
        {field('mobile', 'Mobile', false, 30)}
      </SimpleGrid>
      <Checkbox label="Waive the transfer fee" {...form.register('fee_waived')} />
      {p?.needs_override && (
        <Textarea
          label="Why the place may pass so close to departure"
          description="Within 7 days of departure, an Administrator's reason is needed."
          required
          autosize
          minRows={2}
          maxLength={500}
          error={errors.override_reason?.message}
          {...form.register('override_reason')}
        />
      )}
      <Checkbox label="Email both travellers" {...form.register('notify')} />
    </FormDialog>
  );
}
