import { Radio, Stack, Text, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import type { CreateStandardInvoiceInput, Invoice } from '../../../../contract/invoices.ts';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { useFormMutation } from '../../../lib/mutation.ts';
import { createStandardInvoice, invoiceChangeKeys } from '../api/invoices.ts';

// spec §8: 'Something went wrong.'; the server's reason follows when it gives one
const FAILED = 'Something went wrong.';

/** The standard deposit or balance invoice, worked out by the server from the trip. */
export function StandardInvoiceDialog({
  bookingId,
  onClose,
  onDone,
}: {
  bookingId: number;
  onClose: () => void;
  onDone: (invoice: Invoice) => void;
}) {
  const form = useForm<CreateStandardInvoiceInput>({ defaultValues: { invoice_type: 'deposit', discount_code: '' } });
  const creating = useFormMutation({
    mutationFn: (body: CreateStandardInvoiceInput) => createStandardInvoice(bookingId, body),
    invalidate: invoiceChangeKeys(bookingId),
    setError: form.setError,
    fallback: FAILED,
    onSuccess: onDone,
  });
  const codeError = form.formState.errors.discount_code?.message;
  // a refused discount code says why under its field; any other reason follows the spec's words
  const failure =
    creating.failure && (codeError || creating.failure === FAILED ? FAILED : `${FAILED} ${creating.failure}`);
  const submit = form.handleSubmit(async (values) => {
    if (!creating.isPending) await creating.submit(values);
  });

  return (
    <FormDialog
      title="Standard Invoice"
      onClose={onClose}
      onSubmit={submit}
      failure={failure}
      submitLabel="Create Invoice"
      submitting={creating.isPending}
    >
      <Controller
        control={form.control}
        name="invoice_type"
        render={({ field }) => (
          <Radio.Group label="Invoice" value={field.value} onChange={(v) => field.onChange(v)}>
            <Stack gap="xs" mt="xs">
              <Radio value="deposit" label="Deposit" description="The trip’s deposit, due in 14 days." />
              <Radio
                value="balance"
                label="Balance"
                description="The trip cost and add-ons not yet invoiced, less the travel-basis discount and what was billed before."
              />
            </Stack>
          </Radio.Group>
        )}
      />
      <TextInput label="Discount code (optional)" error={codeError} {...form.register('discount_code')} />
      <Text size="xs" c="dimmed">
        The invoice is raised today.
      </Text>
    </FormDialog>
  );
}
