import { ActionIcon, Alert, Button, Checkbox, Grid, Group, Modal, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Controller, type Path, useFieldArray, useForm, useWatch } from 'react-hook-form';
import type { BookingDetail } from '../../../../contract/bookings.ts';
import { createInvoiceSchema, type CreateInvoiceInput, type Invoice } from '../../../../contract/invoices.ts';
import { INVOICE_TYPE_LABELS, INVOICE_TYPES, NO_ITEMS_MESSAGE } from '../../../../contract/invoice-constants.ts';
import { addDays, ukToday } from '../../../../contract/dates.ts';
import { parsePounds } from '../../../../contract/pounds.ts';
import { DateField } from '../../../components/date-field.tsx';
import { ApiError } from '../../../lib/api.ts';
import { errorMessage, setFieldErrors } from '../../../lib/errors.ts';
import { formatMoney } from '../../../lib/format.ts';
import { createInvoice } from '../api/invoices.ts';

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
export function NewInvoiceDialog({ booking, onClose, onDone }: { booking: BookingDetail; onClose: () => void; onDone: (invoice: Invoice) => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [noItems, setNoItems] = useState(false);
  const [busy, setBusy] = useState(false);
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

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy) return;
    form.clearErrors();
    setFailure(null);
    const v = form.getValues();
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
    const checked = createInvoiceSchema.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) form.setError(issue.path.join('.') as Path<Values>, { message: issue.message });
      return;
    }
    setBusy(true);
    try {
      onDone(await createInvoice(body));
    } catch (error) {
      // spec §8: the server's message and its field errors, else an alert of the error
      setFieldErrors(error, form.setError);
      if (error instanceof ApiError && error.errors?.items) setNoItems(true);
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const itemError = (i: number, field: 'description' | 'amount') => errors.items?.[i]?.[field]?.message;

  return (
    <Modal opened onClose={onClose} title="New Invoice" size="xl" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Grid>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <Controller
                control={form.control}
                name="invoice_date"
                render={({ field }) => <DateField label="Invoice Date" required value={field.value} onChange={field.onChange} error={errors.invoice_date?.message} />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <Controller
                control={form.control}
                name="due_date"
                render={({ field }) => <DateField label="Due Date" required value={field.value} onChange={field.onChange} error={errors.due_date?.message} />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <NativeSelect label="Type" data={INVOICE_TYPES.map((t) => ({ value: t, label: INVOICE_TYPE_LABELS[t] }))} error={errors.type?.message} {...form.register('type')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <TextInput label="Reference" required error={errors.invoice_ref?.message} {...form.register('invoice_ref')} data-autofocus />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 8 }}>
              <TextInput label="Description" required error={errors.description?.message} {...form.register('description')} />
            </Grid.Col>
          </Grid>

          <div>
            <Title order={3} size="h6" mb="xs">
              Items
            </Title>
            <Stack gap="xs">
              {items.fields.map((row, i) => (
                <Group key={row.id} align="flex-start" wrap="nowrap">
                  <TextInput style={{ flex: 1 }} aria-label={`Item ${i + 1} description`} placeholder="Description" error={itemError(i, 'description')} {...form.register(`items.${i}.description`)} />
                  <TextInput w={160} aria-label={`Item ${i + 1} amount`} leftSection="£" placeholder="0.00" inputMode="decimal" error={itemError(i, 'amount')} {...form.register(`items.${i}.amount`)} />
                  <ActionIcon variant="subtle" color="red.9" size="lg" aria-label={`Remove item ${i + 1}`} onClick={() => items.remove(i)}>
                    ×
                  </ActionIcon>
                </Group>
              ))}
              <Group>
                <Button variant="default" size="compact-sm" onClick={() => items.append({ description: '', amount: '' })}>
                  Add Item
                </Button>
              </Group>
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
                        onChange={(e) => field.onChange(e.currentTarget.checked ? [...field.value, a.id] : field.value.filter((id) => id !== a.id))}
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
              <TextInput label="Discount code (optional)" error={errors.discount_code?.message} {...form.register('discount_code')} />
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
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create Invoice
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
