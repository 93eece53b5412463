import { Textarea } from '@mantine/core';
import type { QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useFormMutation } from '../lib/mutation.ts';
import { FormDialog } from './form-dialog.tsx';

type Props<T> = {
  title: string;
  /** what the change does, above the field */
  above?: ReactNode;
  submitLabel: string;
  /** the message when no reason is typed (the server's own words for the same rule) */
  required: string;
  /** the change, given the reason typed */
  save: (reason: string) => Promise<T>;
  invalidate: QueryKey[];
  fallback: string;
  onDone: (result: T) => void;
  onClose: () => void;
};

/**
 * A change that must say why (waive an instalment, turn automatic reminders off): a dialog with
 * one Reason field; the reason is recorded with the change in the history.
 */
export function ReasonDialog<T>({
  title,
  above,
  submitLabel,
  required,
  save,
  invalidate,
  fallback,
  onDone,
  onClose,
}: Props<T>) {
  const form = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const saving = useFormMutation({
    mutationFn: save,
    invalidate,
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback,
    onSuccess: onDone,
  });
  const submit = form.handleSubmit(async ({ reason }) => {
    if (reason.trim() === '') {
      form.setError('reason', { message: required });
      return;
    }
    await saving.submit(reason.trim());
  });
  return (
    <FormDialog
      title={title}
      onClose={onClose}
      onSubmit={submit}
      failure={saving.failure}
      submitLabel={submitLabel}
      submitting={saving.isPending}
      above={above}
    >
      <Textarea
        label="Reason"
        required
        autosize
        minRows={2}
        maxLength={500}
        error={form.formState.errors.reason?.message}
        {...form.register('reason')}
        data-autofocus
      />
    </FormDialog>
  );
}
