import { Button, Checkbox, Grid, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { lazyZodResolver } from '../lib/lazy-resolver.ts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { createBookingSchema, CreatedBooking } from '../../contract/bookings.ts';
import { BOOKING_TITLES } from '../../contract/booking-constants.ts';
import { api } from '../lib/api.ts';
import { ErrorList } from './error-list.tsx';

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
};

type Props = { trip: { id: number; name: string } | null; onClose: () => void; onCreated: (booking: CreatedBooking) => void };

/** Spec §5: the Create Booking dialog, for the trip it was opened on. */
export function CreateBookingDialog({ trip, onClose, onCreated }: Props) {
  return (
    <Modal opened={trip !== null} onClose={onClose} title="Create Booking" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      {trip && <BookingForm key={trip.id} trip={trip} onClose={onClose} onCreated={onCreated} />}
    </Modal>
  );
}

function BookingForm({ trip, onClose, onCreated }: { trip: { id: number; name: string }; onClose: () => void; onCreated: (b: CreatedBooking) => void }) {
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<Values, unknown, z.output<typeof createBookingSchema>>({
    resolver: lazyZodResolver(() => import('../../contract/bookings.ts').then((m) => m.createBookingSchema)) as never,
    defaultValues: { trip_id: trip.id, title: '', first_name: '', last_name: '', preferred_name: '', email: '', mobile: '', as_on_passport: false, terms_accepted: false },
  });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async () => {
    setFailure(null);
    try {
      const booking = await api<CreatedBooking>('/api/bookings', { method: 'POST', body: form.getValues() });
      onCreated(booking);
    } catch (error) {
      setFailure(error);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          For <strong>{trip.name}</strong>. The booking starts provisional until the registration fee is paid.
        </Text>
        <ErrorList error={failure} fallback="Something went wrong. Please try again." />
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
            <TextInput label="Preferred Name" required error={errors.preferred_name?.message} {...form.register('preferred_name')} />
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
        </Grid>
        <Checkbox
          label="First name, last name and details as shown on the passport"
          error={errors.as_on_passport?.message}
          {...form.register('as_on_passport')}
        />
        <Checkbox label="Terms & conditions accepted" error={errors.terms_accepted?.message} {...form.register('terms_accepted')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            Create Booking
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
