import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api.ts';
import { setFieldErrors } from './errors.ts';
import { pushFlash, showFlash } from './flash.ts';

type Options<TVars, TResult, TForm extends FieldValues> = {
  mutationFn: (vars: TVars) => Promise<TResult>;
  /** the queries the change makes stale */
  invalidate?: QueryKey[];
  /** the flash to show on success: on this screen (`show`) or the next one (`push`) */
  flash?: (result: TResult) => { text: string; on: 'show' | 'push' } | null;
  /** where the server's field errors go */
  setError?: UseFormSetError<TForm>;
  /**
   * The screen's text when the failure is not the request's fault (the spec words it per
   * screen). A 4xx keeps the server's own message.
   */
  fallback: string;
  /** whether the form-level alert also shows when the fields already say what is wrong (default yes) */
  alertWithFieldErrors?: boolean;
  onSuccess?: (result: TResult, vars: TVars) => void | Promise<void>;
};

/**
 * The one way a screen changes something: a TanStack mutation that on success
 * invalidates the right queries and pushes the flash, and on failure puts the server's field
 * errors under the form's fields and its message (or the screen's fallback) in `failure`, for
 * the form's alert. No screen writes that try/catch again.
 */
export function useFormMutation<TVars, TResult = unknown, TForm extends FieldValues = FieldValues>(
  o: Options<TVars, TResult, TForm>,
) {
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: o.mutationFn,
    onMutate: () => setFailure(null),
    onSuccess: async (result, vars) => {
      await Promise.all((o.invalidate ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      const flash = o.flash?.(result);
      if (flash) (flash.on === 'show' ? showFlash : pushFlash)(flash.text);
      await o.onSuccess?.(result, vars);
    },
    onError: (error) => {
      const underFields = o.setError ? setFieldErrors(error, o.setError) : false;
      if (underFields && o.alertWithFieldErrors === false) return;
      setFailure(error instanceof ApiError && error.status < 500 ? error.message : o.fallback);
    },
  });
  return {
    /** resolves whether or not the call succeeded: the outcome is in `failure` and the form */
    submit: (vars: TVars) =>
      mutation.mutateAsync(vars).then(
        () => true,
        () => false,
      ),
    isPending: mutation.isPending,
    failure,
    clearFailure: () => setFailure(null),
  };
}
