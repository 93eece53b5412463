import { Alert, Anchor, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageLoader } from '../../components/page-loader.tsx';
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

export default function OverviewPage() {
  const { data, isPending, isError } = useOverview();
  return (
    <Stack>
      <Title order={1}>Overview</Title>
      {isPending && <PageLoader />}
      {isError && (
        <Alert color="red" variant="light">
          The overview could not be loaded. Please refresh the page and try again.
        </Alert>
      )}
      {data && (
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
            {data.next_departures.length === 0 ? (
              <Text c="dimmed">No trips are due to depart.</Text>
            ) : (
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Trip</Table.Th>
                    <Table.Th>Country</Table.Th>
                    <Table.Th>Departure</Table.Th>
                    <Table.Th>Return</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th ta="right">Bookings</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.next_departures.map((trip) => (
                    <Table.Tr key={trip.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/bookings?timing=all&trip_id=${trip.id}`}>
                          {trip.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{trip.country}</Table.Td>
                      <Table.Td>{formatShortDate(trip.departure)}</Table.Td>
                      <Table.Td>{formatShortDate(trip.return)}</Table.Td>
                      <Table.Td>
                        <StatusBadge status={trip.status} />
                      </Table.Td>
                      <Table.Td ta="right">{trip.booking_count}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Paper>
        </>
      )}
    </Stack>
  );
}
