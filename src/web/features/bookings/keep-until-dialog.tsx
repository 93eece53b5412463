import { Text, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import type { KeepUntilInput } from '../../../contract/retention.ts';
import { DateField } from '../../components/date-field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { api } from '../../lib/api.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { bookingKeys } from './api/bookings.ts';

type Values = { keep_until: string | null; reason: string };

/** Keeps a booking's personal details from the erasure after return until a day, saying why. */
export function KeepUntilDialog({
  bookingId,
  keepUntil,
  keepReason,
  onClose,
  onDone,
}: {
  bookingId: number;
  keepUntil: string | null;
  keepReason: string | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values>({
    resolver: lazyZodResolver(() => import('../../../contract/retention.ts').then((m) => m.keepUntilSchema)) as never,
    defaultValues: { keep_until: keepUntil, reason: keepReason ?? '' },
  });
  const errors = form.formState.errors;
  const saving = useFormMutation({
    mutationFn: (body: KeepUntilInput) =>
      api<{ message: string }>(`/api/bookings/${bookingId}/keep-until`, { method: 'PUT', body }),
    invalidate: [bookingKeys.one(bookingId), ['retention']],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the erasure could not be held back. Please try again.',
    onSuccess: (res) => onDone(res.message),
  });
  return (
    <FormDialog
      title="Keep from erasure"
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => saving.submit({ keep_until: v.keep_until, reason: v.reason }))}
      failure={saving.failure}
      submitLabel="Keep Details"
      submitting={saving.isPending}
      above={
        <Text size="sm" c="dimmed">
          The passport, medical, insurance-number and next-of-kin details are erased some months after the trip's
          return. Keep them longer only for a reason such as an open claim or an incident.
        </Text>
      }
    >
      <Controller
        control={form.control}
        name="keep_until"
        render={({ field }) => (
          <DateField
            label="Keep until"
            required
            value={field.value}
            onChange={field.onChange}
            error={errors.keep_until?.message}
          />
        )}
      />
      <TextInput label="Reason" required maxLength={500} error={errors.reason?.message} {...form.register('reason')} />
    </FormDialog>
  );
}
