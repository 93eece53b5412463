import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Overview } from '../../../contract/overview.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { RecordLoader } from '../../components/form-frame.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatShortDate } from '../../lib/format.ts';
import { useOverview } from './api/get-overview.ts';

function Stat({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {value.toLocaleString('en-GB')}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

const columns: Array<Column<Overview['next_departures'][number]>> = [
  {
    key: 'trip',
    label: 'Trip',
    cell: (trip) => (
      <Anchor component={Link} to={`/bookings?timing=all&trip_id=${trip.id}`}>
        {trip.name}
      </Anchor>
    ),
  },
  { key: 'country', label: 'Country', cell: (trip) => trip.country },
  { key: 'departure', label: 'Departure', cell: (trip) => formatShortDate(trip.departure) },
  { key: 'return', label: 'Return', cell: (trip) => formatShortDate(trip.return) },
  { key: 'status', label: 'Status', cell: (trip) => <StatusBadge status={trip.status} /> },
  { key: 'bookings', label: 'Bookings', align: 'right', cell: (trip) => trip.booking_count },
];

export default function OverviewPage() {
  const overview = useOverview();
  return (
    <Stack>
      <Title order={1}>Overview</Title>
      <RecordLoader query={overview} failed="The overview could not be loaded. Please refresh the page and try again.">
        {(data) => (
          <>
            <SimpleGrid cols={{ base: 2, md: 4 }}>
              <Stat label="Bookings" value={data.bookings.total} hint={`${data.bookings.received_last_30_days.toLocaleString('en-GB')} in the last 30 days`} />
              <Stat label="Confirmed" value={data.bookings.confirmed} />
              <Stat label="Provisional" value={data.bookings.provisional} hint="registration fee not paid" />
              <Stat label="Upcoming trips" value={data.upcoming_trips} hint={`${data.charities.toLocaleString('en-GB')} charities`} />
            </SimpleGrid>
            <Paper withBorder radius="md" p="md">
              <Title order={2} size="h4" mb="sm">
                Next departures
              </Title>
              <DataTable columns={columns} data={data.next_departures} rowKey={(trip) => trip.id} empty="No trips are due to depart." tableProps={{ verticalSpacing: 'xs' }} />
            </Paper>
          </>
        )}
      </RecordLoader>
    </Stack>
  );
}
