import { Alert, Grid, NativeSelect, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { toDdMmYyyy } from '../../../contract/dates.ts';
import type {
  Discount,
  DiscountInvoiceType,
  discountInputSchema,
  TripSelectItem,
} from '../../../contract/discounts.ts';
import { path } from '../../../contract/paths.ts';
import { FormPage, RecordLoader } from '../../components/form-frame.tsx';
import { DISCOUNT_UPDATED_MS } from '../../lib/constants.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import {
  createDiscount,
  deleteDiscount,
  discountKeys,
  updateDiscount,
  useDiscount,
  useTripSelect,
} from './api/discounts.ts';

type FormValues = {
  code: string;
  name: string;
  invoice_type: DiscountInvoiceType;
  trip_id: string;
  amount: string;
  usage_limit: string;
  valid_from: string;
  valid_until: string;
};

const INVOICE_TYPES = [
  { value: 'any', label: 'Any' },
  { value: 'deposit', label: 'Deposit' },
  { value: 'balance', label: 'Balance' },
  { value: 'other', label: 'Other' },
];

const toForm = (d: Discount | null): FormValues => ({
  code: d?.code ?? '',
  name: d?.name ?? '',
  invoice_type: d?.invoice_type ?? 'any',
  trip_id: d?.trip_id ? String(d.trip_id) : '',
  amount: d ? d.amount.toFixed(2) : '',
  usage_limit: String(d?.usage_limit ?? 1),
  valid_from: toDdMmYyyy(d?.valid_from),
  valid_until: toDdMmYyyy(d?.valid_until),
});

const LOAD_FAILED = 'The discount could not be loaded. Please refresh the page and try again.';
const FAILED = 'Sorry, something went wrong. Please refresh the page and try again.';

/**
 * /discounts/new and /discounts/{discountID}/edit: the form appears once what it needs has loaded.
 * The trips to choose from are the trips area's: a member who may not read trips gets none (null).
 */
export default function DiscountFormPage() {
  const may = useCan();
  const param = useParams().discountID;
  const id = param ? Number(param) : null;
  const discount = useDiscount(id);
  const readTrips = may('trips', 'read');
  const trips = useTripSelect(readTrips);
  const withTrips = (t: TripSelectItem[] | null) =>
    id === null ? (
      <DiscountForm discount={null} trips={t} />
    ) : (
      <RecordLoader query={discount} failed={LOAD_FAILED}>
        {(d) => <DiscountForm discount={d} trips={t} />}
      </RecordLoader>
    );
  if (!readTrips) return withTrips(null);
  return (
    <RecordLoader query={trips} failed={LOAD_FAILED}>
      {withTrips}
    </RecordLoader>
  );
}

function DiscountForm({ discount, trips }: { discount: Discount | null; trips: TripSelectItem[] | null }) {
  const may = useCan();
  // charities change saves and deletes discounts; charities read only sees them
  const readOnly = !may('charities');
  // without the trips list, the discount's own trip (if any) is the one choice besides none
  const tripChoices = trips ?? (discount?.trip ? [discount.trip] : []);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [updated, setUpdated] = useState(false);
  const [current, setCurrent] = useState(discount);
  const form = useForm<FormValues, unknown, z.output<typeof discountInputSchema>>({
    resolver: lazyZodResolver(() =>
      import('../../../contract/discounts.ts').then((m) => m.discountInputSchema),
    ) as never,
    defaultValues: toForm(discount),
  });
  const errors = form.formState.errors;

  // spec §4: 'Discount updated' for 2000 ms
  useEffect(() => {
    if (!updated) return;
    const timer = setTimeout(() => setUpdated(false), DISCOUNT_UPDATED_MS);
    return () => clearTimeout(timer);
  }, [updated]);

  const toList = () => navigate(path('discount-list'));
  // an update stays on the form; a create goes back to the list with its flash
  const saving = useFormMutation({
    mutationFn: (values: FormValues) => (current ? updateDiscount(current.id, values) : createDiscount(values)),
    invalidate: current ? [discountKeys.lists] : [discountKeys.all],
    setError: form.setError,
    alertWithFieldErrors: false,
    flash: () => (current ? null : { text: 'Discount has been created', on: 'push' }),
    fallback: FAILED,
    onSuccess: (saved) => {
      if (!current) return toList();
      setCurrent(saved);
      form.reset(toForm(saved));
      queryClient.setQueryData(discountKeys.one(saved.id), saved);
      setUpdated(true);
    },
  });
  const removing = useFormMutation({
    mutationFn: deleteDiscount,
    invalidate: [discountKeys.all],
    flash: () => ({ text: 'Discount has been deleted', on: 'push' }),
    fallback: FAILED,
    onSuccess: toList,
  });
  const save = form.handleSubmit(() => {
    setUpdated(false);
    removing.clearFailure();
    // the form's own text goes to the server, which applies the same contract
    return saving.submit(form.getValues());
  });

  return (
    <FormPage
      title={current ? 'Update Discount' : 'New Discount'}
      label="Discount"
      failure={saving.failure ?? removing.failure}
      above={
        updated && (
          <Alert color="blue" role="status" className="alert alert-info">
            Discount updated
          </Alert>
        )
      }
      onSubmit={save}
      submitLabel="Save Discount"
      submitting={form.formState.isSubmitting}
      back={{ to: path('discount-list'), label: 'Back to List' }}
      maw={760}
      readOnly={readOnly}
      destructive={
        current && !readOnly
          ? {
              label: 'Delete Discount',
              message: 'Are you sure? This cannot be undone!',
              confirmLabel: 'Yes, Delete this Discount',
              cancelLabel: 'No, Cancel',
              onConfirm: () => {
                saving.clearFailure();
                return removing.submit(current.id);
              },
            }
          : undefined
      }
    >
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label="Code" error={errors.code?.message} autoComplete="off" {...form.register('code')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label="Description" required error={errors.name?.message} {...form.register('name')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NativeSelect
              label="Invoice Type"
              data={INVOICE_TYPES}
              error={errors.invoice_type?.message}
              {...form.register('invoice_type')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NativeSelect
              label="Trip (Optional)"
              data={[{ value: '', label: '' }, ...tripChoices.map((t) => ({ value: String(t.id), label: t.name }))]}
              error={errors.trip_id?.message}
              {...form.register('trip_id')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="Value"
              leftSection="£"
              placeholder="0.00"
              inputMode="decimal"
              error={errors.amount?.message}
              {...form.register('amount')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="Usage Limit"
              inputMode="numeric"
              description={
                current
                  ? `Used ${current.usage_count} of ${current.usage_limit} time${current.usage_limit === 1 ? '' : 's'}`
                  : 'How many invoices may use this code'
              }
              error={errors.usage_limit?.message}
              {...form.register('usage_limit')}
            />
          </Grid.Col>
          {(['valid_from', 'valid_until'] as const).map((field) => (
            <Grid.Col key={field} span={{ base: 12, sm: 6 }}>
              <TextInput
                label={field === 'valid_from' ? 'Valid From (Optional)' : 'Valid Until (Optional)'}
                placeholder="dd/mm/yyyy"
                maxLength={10}
                error={errors[field]?.message}
                {...form.register(field)}
              />
            </Grid.Col>
          ))}
        </Grid>
      </fieldset>
      {current && (
        <Text size="xs" c="dimmed">
          Invoices that already used this code keep it, whatever happens to the discount.
        </Text>
      )}
    </FormPage>
  );
}
