import { Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { BookingFundraising, BookingFundraisingInput } from '../../../../contract/fundraising.ts';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useFormMutation } from '../../../lib/mutation.ts';
import { updateFundraising } from '../api/fundraising.ts';
import { bookingKeys } from '../api/bookings.ts';

type Values = { target: string; reason: string; page_url: string };

/** The traveller's own target (blank: the trip's minimum), why it differs, and their fundraising page. */
export function TargetDialog({
  bookingId,
  fundraising: f,
  onClose,
  onDone,
}: {
  bookingId: number;
  fundraising: BookingFundraising;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values>({
    // a blank target means the trip's minimum: sent as null, and the server's rules answer under each field
    defaultValues: {
      target: f.target_reason ? String(f.target) : '',
      reason: f.target_reason ?? '',
      page_url: f.page_url ?? '',
    },
  });
  const errors = form.formState.errors;
  const saving = useFormMutation({
    mutationFn: (body: BookingFundraisingInput) => updateFundraising(bookingId, body),
    invalidate: [bookingKeys.one(bookingId)],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the fundraising could not be changed. Please try again.',
    onSuccess: () => onDone('The fundraising has been changed.'),
  });
  const submit = form.handleSubmit(async (v) => {
    const target = v.target.trim() === '' ? null : v.target.trim();
    if (target !== null && v.reason.trim() === '')
      return form.setError('reason', { message: 'Say why the target differs from the trip’s minimum.' });
    await saving.submit({ target, reason: target === null ? undefined : v.reason, page_url: v.page_url });
  });
  return (
    <FormDialog
      title="Change target or page"
      onClose={onClose}
      onSubmit={submit}
      failure={saving.failure}
      submitLabel="Save"
      submitting={saving.isPending}
      above={
        <Text size="sm" c="dimmed">
          The trip's minimum for this booking is {formatMoney(f.trip_minimum)}. Leave the target blank to use it.
        </Text>
      }
    >
      <TextInput
        label="Target (£)"
        inputMode="decimal"
        placeholder={`${f.trip_minimum}`}
        error={errors.target?.message}
        {...form.register('target')}
        data-autofocus
      />
      <TextInput label="Why it differs" maxLength={500} error={errors.reason?.message} {...form.register('reason')} />
      <TextInput
        label="Fundraising page"
        placeholder="https://www.justgiving.com/…"
        maxLength={2048}
        error={errors.page_url?.message}
        {...form.register('page_url')}
      />
    </FormDialog>
  );
}
