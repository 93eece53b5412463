import { Text, TextInput, Textarea } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { ukToday } from '../../../contract/dates.ts';
import type { CharityEntryInput, CharityNoteInput, Fundraiser } from '../../../contract/fundraising.ts';
import { DateField } from '../../components/date-field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { formatMoney } from '../../lib/format.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { addEntry, addNote, portalKeys } from './api.ts';

type Props = { fundraiser: Fundraiser; onClose: () => void; onDone: (message: string) => void };

/** An amount the charity confirms the fundraiser has raised to date (recorded as "charity confirmed"). */
export function EntryDialog({ fundraiser, onClose, onDone }: Props) {
  type Values = { amount: string; date: string | null; note: string };
  const form = useForm<Values>({
    resolver: lazyZodResolver(() => import('../../../contract/fundraising.ts').then((m) => m.charityEntryInputSchema), {
      raw: true,
    }) as never,
    defaultValues: { amount: '', date: ukToday(), note: '' },
  });
  const errors = form.formState.errors;
  const saving = useFormMutation({
    mutationFn: (body: CharityEntryInput) => addEntry(fundraiser.booking_id, body),
    invalidate: [portalKeys.all],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the amount could not be recorded. Please try again.',
    onSuccess: (res) =>
      onDone(`Recorded for ${fundraiser.traveller}: ${formatMoney(res.raised)} raised of ${formatMoney(res.target)}.`),
  });
  return (
    <FormDialog
      title="Record amount raised"
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => saving.submit({ amount: v.amount, date: v.date ?? '', note: v.note }))}
      failure={saving.failure}
      submitLabel="Record Amount"
      submitting={saving.isPending}
      above={
        <Text size="sm">
          What {fundraiser.traveller} has raised that your charity confirms. It is recorded as &ldquo;Charity
          confirmed&rdquo; and the office sees it on their booking.
        </Text>
      }
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

/** A note for the office about a fundraiser: kept on their booking, beside staff's own notes. */
export function NoteDialog({ fundraiser, onClose, onDone }: Props) {
  const form = useForm<CharityNoteInput>({
    resolver: lazyZodResolver(() =>
      import('../../../contract/fundraising.ts').then((m) => m.charityNoteInputSchema),
    ) as never,
    defaultValues: { note: '' },
  });
  const saving = useFormMutation({
    mutationFn: (body: CharityNoteInput) => addNote(fundraiser.booking_id, body),
    invalidate: [portalKeys.all],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the note could not be sent. Please try again.',
    onSuccess: () => onDone(`Your note about ${fundraiser.traveller} has been sent to the office.`),
  });
  return (
    <FormDialog
      title={`Note to the office about ${fundraiser.traveller}`}
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => saving.submit(v))}
      failure={saving.failure}
      submitLabel="Send Note"
      submitting={saving.isPending}
    >
      <Textarea
        label="Note"
        required
        autosize
        minRows={4}
        maxLength={2000}
        error={form.formState.errors.note?.message}
        {...form.register('note')}
        data-autofocus
      />
    </FormDialog>
  );
}
