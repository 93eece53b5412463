import { SimpleGrid, Text, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import type { ScheduleRow, ScheduleRowPatch } from '../../../../contract/schedules.ts';
import { parsePounds } from '../../../../contract/pounds.ts';
import { DateField } from '../../../components/date-field.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { formatMoney, formatShortDate } from '../../../lib/format.ts';
import { useFormMutation } from '../../../lib/mutation.ts';
import { changeScheduleRow, scheduleChangeKeys } from '../api/schedule.ts';

type Values = { due_date: string | null; amount: string };

/** Moves an instalment that is not yet invoiced, or changes its amount; each an event in the history. */
export function ChangeRowDialog({
  bookingId,
  row,
  onClose,
  onDone,
}: {
  bookingId: number;
  row: ScheduleRow;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values>({ defaultValues: { due_date: row.due_date, amount: row.amount.toFixed(2) } });
  const errors = form.formState.errors;
  const saving = useFormMutation({
    mutationFn: (body: ScheduleRowPatch) => changeScheduleRow(row.id, body),
    invalidate: scheduleChangeKeys(bookingId),
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the instalment could not be changed. Please try again.',
    onSuccess: () => onDone(`${row.label} has been changed.`),
  });

  const submit = form.handleSubmit(async (v) => {
    if (!v.due_date) {
      form.setError('due_date', { message: 'The due date field is required.' });
      return;
    }
    // only what was changed is sent, so the history records just that
    const body: ScheduleRowPatch = {};
    if (v.due_date !== row.due_date) body.due_date = v.due_date;
    if (parsePounds(v.amount) !== Math.round(row.amount * 100)) body.amount = v.amount;
    if (body.due_date === undefined && body.amount === undefined) {
      onClose();
      return;
    }
    await saving.submit(body);
  });

  return (
    <FormDialog
      title={`Change ${row.label}`}
      onClose={onClose}
      onSubmit={submit}
      failure={saving.failure}
      submitLabel="Save Instalment"
      submitting={saving.isPending}
      above={
        <Text size="sm" c="dimmed">
          Now {formatMoney(row.amount)}, due {formatShortDate(row.due_date)}. Its invoice will be raised for the new
          amount, and its reminders follow the new date.
        </Text>
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Amount"
          required
          leftSection="£"
          placeholder="0.00"
          inputMode="decimal"
          error={errors.amount?.message}
          {...form.register('amount')}
          data-autofocus
        />
        <Controller
          control={form.control}
          name="due_date"
          render={({ field }) => (
            <DateField
              label="Due date"
              required
              value={field.value}
              onChange={field.onChange}
              error={errors.due_date?.message}
            />
          )}
        />
      </SimpleGrid>
    </FormDialog>
  );
}
