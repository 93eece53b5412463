import { NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { ukToday } from '../../contract/dates.ts';
import { PROCESSOR_LABELS, PROCESSORS } from '../../contract/invoice-constants.ts';
import { DateField } from './date-field.tsx';

export type PaymentFieldValues = { amount: string; processor: string; date: string | null };

/** Amount, Paid by and Date: the fields of money recorded by hand (a booking's invoice, a school's group invoice). */
export function PaymentFields<T extends PaymentFieldValues>({ form }: { form: UseFormReturn<T> }) {
  const f = form as unknown as UseFormReturn<PaymentFieldValues>;
  const errors = f.formState.errors;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <TextInput
        label="Amount"
        required
        leftSection="£"
        placeholder="0.00"
        inputMode="decimal"
        error={errors.amount?.message}
        {...f.register('amount')}
        data-autofocus
      />
      <NativeSelect
        label="Paid by"
        data={PROCESSORS.map((p) => ({ value: p, label: PROCESSOR_LABELS[p] }))}
        error={errors.processor?.message}
        {...f.register('processor')}
      />
      <Controller
        control={f.control}
        name="date"
        render={({ field }) => (
          <DateField
            label="Date"
            required
            value={field.value}
            onChange={field.onChange}
            error={errors.date?.message}
            maxDate={ukToday()}
          />
        )}
      />
    </SimpleGrid>
  );
}
