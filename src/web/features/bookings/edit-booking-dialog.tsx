import { Checkbox, Grid, NativeSelect, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { BookingDetail, updateBookingSchema } from '../../../contract/bookings.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { bookingKeys, updateBooking } from './api/bookings.ts';

type Values = {
  status: BookingDetail['status'];
  title: string;
  first_name: string;
  last_name: string;
  preferred_name: string;
  email: string;
  mobile: string;
  address_1: string;
  address_2: string;
  address_3: string;
  address_4: string;
  post_code: string;
  room_type: string;
  room_ref: string;
  share_with: string;
  double_room: boolean;
};

/** Edit Booking: the traveller's contact details, the room and the status. */
export function EditBookingDialog({ booking: b, onClose }: { booking: BookingDetail; onClose: () => void }) {
  const form = useForm<Values, unknown, z.output<typeof updateBookingSchema>>({
    resolver: lazyZodResolver(() =>
      import('../../../contract/bookings.ts').then((m) => m.updateBookingSchema),
    ) as never,
    defaultValues: {
      status: b.status,
      title: b.title ?? '',
      first_name: b.first_name,
      last_name: b.last_name,
      preferred_name: b.preferred_name ?? '',
      email: b.email,
      mobile: b.mobile ?? '',
      address_1: b.address_1 ?? '',
      address_2: b.address_2 ?? '',
      address_3: b.address_3 ?? '',
      address_4: b.address_4 ?? '',
      post_code: b.post_code ?? '',
      room_type: b.room_type ?? '',
      room_ref: b.room_ref ?? '',
      share_with: b.share_with ?? '',
      double_room: b.double_room,
    },
  });
  const saving = useFormMutation({
    mutationFn: (values: Values) => updateBooking(b.id, values),
    // the booking with its History, and the lists it shows in
    invalidate: [bookingKeys.one(b.id), bookingKeys.lists],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, an error occurred. Please refresh the page and try again.',
    onSuccess: onClose,
  });
  const errors = form.formState.errors;
  // the raw values go to the server, which reads them with the same schema
  const save = form.handleSubmit(async () => void (await saving.submit(form.getValues())));

  const text = (name: keyof Values, label: string, span = 6) => (
    <Grid.Col span={{ base: 12, sm: span }}>
      <TextInput label={label} error={errors[name]?.message} {...form.register(name)} />
    </Grid.Col>
  );
  return (
    <FormDialog
      title="Edit Booking"
      size="xl"
      onClose={onClose}
      onSubmit={save}
      failure={saving.failure}
      submitLabel="Save Booking"
      submitting={form.formState.isSubmitting}
    >
      <Grid>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <NativeSelect
            label="Status"
            data={[
              { value: 'provisional', label: 'Provisional' },
              { value: 'confirmed', label: 'Confirmed' },
              { value: 'cancelled', label: 'Cancelled' },
            ]}
            error={errors.status?.message}
            {...form.register('status')}
          />
        </Grid.Col>
        {text('title', 'Title', 2)}
        {text('preferred_name', 'Preferred Name')}
        {text('first_name', 'First Name')}
        {text('last_name', 'Last Name')}
        {text('email', 'Email')}
        {text('mobile', 'Mobile')}
        {text('address_1', 'Address line 1')}
        {text('address_2', 'Address line 2')}
        {text('address_3', 'Town', 4)}
        {text('address_4', 'County', 4)}
        {text('post_code', 'Post Code', 4)}
        {text('room_type', 'Room Type', 4)}
        {text('room_ref', 'Room Ref', 4)}
        {text('share_with', 'Sharing with', 4)}
        <Grid.Col span={12}>
          <Checkbox label="Double room" {...form.register('double_room')} />
        </Grid.Col>
      </Grid>
    </FormDialog>
  );
}
