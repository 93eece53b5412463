import { NumberInput, Text, Textarea } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { PassportRule, passportRuleInputSchema } from '../../../contract/countries.ts';
import { PASSPORT_MONTHS_MAX, PASSPORT_NOTE_MAX } from '../../../contract/country-constants.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { passportRuleKeys, savePassportRule } from './api/countries.ts';

type Values = { months: number | string; note: string };

/** Changes one destination's passport rule; every passport check of its trips follows at once. */
export function PassportRuleDialog({
  rule,
  onClose,
  onDone,
}: {
  rule: PassportRule;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values, unknown, z.output<typeof passportRuleInputSchema>>({
    resolver: lazyZodResolver(() =>
      import('../../../contract/countries.ts').then((m) => m.passportRuleInputSchema),
    ) as never,
    defaultValues: { months: rule.months, note: rule.note ?? '' },
  });
  const errors = form.formState.errors;
  const saving = useFormMutation({
    mutationFn: (body: z.output<typeof passportRuleInputSchema>) => savePassportRule(rule.country_id, body),
    invalidate: [passportRuleKeys.all, ['bookings'], ['readiness']],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the passport rule could not be saved. Please try again.',
    onSuccess: (saved) => onDone(`The passport rule for ${saved.name} has been saved.`),
  });

  return (
    <FormDialog
      title={`Passport rule for ${rule.name}`}
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => saving.submit(v))}
      failure={saving.failure}
      submitLabel="Save Rule"
      submitting={saving.isPending}
      above={
        <Text size="sm" c="dimmed">
          A traveller's passport must still be valid this many months after the trip comes back. The booking list, its
          passport filter, the booking page and the exports follow it at once.
        </Text>
      }
    >
      <Controller
        control={form.control}
        name="months"
        render={({ field }) => (
          <NumberInput
            label="Months valid after the return"
            required
            min={0}
            max={PASSPORT_MONTHS_MAX}
            allowDecimal={false}
            allowNegative={false}
            value={field.value}
            onChange={(v) => field.onChange(v === '' ? '' : Number(v))}
            onBlur={field.onBlur}
            error={errors.months?.message}
            w={260}
            data-autofocus
          />
        )}
      />
      <Textarea
        label="Note"
        description="For example: blank pages needed, or how recently the passport must have been issued."
        autosize
        minRows={2}
        maxLength={PASSPORT_NOTE_MAX}
        error={errors.note?.message}
        {...form.register('note')}
      />
    </FormDialog>
  );
}
