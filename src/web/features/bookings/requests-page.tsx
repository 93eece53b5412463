import { Anchor, SegmentedControl, Stack, Text, Title, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ChangeRequest, ChangeRequests } from '../../../contract/changes.ts';
import { path } from '../../../contract/paths.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { api } from '../../lib/api.ts';
import { formatShortDate } from '../../lib/format.ts';
import { requestKeys } from './requests-panel.tsx';

type Show = 'open' | 'done' | 'declined';
const SHOWN: Array<{ value: Show; label: string }> = [
  { value: 'open', label: 'Open' },
  { value: 'done', label: 'Done' },
  { value: 'declined', label: 'Declined' },
];

const columns: Array<Column<ChangeRequest>> = [
  {
    key: 'booking',
    label: 'Booking',
    cell: (r) => (
      <Anchor component={Link} to={path('booking-view', { id: r.booking_id })} size="sm">
        {r.booking_ref}
      </Anchor>
    ),
  },
  { key: 'traveller', label: 'Traveller', cell: (r) => r.traveller },
  { key: 'trip', label: 'Trip', cell: (r) => r.trip_name },
  { key: 'kind', label: 'Asks', cell: (r) => (r.kind === 'cancel' ? 'To cancel' : 'To change') },
  { key: 'message', label: 'Message', cell: (r) => <Text size="sm">{r.message}</Text> },
  { key: 'asked', label: 'Asked on', cell: (r) => formatShortDate(r.created_at.slice(0, 10)) },
  {
    key: 'closed',
    label: 'Closed',
    cell: (r) =>
      r.closed_at ? `${formatShortDate(r.closed_at.slice(0, 10))}${r.closed_note ? `: ${r.closed_note}` : ''}` : '',
  },
];

/** /requests: travellers' asks to cancel or change, from their own pages; each is answered on its booking's page. */
export default function RequestsPage() {
  const [show, setShow] = useState<Show>('open');
  const list = useQuery({
    queryKey: [...requestKeys.all, show],
    queryFn: () => api<ChangeRequests>('/api/change-requests', { query: { state: show } }),
  });
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Requests from travellers</Title>
          <Text c="dimmed" size="sm">
            Asks to cancel or change a booking, sent from the travellers’ own pages. Nothing is done until you do it on
            the booking’s page, then mark the ask done or decline it.
          </Text>
        </div>
        <SegmentedControl aria-label="Show" value={show} onChange={(v) => setShow(v as Show)} data={SHOWN} />
      </Group>
      {list.isError && (
        <Text c="red" role="alert">
          The requests could not be loaded. Please refresh the page and try again.
        </Text>
      )}
      {list.data && (
        <DataTable
          columns={columns}
          data={list.data.data}
          rowKey={(r) => r.id}
          empty={show === 'open' ? 'No traveller is waiting for an answer.' : `No request has been ${show} yet.`}
          caption="Requests from travellers"
        />
      )}
    </Stack>
  );
}
