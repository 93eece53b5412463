import { Alert, Anchor, Button, Checkbox, Grid, Group, NativeSelect, Paper, Select, Stack, TextInput, Title } from '@mantine/core';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { toDdMmYyyy } from '../../../contract/dates.ts';
import { path } from '../../../contract/paths.ts';
import type { updateTripSchema, Trip } from '../../../contract/trips.ts';
import { PageLoader } from '../../components/page-loader.tsx';
import { ApiError } from '../../lib/api.ts';
import { errorMessage, setFieldErrors } from '../../lib/errors.ts';
import NotFoundPage from '../../components/not-found-page.tsx';
import { AddonsPanel } from './addons-panel.tsx';
import { tripKeys, updateTrip, useCountries, useTrip } from './api/trips.ts';
import { CustomFieldsPanel } from './custom-fields-panel.tsx';
import { DocumentsPanel } from './documents-panel.tsx';
import { HistoryPanel } from '../../components/history-panel.tsx';
import { fundingOptions, levelOptions, statusOptions, typeOptions } from './trip-options.ts';

type Values = {
  name: string; country_id: string; departure: string; return: string; type: Trip['type']; level: string;
  status: Trip['status']; deposit: string; cost: string; require_passport: boolean; funding: Trip['funding'];
};

const toValues = (t: Trip): Values => ({
  name: t.name,
  country_id: String(t.country_id),
  departure: toDdMmYyyy(t.departure),
  return: toDdMmYyyy(t.return),
  type: t.type,
  level: String(t.level),
  status: t.status,
  deposit: t.deposit.toFixed(2),
  cost: t.cost.toFixed(2),
  require_passport: t.require_passport,
  funding: t.funding,
});

export default function TripEditPage() {
  const id = Number(useParams().id);
  const trip = useTrip(id);
  if (trip.isPending) return <PageLoader />;
  if (trip.error instanceof ApiError && trip.error.status === 404) return <NotFoundPage />;
  if (trip.isError) {
    return (
      <Alert color="red" role="alert">
        The trip could not be loaded. Please refresh the page and try again.
      </Alert>
    );
  }
  const t = trip.data;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Edit Trip: {t.name}</Title>
        <Group gap="md">
          <Anchor component={Link} to={`${path('booking-list')}?timing=all&trip_id=${t.id}`}>
            Bookings ({t.booking_count})
          </Anchor>
          <Anchor component={Link} to={path('trip-list')}>
            Back to Trips
          </Anchor>
        </Group>
      </Group>
      {!t.editable && (
        <Alert color="yellow" role="status" title="Read only">
          {t.editable_reason}
        </Alert>
      )}
      <TripForm key={t.id} trip={t} />
      <AddonsPanel tripId={t.id} editable={t.editable} />
      <CustomFieldsPanel tripId={t.id} />
      <DocumentsPanel tripId={t.id} />
      <HistoryPanel url={`/api/trips/${t.id}/history`} queryKey={['trips', t.id]} />
    </Stack>
  );
}

function TripForm({ trip }: { trip: Trip }) {
  const queryClient = useQueryClient();
  const countries = useCountries();
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values, unknown, z.output<typeof updateTripSchema>>({ resolver: lazyZodResolver(() => import('../../../contract/trips.ts').then((m) => m.updateTripSchema)) as never, defaultValues: toValues(trip) });
  const errors = form.formState.errors;

  const save = form.handleSubmit(async () => {
    setSaved(false);
    setFailure(null);
    try {
      const updated = await updateTrip(trip.id, form.getValues());
      queryClient.setQueryData(tripKeys.one(trip.id), updated);
      void queryClient.invalidateQueries({ queryKey: tripKeys.lists });
      form.reset(toValues(updated));
      setSaved(true);
    } catch (error) {
      if (error instanceof ApiError) {
        setFailure(error.message);
        setFieldErrors(error, form.setError);
      } else {
        setFailure(errorMessage(error));
      }
    }
  });

  return (
    <Paper withBorder p="lg" radius="md" component="form" onSubmit={save} noValidate aria-labelledby="trip-details-heading">
      <Title order={2} size="h4" mb="sm" id="trip-details-heading">
        Trip details
      </Title>
      {saved && (
        <Alert color="blue" role="status" mb="sm" withCloseButton onClose={() => setSaved(false)} closeButtonLabel="Dismiss">
          Trip details updated
        </Alert>
      )}
      {failure && (
        <Alert color="red" role="alert" mb="sm">
          {failure}
        </Alert>
      )}
      <fieldset disabled={!trip.editable} style={{ border: 0, padding: 0, margin: 0 }}>
        <Grid>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <TextInput label="Trip Name" required error={errors.name?.message} {...form.register('name')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Controller
              control={form.control}
              name="country_id"
              render={({ field }) => (
                <Select
                  label="Country"
                  required
                  searchable
                  disabled={!trip.editable}
                  data={(countries.data ?? [trip.country]).map((c) => ({ value: String(c.id), label: c.name }))}
                  value={field.value || null}
                  onChange={(v) => field.onChange(v ?? '')}
                  error={errors.country_id?.message}
                />
              )}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput label="Departure" required placeholder="DD/MM/YYYY" maxLength={10} error={errors.departure?.message} {...form.register('departure')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput label="Return" required placeholder="DD/MM/YYYY" maxLength={10} error={errors.return?.message} {...form.register('return')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <NativeSelect label="Type" data={typeOptions} error={errors.type?.message} {...form.register('type')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <NativeSelect label="Level" data={levelOptions} error={errors.level?.message} {...form.register('level')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <NativeSelect label="Status" data={statusOptions} error={errors.status?.message} {...form.register('status')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput label="Deposit" leftSection="£" placeholder="0.00" inputMode="decimal" error={errors.deposit?.message} {...form.register('deposit')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput label="Cost" leftSection="£" placeholder="0.00" inputMode="decimal" error={errors.cost?.message} {...form.register('cost')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <NativeSelect label="Funding" data={fundingOptions} error={errors.funding?.message} {...form.register('funding')} />
          </Grid.Col>
          <Grid.Col span={12}>
            <Checkbox label="Travellers must give passport details" {...form.register('require_passport')} />
          </Grid.Col>
        </Grid>
        {trip.editable && (
          <Group mt="md">
            <Button type="submit" loading={form.formState.isSubmitting}>
              Save Trip
            </Button>
          </Group>
        )}
      </fieldset>
    </Paper>
  );
}
