import { NativeSelect, TextInput, Textarea } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { ukToday } from '../../../../contract/dates.ts';
import { ENTRY_SOURCE_LABELS, ENTRY_SOURCES } from '../../../../contract/fundraising-constants.ts';
import type { FundraisingEntryInput } from '../../../../contract/fundraising.ts';
import { DateField } from '../../../components/date-field.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../../lib/mutation.ts';
import { addFundraisingEntry } from '../api/fundraising.ts';
import { bookingKeys } from '../api/bookings.ts';

type Values = { amount: string; date: string | null; source: string; note: string };

/** Records an amount raised to date: how much, when, where the figure comes from, and a note. */
export function EntryDialog({
  bookingId,
  onClose,
  onDone,
}: {
  bookingId: number;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values>({
    resolver: lazyZodResolver(
      () => import('../../../../contract/fundraising.ts').then((m) => m.fundraisingEntryInputSchema),
      { raw: true },
    ) as never,
    defaultValues: { amount: '', date: ukToday(), source: 'page_total', note: '' },
  });
  const errors = form.formState.errors;
  const saving = useFormMutation({
    mutationFn: (body: FundraisingEntryInput) => addFundraisingEntry(bookingId, body),
    invalidate: [bookingKeys.one(bookingId)],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the amount could not be recorded. Please try again.',
    onSuccess: (res) => onDone(`Recorded. ${formatMoney(res.raised)} raised of ${formatMoney(res.target)}.`),
  });
  return (
    <FormDialog
      title="Record amount raised"
      onClose={onClose}
      onSubmit={form.handleSubmit((v) =>
        saving.submit({
          amount: v.amount,
          date: v.date ?? '',
          source: v.source as FundraisingEntryInput['source'],
          note: v.note,
        }),
      )}
      failure={saving.failure}
      submitLabel="Record Amount"
      submitting={saving.isPending}
    >
      <TextInput
        label="Amount (£)"
        required
        inputMode="decimal"
        error={errors.amount?.message}
        {...form.register('amount')}
        data-autofocus
      />
      <Controller
        control={form.control}
        name="date"
        render={({ field }) => (
          <DateField label="Date" required value={field.value} onChange={field.onChange} error={errors.date?.message} />
        )}
      />
      <NativeSelect
        label="Source"
        required
        data={ENTRY_SOURCES.map((s) => ({ value: s, label: ENTRY_SOURCE_LABELS[s] }))}
        error={errors.source?.message}
        {...form.register('source')}
      />
      <Textarea
        label="Note"
        autosize
        minRows={2}
        maxLength={1000}
        error={errors.note?.message}
        {...form.register('note')}
      />
    </FormDialog>
  );
}
