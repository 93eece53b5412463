import { Checkbox, Loader, ScrollArea, Stack, Table, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { TripCancelled, TripCancelPreview } from '../../../contract/changes.ts';
import { formatPounds } from '../../../contract/pounds.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { api } from '../../lib/api.ts';
import { formatLongDate } from '../../lib/format.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { tripKeys } from './api/trips.ts';

type Values = { reason: string; extraordinary: boolean; notify: boolean };

/** Every booking the cancellation cancels, with what each paid and is owed back. */
function PreviewOf({ p }: { p: TripCancelPreview }) {
  return (
    <Stack gap="xs" role="group" aria-label="What cancelling the departure does">
      <Text size="sm">{p.summary}</Text>
      {p.minimum !== null && (
        <Text size="sm" c={p.below_minimum ? 'red.8' : undefined}>
          {p.booked} booked of a minimum of {p.minimum}
          {p.minimum_deadline ? `; the last day to cancel for it is ${formatLongDate(p.minimum_deadline)}` : ''}.
        </Text>
      )}
      {p.bookings.length > 0 && (
        <ScrollArea.Autosize mah={220}>
          <Table striped fz="sm" aria-label="Bookings cancelled">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Booking</Table.Th>
                <Table.Th>Traveller</Table.Th>
                <Table.Th ta="right">Paid</Table.Th>
                <Table.Th ta="right">Owed back</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {p.bookings.map((b) => (
                <Table.Tr key={b.booking_id}>
                  <Table.Td>{b.ref}</Table.Td>
                  <Table.Td>{b.traveller}</Table.Td>
                  <Table.Td ta="right">{formatPounds(b.paid)}</Table.Td>
                  <Table.Td ta="right">{formatPounds(b.refund_owed)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

/** The operator cancels a departure: its bookings cancelled with no fee and their money owed back, shown first. */
export function CancelTripDialog({
  tripId,
  onClose,
  onDone,
}: {
  tripId: number;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values>({
    resolver: lazyZodResolver(() => import('../../../contract/changes.ts').then((m) => m.cancelTripSchema)) as never,
    defaultValues: { reason: '', extraordinary: false, notify: true },
  });
  const preview = useQuery({
    queryKey: [...tripKeys.one(tripId), 'cancel-preview'],
    queryFn: () => api<TripCancelPreview>(`/api/trips/${tripId}/cancel/preview`),
  });
  const errors = form.formState.errors;
  const cancelling = useFormMutation({
    mutationFn: (body: Values) => api<TripCancelled>(`/api/trips/${tripId}/cancel`, { method: 'POST', body }),
    invalidate: [tripKeys.lists, tripKeys.one(tripId)],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the departure could not be cancelled. Please try again.',
    onSuccess: (res) => onDone(res.message),
  });
  const p = preview.data;
  return (
    <FormDialog
      title="Cancel this departure"
      size="lg"
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => cancelling.submit(v))}
      failure={cancelling.failure ?? (p && !p.cancellable ? p.refused : null)}
      submitLabel="Cancel Departure"
      cancelLabel="Keep Departure"
      danger
      submitting={cancelling.isPending}
      above={
        preview.isError ? (
          <Text c="red" size="sm" role="alert">
            What cancelling the departure would do could not be worked out. Please close this and try again.
          </Text>
        ) : p ? (
          <PreviewOf p={p} />
        ) : (
          <Loader size="sm" aria-label="Working out the refunds" />
        )
      }
    >
      <Textarea
        label="Reason"
        description="Told to each traveller in their email."
        required
        autosize
        minRows={2}
        maxLength={500}
        error={errors.reason?.message}
        {...form.register('reason')}
      />
      <Checkbox
        label="Unavoidable and extraordinary circumstances (otherwise the operator's own choice: no fee either way)"
        {...form.register('extraordinary')}
      />
      <Checkbox label="Email each traveller" {...form.register('notify')} />
    </FormDialog>
  );
}
