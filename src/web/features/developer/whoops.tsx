import { Alert, List } from '@mantine/core';
import type { QueryKey } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { type DefaultValues, type FieldValues, useForm } from 'react-hook-form';
import { useFormMutation } from '../../lib/mutation.ts';

const SOMETHING_WENT_WRONG = 'Something went wrong. Please try again.';

/** Every message under a form's fields, in the server's order (several for one field are one per line). */
function messagesOf(errors: unknown): string[] {
  if (!errors || typeof errors !== 'object') return [];
  const { message } = errors as { message?: unknown };
  if (typeof message === 'string') return message.split('\n');
  return Object.entries(errors).flatMap(([key, value]) => (key === 'ref' ? [] : messagesOf(value)));
}

/**
 * A developer-area form (spec §5: no client-side validation; §8: a failed create or update with
 * an object body shows its errors flattened into bullets under 'Whoops! Something went wrong!',
 * any other failure 'Something went wrong. Please try again.' under the same heading).
 */
export function useWhoopsForm<V extends FieldValues, R>(o: {
  defaultValues: V;
  mutationFn: (values: V) => Promise<R>;
  invalidate?: QueryKey[];
  onSuccess: (result: R) => void;
}) {
  const form = useForm<V>({ defaultValues: o.defaultValues as DefaultValues<V> });
  const saving = useFormMutation({
    mutationFn: o.mutationFn,
    invalidate: o.invalidate,
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: SOMETHING_WENT_WRONG,
    onSuccess: o.onSuccess,
  });
  const fieldMessages = messagesOf(form.formState.errors);
  return {
    form,
    isPending: saving.isPending,
    messages: fieldMessages.length ? fieldMessages : saving.failure ? [saving.failure] : [],
    // the server's errors replace the last ones
    submit: (e: FormEvent) => {
      e.preventDefault();
      form.clearErrors();
      void saving.submit(form.getValues());
    },
  };
}

export function Whoops({ messages }: { messages: string[] }) {
  if (!messages.length) return null;
  return (
    <Alert color="red" role="alert" title="Whoops! Something went wrong!">
      <List size="sm">
        {messages.map((m, i) => (
          <List.Item key={i}>{m}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
