import type { QueryKey } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { type DefaultValues, type FieldValues, useForm } from 'react-hook-form';
import { useFormMutation } from '../../lib/mutation.ts';

type Options<Row extends { id: number }, Values extends FieldValues> = {
  empty: Values;
  toValues: (row: Row) => Values;
  create: (values: Values) => Promise<unknown>;
  update: (id: number, values: Values) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  /** the queries a change makes stale (the trip's: its panels and its history) */
  invalidate: QueryKey[];
  /** the panel's words when saving fails through no fault of the form */
  saveFallback: string;
};

/**
 * The add / edit / remove cycle of a panel of rows with one inline form: which row is being
 * edited, the form (server field errors under its fields), and the panel's alert for the rest.
 */
export function useRowEditor<Row extends { id: number }, Values extends FieldValues>(o: Options<Row, Values>) {
  const [editing, setEditing] = useState<Row | null>(null);
  const form = useForm<Values>({ defaultValues: o.empty as DefaultValues<Values> });
  const reset = () => {
    setEditing(null);
    form.reset(o.empty);
  };

  const saving = useFormMutation({
    mutationFn: ({ id, values }: { id: number | null; values: Values }) =>
      id === null ? o.create(values) : o.update(id, values),
    invalidate: o.invalidate,
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: o.saveFallback,
    onSuccess: reset,
  });
  const removing = useFormMutation({
    mutationFn: (row: Row) => o.remove(row.id),
    invalidate: o.invalidate,
    fallback: 'Sorry, an error occurred. Please refresh the page and try again.',
    onSuccess: (_, row) => {
      if (editing?.id === row.id) reset();
    },
  });

  return {
    editing,
    form,
    errors: form.formState.errors,
    saving: saving.isPending,
    failure: saving.failure ?? removing.failure,
    reset,
    startEdit: (row: Row) => {
      setEditing(row);
      form.reset(o.toValues(row));
    },
    // no client-side rules: the server's errors replace the last ones
    save: (e: FormEvent) => {
      e.preventDefault();
      removing.clearFailure();
      form.clearErrors();
      void saving.submit({ id: editing?.id ?? null, values: form.getValues() });
    },
    /** for a DestructiveButton: settles either way, the outcome in `failure` */
    remove: (row: Row) => {
      saving.clearFailure();
      return removing.submit(row);
    },
  };
}
