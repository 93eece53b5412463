import { ActionIcon, Alert, Button, Group, Skeleton, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { WaitingEntry, WaitingList } from '../../../contract/online-booking.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ToneBadge, type Tone } from '../../components/status-badge.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { tripKeys } from './api/trips.ts';
import { TripPanel } from './trip-panel.tsx';

const STATE: Record<WaitingEntry['state'], { label: string; tone: Tone }> = {
  waiting: { label: 'Waiting', tone: 'neutral' },
  offered: { label: 'Offered', tone: 'info' },
  booked: { label: 'Booked', tone: 'good' },
  expired: { label: 'Offer lapsed', tone: 'warn' },
  removed: { label: 'Removed', tone: 'bad' },
};

const waitingKey = (tripId: number) => [...tripKeys.one(tripId), 'waiting-list'] as const;

/**
 * The trip's waiting list: the line in order, with the offers made and their state; staff move
 * people up or down, take them off (after a confirmation) or offer them places now (trips change).
 */
export function WaitingListPanel({ tripId }: { tripId: number }) {
  const queryClient = useQueryClient();
  const may = useCan();
  const query = useQuery({
    queryKey: waitingKey(tripId),
    queryFn: () => api<WaitingList>(`/api/trips/${tripId}/waiting-list`),
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState<WaitingEntry | null>(null);
  const act = useMutation({
    mutationFn: ({ entry, what }: { entry: WaitingEntry; what: 'up' | 'down' | 'offer' | 'remove' }) =>
      what === 'offer'
        ? api(`/api/trips/${tripId}/waiting-list/${entry.id}/offer`, { method: 'POST' })
        : what === 'remove'
          ? api(`/api/trips/${tripId}/waiting-list/${entry.id}`, { method: 'DELETE' })
          : api(`/api/trips/${tripId}/waiting-list/${entry.id}`, { method: 'PATCH', body: { move: what } }),
    onMutate: () => {
      setFailure(null);
      setNotice(null);
    },
    onSuccess: async (_r, { entry, what }) => {
      setRemoving(null);
      const name = `${entry.first_name} ${entry.last_name}`;
      setNotice(
        what === 'offer'
          ? `${name} has been emailed an offer.`
          : what === 'remove'
            ? `${name} is off the waiting list.`
            : `${name} has moved ${what}.`,
      );
      await queryClient.invalidateQueries({ queryKey: tripKeys.one(tripId) });
    },
    onError: (error) => {
      setRemoving(null);
      setFailure(
        error instanceof ApiError && error.status < 500 ? error.message : 'Sorry, that did not work. Please try again.',
      );
    },
  });

  const entries = query.data?.entries ?? [];
  const inLine = entries.filter((e) => e.position !== null);
  return (
    <TripPanel title="Waiting list" failure={failure}>
      {query.isPending ? (
        <Skeleton height={80} />
      ) : !query.data ? (
        <Text c="red.9" role="alert">
          The waiting list could not be loaded. Please refresh the page and try again.
        </Text>
      ) : entries.length === 0 ? (
        <Text c="dimmed">No one is waiting. When the trip is full, its booking page takes names here.</Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Places</Table.Th>
                <Table.Th>Joined</Table.Th>
                <Table.Th>State</Table.Th>
                {may('trips') && (
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((e) => {
                const name = `${e.first_name} ${e.last_name}`;
                return (
                  <Table.Tr key={e.id}>
                    <Table.Td>{e.position ?? '–'}</Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {e.email}
                      </Text>
                      {e.note && <Text size="xs">{e.note}</Text>}
                    </Table.Td>
                    <Table.Td>{e.places}</Table.Td>
                    <Table.Td>{formatDateTime(e.joined_at)}</Table.Td>
                    <Table.Td>
                      <ToneBadge tone={STATE[e.state].tone}>{STATE[e.state].label}</ToneBadge>
                      {e.state === 'offered' && e.offer_expires_at && (
                        <Text size="xs">until {formatDateTime(e.offer_expires_at)}</Text>
                      )}
                      {e.offers_made > 0 && e.state !== 'offered' && (
                        <Text size="xs" c="dimmed">
                          {e.offers_made === 1 ? '1 offer made' : `${e.offers_made} offers made`}
                        </Text>
                      )}
                    </Table.Td>
                    {may('trips') && (
                      <Table.Td>
                        {e.position !== null && (
                          <Group gap={4} wrap="nowrap" justify="flex-end">
                            <ActionIcon
                              variant="default"
                              aria-label={`Move ${name} up`}
                              disabled={e.position === 1 || act.isPending}
                              onClick={() => act.mutate({ entry: e, what: 'up' })}
                            >
                              ↑
                            </ActionIcon>
                            <ActionIcon
                              variant="default"
                              aria-label={`Move ${name} down`}
                              disabled={e.position === inLine.length || act.isPending}
                              onClick={() => act.mutate({ entry: e, what: 'down' })}
                            >
                              ↓
                            </ActionIcon>
                            {e.state === 'waiting' && (
                              <Button
                                size="compact-sm"
                                variant="default"
                                disabled={act.isPending}
                                onClick={() => act.mutate({ entry: e, what: 'offer' })}
                                aria-label={`Offer ${name} a place now`}
                              >
                                Offer now
                              </Button>
                            )}
                            <Button
                              size="compact-sm"
                              variant="default"
                              color="red.9"
                              disabled={act.isPending}
                              onClick={() => setRemoving(e)}
                              aria-label={`Remove ${name}`}
                            >
                              Remove
                            </Button>
                          </Group>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {notice && (
        <Alert color="green" role="status">
          {notice}
        </Alert>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title="Remove from the waiting list"
        message={
          removing
            ? `Take ${removing.first_name} ${removing.last_name} off the waiting list?${removing.state === 'offered' ? ' The offer they hold will be withdrawn.' : ''}`
            : ''
        }
        confirmLabel="Remove"
        cancelLabel="Cancel"
        busy={act.isPending}
        onConfirm={() => removing && act.mutate({ entry: removing, what: 'remove' })}
        onCancel={() => setRemoving(null)}
      />
    </TripPanel>
  );
}
