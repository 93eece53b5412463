import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api.ts';

/** Several messages for one field are shown one per line under it (spec §5). */
export const joinMessages = (messages: string[] | undefined): string | undefined =>
  messages && messages.length ? messages.join('\n') : undefined;

/** The field errors of a failed call, or an empty map. */
export const fieldErrors = (error: unknown): Record<string, string[]> =>
  error instanceof ApiError && error.errors ? error.errors : {};

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Puts a failed call's field errors under the form's fields; says whether there were any. */
export function setFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): boolean {
  const errors = fieldErrors(error);
  for (const [field, messages] of Object.entries(errors))
    setError(field as Path<T>, { message: joinMessages(messages) });
  return Object.keys(errors).length > 0;
}
