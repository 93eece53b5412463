import { Alert, Anchor, Button, Grid, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { toDdMmYyyy } from '../../../contract/dates.ts';
import type { Discount, DiscountInvoiceType, discountInputSchema, TripSelectItem } from '../../../contract/discounts.ts';
import { path } from '../../../contract/paths.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { PageLoader } from '../../components/page-loader.tsx';
import { ApiError } from '../../lib/api.ts';
import { DISCOUNT_UPDATED_MS } from '../../lib/constants.ts';
import { errorMessage, setFieldErrors } from '../../lib/errors.ts';
import { pushFlash } from '../../lib/flash.ts';
import NotFoundPage from '../../components/not-found-page.tsx';
import { createDiscount, deleteDiscount, discountKeys, updateDiscount, useDiscount, useTripSelect } from './api/discounts.ts';

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

/** /discounts/new and /discounts/{discountID}/edit: the form appears once what it needs has loaded. */
export default function DiscountFormPage() {
  const param = useParams().discountID;
  const id = param ? Number(param) : null;
  const discount = useDiscount(id);
  const trips = useTripSelect();
  if ((id !== null && discount.isPending) || trips.isPending) return <PageLoader />;
  if (discount.error instanceof ApiError && discount.error.status === 404) return <NotFoundPage />;
  if (discount.isError || trips.isError) {
    return (
      <Alert color="red" role="alert">
        The discount could not be loaded. Please refresh the page and try again.
      </Alert>
    );
  }
  return <DiscountForm discount={id === null ? null : discount.data!} trips={trips.data} />;
}

function DiscountForm({ discount, trips }: { discount: Discount | null; trips: TripSelectItem[] }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [updated, setUpdated] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [current, setCurrent] = useState(discount);
  const form = useForm<FormValues, unknown, z.output<typeof discountInputSchema>>({
    resolver: lazyZodResolver(() => import('../../../contract/discounts.ts').then((m) => m.discountInputSchema)) as never,
    defaultValues: toForm(discount),
  });
  const errors = form.formState.errors;

  useEffect(() => {
    if (!updated) return;
    const timer = setTimeout(() => setUpdated(false), DISCOUNT_UPDATED_MS);
    return () => clearTimeout(timer);
  }, [updated]);

  const save = form.handleSubmit(async () => {
    setFailure(null);
    setUpdated(false);
    // the form's own text goes to the server, which applies the same contract
    const values = form.getValues();
    try {
      if (current) {
        const saved = await updateDiscount(current.id, values);
        setCurrent(saved);
        form.reset(toForm(saved));
        queryClient.setQueryData(discountKeys.one(saved.id), saved);
        await queryClient.invalidateQueries({ queryKey: ['discounts', 'list'] });
        setUpdated(true);
      } else {
        await createDiscount(values);
        await queryClient.invalidateQueries({ queryKey: discountKeys.all });
        pushFlash('Discount has been created');
        navigate(path('discount-list'));
      }
    } catch (error) {
      if (!setFieldErrors(error, form.setError)) setFailure(errorMessage(error));
    }
  });

  const remove = async () => {
    if (!current) return;
    setDeleting(true);
    try {
      await deleteDiscount(current.id);
      await queryClient.invalidateQueries({ queryKey: discountKeys.all });
      pushFlash('Discount has been deleted');
      navigate(path('discount-list'));
    } catch {
      setConfirmDelete(false);
      setFailure('Sorry, something went wrong. Please refresh the page and try again.');
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Stack maw={760}>
      <Group justify="space-between">
        <Title order={1}>{current ? 'Update Discount' : 'New Discount'}</Title>
        <Anchor component={Link} to={path('discount-list')}>
          Back to List
        </Anchor>
      </Group>
      {updated && (
        <Alert color="blue" role="status" className="alert alert-info">
          Discount updated
        </Alert>
      )}
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <Paper withBorder p="lg" radius="md" component="form" onSubmit={save} noValidate aria-label="Discount">
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label="Code" error={errors.code?.message} autoComplete="off" {...form.register('code')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label="Description" required error={errors.name?.message} {...form.register('name')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NativeSelect label="Invoice Type" data={INVOICE_TYPES} error={errors.invoice_type?.message} {...form.register('invoice_type')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NativeSelect
              label="Trip (Optional)"
              data={[{ value: '', label: '' }, ...trips.map((t) => ({ value: String(t.id), label: t.name }))]}
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
              description={current ? `Used ${current.usage_count} of ${current.usage_limit} time${current.usage_limit === 1 ? "" : "s"}` : 'How many invoices may use this code'}
              error={errors.usage_limit?.message}
              {...form.register('usage_limit')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="Valid From (Optional)"
              placeholder="dd/mm/yyyy"
              maxLength={10}
              error={errors.valid_from?.message}
              {...form.register('valid_from')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="Valid Until (Optional)"
              placeholder="dd/mm/yyyy"
              maxLength={10}
              error={errors.valid_until?.message}
              {...form.register('valid_until')}
            />
          </Grid.Col>
        </Grid>
        <Group justify="space-between" mt="lg">
          <Button type="submit" loading={form.formState.isSubmitting}>
            Save Discount
          </Button>
          {current && (
            <Button color="red" variant="light" onClick={() => setConfirmDelete(true)}>
              Delete Discount
            </Button>
          )}
        </Group>
        {current && (
          <Text size="xs" c="dimmed" mt="sm">
            Invoices that already used this code keep it, whatever happens to the discount.
          </Text>
        )}
      </Paper>
      <ConfirmDialog
        opened={confirmDelete}
        message="Are you sure? This cannot be undone!"
        confirmLabel="Yes, Delete this Discount"
        cancelLabel="No, Cancel"
        onCancel={() => setConfirmDelete(false)}
        onConfirm={remove}
        busy={deleting}
      />
    </Stack>
  );
}
