import { Checkbox, List, NativeSelect, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import type { Moved, MovePreview, MoveTrips } from '../../../contract/changes.ts';
import { formatPounds } from '../../../contract/pounds.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { api } from '../../lib/api.ts';
import { formatLongDate, formatShortDate } from '../../lib/format.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { bookingKeys } from './api/bookings.ts';
import { invoiceChangeKeys } from './api/invoices.ts';
import { Figure, PreviewFrame, useChangePreview } from './change-preview.tsx';

type Values = { trip_id: string; fee_waived: boolean; reason: string; notify: boolean };

/** What the move would do, from the server's preview: the same function that then does it. */
function PreviewOf({ p }: { p: MovePreview }) {
  const difference =
    p.price_difference === 0
      ? 'The same price'
      : p.price_difference > 0
        ? `${formatPounds(p.price_difference)} more`
        : `${formatPounds(-p.price_difference)} less`;
  return (
    <Stack gap="xs" role="group" aria-label="What the move does">
      <Text size="sm">
        From {p.from.name} ({formatLongDate(p.from.departure_date)}) to {p.to.name} (
        {formatLongDate(p.to.departure_date)}).
      </Text>
      <SimpleGrid cols={3} spacing="xs">
        <Figure label="Price difference" value={difference} />
        <Figure label="Billed so far" value={formatPounds(p.billed)} />
        <Figure label="Move fee" value={formatPounds(p.fee)} strong />
      </SimpleGrid>
      <List size="sm" spacing={2}>
        {p.refund_owed > 0 && (
          <List.Item>
            {formatPounds(p.refund_owed)} billed beyond the new cost is owed back by {formatLongDate(p.refund_due_on!)}.
          </List.Item>
        )}
        {p.rows_new.length > 0 && (
          <List.Item>
            The schedule from {p.to.name}’s plan:{' '}
            {p.rows_new.map((r) => `${r.label} ${formatPounds(r.amount)} due ${formatLongDate(r.due_date)}`).join(', ')}
            .
          </List.Item>
        )}
        {p.invoices_deleted.map((i) => (
          <List.Item key={i.id}>
            Invoice {i.ref} ({formatPounds(i.total)}) is deleted: nothing was paid on it.
          </List.Item>
        ))}
        {p.addons_dropped.length > 0 && (
          <List.Item>
            {p.to.name} has no {p.addons_dropped.map((a) => a.name).join(', ')}: dropped.
          </List.Item>
        )}
      </List>
    </Stack>
  );
}

/** Moves a booking to another departure of the same type, showing first what it will do. */
export function MoveBookingDialog({
  bookingId,
  onClose,
  onDone,
}: {
  bookingId: number;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values>({
    resolver: lazyZodResolver(() => import('../../../contract/changes.ts').then((m) => m.moveBookingSchema)) as never,
    defaultValues: { trip_id: '', fee_waived: false, reason: '', notify: true },
  });
  const [tripId, waived] = useWatch({ control: form.control, name: ['trip_id', 'fee_waived'] });
  const options = useQuery({
    queryKey: [...bookingKeys.one(bookingId), 'move-trips'],
    queryFn: () => api<MoveTrips>(`/api/bookings/${bookingId}/move/trips`),
  });
  const preview = useChangePreview<MovePreview>(
    bookingId,
    'move',
    { trip_id: tripId, fee_waived: waived ? '1' : '0' },
    tripId !== '',
  );
  const errors = form.formState.errors;
  const moving = useFormMutation({
    mutationFn: (body: Values) => api<Moved>(`/api/bookings/${bookingId}/move`, { method: 'POST', body }),
    invalidate: [...invoiceChangeKeys(bookingId), bookingKeys.lists],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the booking could not be moved. Please try again.',
    onSuccess: (res) => onDone(res.message),
  });
  const p = tripId ? preview.data : undefined;
  const trips = options.data?.data ?? [];
  return (
    <FormDialog
      title="Move to another departure"
      size="lg"
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => moving.submit(v))}
      failure={moving.failure ?? (p && !p.movable ? p.refused : null)}
      submitLabel="Move Booking"
      cancelLabel="Keep As It Is"
      submitting={moving.isPending}
      above={
        tripId ? (
          <PreviewFrame preview={preview} what="the move">
            {(p) => <PreviewOf p={p} />}
          </PreviewFrame>
        ) : (
          <Text size="sm" c="dimmed">
            Choose the departure to see what the move does.
          </Text>
        )
      }
    >
      <NativeSelect
        label="Departure"
        required
        error={errors.trip_id?.message ?? (options.isError ? 'The departures could not be loaded.' : undefined)}
        data={[
          {
            value: '',
            label: options.isPending ? 'Loading…' : trips.length ? 'Choose a departure' : 'No other open departure',
          },
          ...trips.map((o) => ({
            value: String(o.trip_id),
            label: `${o.name}, ${formatShortDate(o.departure_date)}, ${formatPounds(o.cost)}${o.places_left === null ? '' : `, ${o.places_left} left`}`,
            disabled: o.places_left === 0,
          })),
        ]}
        {...form.register('trip_id')}
      />
      <Checkbox label="Waive the move fee" {...form.register('fee_waived')} />
      <Textarea
        label="Reason"
        autosize
        minRows={2}
        maxLength={500}
        error={errors.reason?.message}
        {...form.register('reason')}
      />
      <Checkbox label="Email the traveller their new departure" {...form.register('notify')} />
    </FormDialog>
  );
}
