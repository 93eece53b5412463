import { Checkbox, Grid, NativeSelect, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { createBookingSchema, CreatedBooking } from '../../contract/bookings.ts';
import { BOOKING_TITLES, FUNDING_TYPE_LABELS, FUNDING_TYPES } from '../../contract/booking-constants.ts';
import { api } from '../lib/api.ts';
import { lazyZodResolver } from '../lib/lazy-resolver.ts';
import { useFormMutation } from '../lib/mutation.ts';
import { useCan } from '../lib/session.tsx';
import { FormDialog } from './form-dialog.tsx';

type Values = {
  trip_id: number;
  title: string;
  first_name: string;
  last_name: string;
  preferred_name: string;
  email: string;
  mobile: string;
  as_on_passport: boolean;
  terms_accepted: boolean;
  funding_type: string;
  charity_id: string;
};

type Trip = { id: number; name: string };
type Props = { trip: Trip | null; onClose: () => void; onCreated: (booking: CreatedBooking) => void };

/** Spec §5: the Create Booking dialog, for the trip it was opened on (open while `trip` is set). */
export function CreateBookingDialog({ trip, onClose, onCreated }: Props) {
  return trip && <BookingForm key={trip.id} trip={trip} onClose={onClose} onCreated={onCreated} />;
}

function BookingForm({
  trip,
  onClose,
  onCreated,
}: {
  trip: Trip;
  onClose: () => void;
  onCreated: (b: CreatedBooking) => void;
}) {
  const form = useForm<Values, unknown, z.output<typeof createBookingSchema>>({
    resolver: lazyZodResolver(() => import('../../contract/bookings.ts').then((m) => m.createBookingSchema)) as never,
    defaultValues: {
      trip_id: trip.id,
      title: '',
      first_name: '',
      last_name: '',
      preferred_name: '',
      email: '',
      mobile: '',
      as_on_passport: false,
      terms_accepted: false,
      funding_type: 'self',
      charity_id: '',
    },
  });
  const may = useCan();
  // the charities' names are the charities area's: without it, the trip's own or none
  const charities = useQuery({
    queryKey: ['charities', 'names'],
    queryFn: () => api<Array<{ id: number; name: string }>>('/api/charities'),
    staleTime: 60_000,
    enabled: may('charities', 'read'),
  });
  const creating = useFormMutation({
    mutationFn: (values: Values) => api<CreatedBooking>('/api/bookings', { method: 'POST', body: values }),
    setError: form.setError,
    fallback: 'Something went wrong. Please try again.',
    onSuccess: onCreated,
  });
  const errors = form.formState.errors;
  // spec §8: the server's errors listed (each is under its field too), else the fallback
  const listed = Object.values(errors).flatMap((e) => (e?.message ? [e.message] : []));
  const failure = creating.failure && (listed.length ? listed.join('\n') : creating.failure);
  const submit = form.handleSubmit(async () => void (await creating.submit(form.getValues())));

  return (
    <FormDialog
      title="Create Booking"
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      failure={failure}
      submitLabel="Create Booking"
      submitting={form.formState.isSubmitting}
      above={
        <Text size="sm">
          For <strong>{trip.name}</strong>. The booking starts provisional until the registration fee is paid.
        </Text>
      }
    >
      <Grid>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <NativeSelect
            label="Title"
            required
            data={[{ value: '', label: 'Choose…' }, ...BOOKING_TITLES.map((t) => ({ value: t, label: t }))]}
            error={errors.title?.message}
            data-autofocus
            {...form.register('title')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <TextInput
            label="Preferred Name"
            required
            error={errors.preferred_name?.message}
            {...form.register('preferred_name')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="First Name" required error={errors.first_name?.message} {...form.register('first_name')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Last Name" required error={errors.last_name?.message} {...form.register('last_name')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Email" type="email" required error={errors.email?.message} {...form.register('email')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput label="Mobile (optional)" type="tel" error={errors.mobile?.message} {...form.register('mobile')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <NativeSelect
            label="Funding"
            data={FUNDING_TYPES.map((f) => ({ value: f, label: FUNDING_TYPE_LABELS[f] }))}
            error={errors.funding_type?.message}
            {...form.register('funding_type')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <NativeSelect
            label="Charity"
            description="Needed to fundraise on a charity trip"
            data={[
              { value: '', label: charities.isLoading ? 'Loading…' : 'The trip’s own, or none' },
              ...(charities.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
            ]}
            error={errors.charity_id?.message}
            {...form.register('charity_id')}
          />
        </Grid.Col>
      </Grid>
      <Checkbox
        label="First name, last name and details as shown on the passport"
        error={errors.as_on_passport?.message}
        {...form.register('as_on_passport')}
      />
      <Checkbox
        label="Terms & conditions accepted"
        error={errors.terms_accepted?.message}
        {...form.register('terms_accepted')}
      />
    </FormDialog>
  );
}
