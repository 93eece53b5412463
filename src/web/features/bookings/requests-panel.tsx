import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ChangeRequest, ChangeRequests } from '../../../contract/changes.ts';
import { lazyComponent } from '../../components/lazy.tsx';
import { api } from '../../lib/api.ts';
import { formatLongDate } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { bookingKeys } from './api/bookings.ts';

const ReasonDialog = lazyComponent(() =>
  import('../../components/reason-dialog.tsx').then((m) => m.ReasonDialog<ChangeRequest>),
);

export const requestKeys = {
  all: ['change-requests'] as const,
  ofBooking: (bookingId: number) => [...bookingKeys.one(bookingId), 'change-requests'] as const,
};

const close = (id: number, outcome: 'done' | 'declined', note: string | null) =>
  api<ChangeRequest>(`/api/change-requests/${id}/close`, { method: 'POST', body: { outcome, note } });

/**
 * On the booking page: the traveller's open asks to cancel or change, from their own pages. Staff
 * make the change with the booking's own actions (Cancel Booking, Transfer, Move, Change Funding),
 * then mark the ask done, or decline it with a note; a team that may only read bookings sees the asks.
 */
export function RequestsPanel({ bookingId, onCancel }: { bookingId: number; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const may = useCan();
  const asks = useQuery({
    queryKey: requestKeys.ofBooking(bookingId),
    queryFn: () =>
      api<ChangeRequests>('/api/change-requests', { query: { booking_id: String(bookingId), state: 'open' } }),
  });
  const [declining, setDeclining] = useState<ChangeRequest | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: bookingKeys.one(bookingId) }),
      queryClient.invalidateQueries({ queryKey: requestKeys.all }),
    ]);
  const open = asks.data?.data ?? [];
  if (!open.length) return null;
  return (
    <Stack gap="xs">
      {open.map((r) => (
        <Alert
          key={r.id}
          color="orange"
          title={`${r.traveller} asks ${r.kind === 'cancel' ? 'to cancel' : 'to change'} this booking`}
          role="region"
        >
          <Stack gap="xs">
            <Text size="sm">
              On {formatLongDate(r.created_at)}: “{r.message}”
            </Text>
            {failure && (
              <Text size="sm" c="red.8" role="alert">
                {failure}
              </Text>
            )}
            {may('bookings') && (
              <Group gap="xs">
                {r.kind === 'cancel' && (
                  <Button size="xs" variant="outline" color="red" onClick={onCancel}>
                    Cancel Booking…
                  </Button>
                )}
                <Button
                  size="xs"
                  variant="default"
                  onClick={async () => {
                    setFailure(null);
                    try {
                      await close(r.id, 'done', null);
                      await refresh();
                    } catch {
                      setFailure('Sorry, the ask could not be marked done. Please try again.');
                    }
                  }}
                >
                  Mark Done
                </Button>
                <Button size="xs" variant="subtle" color="gray" onClick={() => setDeclining(r)}>
                  Decline…
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      ))}
      {declining && (
        <ReasonDialog
          title="Decline the traveller’s ask"
          above={<Text size="sm">The note is kept with the ask; the traveller sees it on their own pages.</Text>}
          submitLabel="Decline"
          required="Say why it is declined."
          save={(note) => close(declining.id, 'declined', note)}
          invalidate={[bookingKeys.one(bookingId), requestKeys.all]}
          fallback="Sorry, the ask could not be declined. Please try again."
          onDone={() => setDeclining(null)}
          onClose={() => setDeclining(null)}
        />
      )}
    </Stack>
  );
}
