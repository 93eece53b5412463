import { useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { errorMessage, fieldErrors } from '../../lib/errors.ts';

type Options<Row extends { id: number }, Values> = {
  empty: Values;
  toValues: (row: Row) => Values;
  create: (values: Values) => Promise<unknown>;
  update: (id: number, values: Values) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  refresh: () => Promise<unknown>;
};

/**
 * The add / edit / remove cycle of a panel of rows with one inline form: which row is being
 * edited, the form's values, field errors under the fields, other failures above the panel.
 */
export function useRowEditor<Row extends { id: number }, Values>(o: Options<Row, Values>) {
  const [editing, setEditing] = useState<Row | null>(null);
  const [values, setValues] = useState<Values>(o.empty);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Row | null>(null);

  const reset = () => {
    setEditing(null);
    setValues(o.empty);
    setErrors({});
  };

  return {
    editing,
    values,
    errors,
    failure,
    removing,
    setRemoving,
    reset,
    set: <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value })),
    startEdit: (row: Row) => {
      setEditing(row);
      setValues(o.toValues(row));
      setErrors({});
    },
    save: async (e: React.FormEvent) => {
      e.preventDefault();
      setErrors({});
      setFailure(null);
      try {
        if (editing) await o.update(editing.id, values);
        else await o.create(values);
        reset();
        await o.refresh();
      } catch (error) {
        setErrors(fieldErrors(error));
        if (!(error instanceof ApiError && error.errors)) setFailure(errorMessage(error));
      }
    },
    confirmRemove: async () => {
      if (!removing) return;
      setFailure(null);
      try {
        await o.remove(removing.id);
        if (editing?.id === removing.id) reset();
        await o.refresh();
      } catch (error) {
        setFailure(errorMessage(error));
      } finally {
        setRemoving(null);
      }
    },
  };
}
