import { Grid, NativeSelect, Select, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { path } from '../../../contract/paths.ts';
import type { createTripSchema } from '../../../contract/trips.ts';
import { TRIP_CREATE_FIXED, TRIP_DEFAULTS } from '../../../contract/trip-constants.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { createTrip, tripKeys, useCountries } from './api/trips.ts';
import { levelOptions, typeOptions } from './trip-options.ts';

type Values = {
  name: string;
  country_id: string;
  departure: string;
  return: string;
  type: 'charity' | 'open' | 'school';
  level: string;
};
const empty: Values = {
  name: '',
  country_id: '',
  departure: '',
  return: '',
  type: TRIP_DEFAULTS.type,
  level: String(TRIP_DEFAULTS.level),
};

/** The Create New Trip dialog; open while drawn. §4: a new trip opens on its edit page. */
export function CreateTripDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const countries = useCountries();
  const form = useForm<Values, unknown, z.output<typeof createTripSchema>>({
    resolver: lazyZodResolver(() => import('../../../contract/trips.ts').then((m) => m.createTripSchema)) as never,
    defaultValues: empty,
  });
  const errors = form.formState.errors;
  const creating = useFormMutation({
    // the spec's fixed values go with every new trip
    mutationFn: (values: Values) => createTrip({ ...values, ...TRIP_CREATE_FIXED }),
    invalidate: [tripKeys.lists],
    setError: form.setError,
    fallback: 'Something went wrong. Please try again.',
    onSuccess: (trip) => {
      onClose();
      navigate(path('trip-edit', { id: trip.id }));
    },
  });
  const submit = form.handleSubmit(async () => void (await creating.submit(form.getValues())));

  return (
    <FormDialog
      title="Create New Trip"
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      failure={creating.failure}
      submitLabel="Create Trip"
      submitting={creating.isPending}
    >
      <TextInput label="Trip Name" required data-autofocus error={errors.name?.message} {...form.register('name')} />
      <Controller
        control={form.control}
        name="country_id"
        render={({ field }) => (
          <Select
            label="Country"
            required
            searchable
            placeholder="Type to find a country"
            nothingFoundMessage="No country matches"
            data={(countries.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            value={field.value || null}
            onChange={(v) => field.onChange(v ?? '')}
            onBlur={field.onBlur}
            error={errors.country_id?.message}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      <Grid>
        <Grid.Col span={6}>
          <TextInput
            label="Departure"
            required
            placeholder="DD/MM/YYYY"
            maxLength={10}
            error={errors.departure?.message}
            {...form.register('departure')}
          />
        </Grid.Col>
        <Grid.Col span={6}>
          <TextInput
            label="Return"
            required
            placeholder="DD/MM/YYYY"
            maxLength={10}
            error={errors.return?.message}
            {...form.register('return')}
          />
        </Grid.Col>
        <Grid.Col span={6}>
          <NativeSelect label="Type" data={typeOptions} error={errors.type?.message} {...form.register('type')} />
        </Grid.Col>
        <Grid.Col span={6}>
          <NativeSelect label="Level" data={levelOptions} error={errors.level?.message} {...form.register('level')} />
        </Grid.Col>
      </Grid>
    </FormDialog>
  );
}
