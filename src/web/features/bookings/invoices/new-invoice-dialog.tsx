import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Grid,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Controller, type Path, useFieldArray, useForm, useWatch } from 'react-hook-form';
import type { BookingDetail } from '../../../../contract/bookings.ts';
import type { CreateInvoiceInput, Invoice } from '../../../../contract/invoices.ts';
import { INVOICE_TYPE_LABELS, HAND_INVOICE_TYPES, NO_ITEMS_MESSAGE } from '../../../../contract/invoice-constants.ts';
import { addDays, ukToday } from '../../../../contract/dates.ts';
import { parsePounds } from '../../../../contract/pounds.ts';
import { DateField } from '../../../components/date-field.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useFormMutation } from '../../../lib/mutation.ts';
import { createInvoice, invoiceChangeKeys } from '../api/invoices.ts';

type Values = {
  invoice_date: string | null;
  due_date: string | null;
  type: string;
  invoice_ref: string;
  description: string;
  items: Array<{ description: string; amount: string }>;
  addons: number[];
  discount_code: string;
};

/** New Invoice (spec §5): a custom invoice of items and the booking's add-ons not yet invoiced. */
export function NewInvoiceDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: BookingDetail;
  onClose: () => void;
  onDone: (invoice: Invoice) => void;
}) {
  const [noItems, setNoItems] = useState(false);
  const form = useForm<Values>({
    defaultValues: {
      invoice_date: ukToday(),
      due_date: addDays(ukToday(), 14),
      type: 'other',
      invoice_ref: '',
      description: '',
      items: [{ description: '', amount: '' }],
      addons: [],
      discount_code: '',
    },
  });
  const items = useFieldArray({ control: form.control, name: 'items' });
  const errors = form.formState.errors;
  const [typedItems, chosen] = useWatch({ control: form.control, name: ['items', 'addons'] });
  const totalPence =
    typedItems.reduce((sum, i) => sum + (parsePounds(i.amount) ?? 0), 0) +
    booking.addons.filter((a) => chosen.includes(a.id)).reduce((sum, a) => sum + Math.round(a.price * 100), 0);
  // spec §8: the server's message and its field errors, else an alert
  const creating = useFormMutation({
    mutationFn: createInvoice,
    invalidate: invoiceChangeKeys(booking.id),
    setError: form.setError,
    fallback: 'Sorry, an error occurred. Please refresh the page and try again.',
    onSuccess: onDone,
  });

  const submit = form.handleSubmit(async (v) => {
    if (creating.isPending) return;
    form.clearErrors();
    // rows left wholly blank are not items
    const filled = v.items.filter((i) => i.description.trim() !== '' || i.amount.trim() !== '');
    if (filled.length !== v.items.length) items.replace(filled);
    if (filled.length === 0 && v.addons.length === 0) {
      setNoItems(true);
      return;
    }
    setNoItems(false);
    const body: CreateInvoiceInput = {
      booking_id: booking.id,
      invoice_date: v.invoice_date ?? '',
      due_date: v.due_date ?? '',
      type: v.type as CreateInvoiceInput['type'],
      invoice_ref: v.invoice_ref,
      description: v.description,
      items: filled,
      addons: v.addons,
      discount_code: v.discount_code,
    };
    // the contract's schema (and zod) load on the first submit, not with the dialog
    const { createInvoiceSchema } = await import('../../../../contract/invoices.ts');
    const checked = createInvoiceSchema.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues)
        form.setError(issue.path.join('.') as Path<Values>, { message: issue.message });
      return;
    }
    await creating.submit(body);
  });

  const itemError = (i: number, field: 'description' | 'amount') => errors.items?.[i]?.[field]?.message;

  return (
    <FormDialog
      title="New Invoice"
      size="xl"
      onClose={onClose}
      onSubmit={submit}
      failure={creating.failure}
      submitLabel="Create Invoice"
      submitting={form.formState.isSubmitting}
    >
      <Grid>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <Controller
            control={form.control}
            name="invoice_date"
            render={({ field }) => (
              <DateField
                label="Invoice Date"
                required
                value={field.value}
                onChange={field.onChange}
                error={errors.invoice_date?.message}
              />
            )}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <Controller
            control={form.control}
            name="due_date"
            render={({ field }) => (
              <DateField
                label="Due Date"
                required
                value={field.value}
                onChange={field.onChange}
                error={errors.due_date?.message}
              />
            )}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <NativeSelect
            label="Type"
            data={HAND_INVOICE_TYPES.map((t) => ({ value: t, label: INVOICE_TYPE_LABELS[t] }))}
            error={errors.type?.message}
            {...form.register('type')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <TextInput
            label="Reference"
            required
            error={errors.invoice_ref?.message}
            {...form.register('invoice_ref')}
            data-autofocus
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <TextInput
            label="Description"
            required
            error={errors.description?.message}
            {...form.register('description')}
          />
        </Grid.Col>
      </Grid>

      <div>
        <Title order={3} size="h6" mb="xs">
          Items
        </Title>
        <Stack gap="xs">
          {items.fields.map((row, i) => (
            <Group key={row.id} align="flex-start" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                aria-label={`Item ${i + 1} description`}
                placeholder="Description"
                error={itemError(i, 'description')}
                {...form.register(`items.${i}.description`)}
              />
              <TextInput
                w={160}
                aria-label={`Item ${i + 1} amount`}
                leftSection="£"
                placeholder="0.00"
                inputMode="decimal"
                error={itemError(i, 'amount')}
                {...form.register(`items.${i}.amount`)}
              />
              <ActionIcon
                variant="subtle"
                color="red.9"
                size="lg"
                aria-label={`Remove item ${i + 1}`}
                onClick={() => items.remove(i)}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button variant="default" size="compact-sm" onClick={() => items.append({ description: '', amount: '' })}>
              Add Item
            </Button>
          </Group>
          {(errors.items?.message ?? errors.items?.root?.message) && (
            <Text size="sm" c="red.9">
              {errors.items?.message ?? errors.items?.root?.message}
            </Text>
          )}
        </Stack>
      </div>

      <div>
        <Title order={3} size="h6" mb="xs">
          Add-ons
        </Title>
        {booking.addons.length === 0 ? (
          <Text size="sm" c="dimmed">
            This booking has no add-ons.
          </Text>
        ) : (
          <Controller
            control={form.control}
            name="addons"
            render={({ field }) => (
              <Stack gap={6}>
                {booking.addons.map((a) => (
                  <Checkbox
                    key={a.id}
                    label={`${a.name} (${formatMoney(a.price)})${a.pivot.invoiced ? ' — already invoiced' : ''}`}
                    disabled={a.pivot.invoiced}
                    checked={field.value.includes(a.id)}
                    onChange={(e) =>
                      field.onChange(
                        e.currentTarget.checked ? [...field.value, a.id] : field.value.filter((id) => id !== a.id),
                      )
                    }
                  />
                ))}
              </Stack>
            )}
          />
        )}
        {errors.addons?.message && (
          <Text size="sm" c="red.9" mt={4}>
            {errors.addons.message}
          </Text>
        )}
      </div>

      <Grid align="flex-end">
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput
            label="Discount code (optional)"
            error={errors.discount_code?.message}
            {...form.register('discount_code')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <Text ta="right" size="lg" fw={700} aria-live="polite">
            Total: {formatMoney(totalPence / 100)}
          </Text>
        </Grid.Col>
      </Grid>
      {noItems && (
        <Alert color="red" role="alert">
          {NO_ITEMS_MESSAGE}
        </Alert>
      )}
    </FormDialog>
  );
}
