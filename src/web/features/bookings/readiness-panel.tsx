import { Anchor, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { path } from '../../../contract/paths.ts';
import { READINESS_CHECK_LABELS, READINESS_CHECKS } from '../../../contract/readiness-constants.ts';
import { useBookingReadiness } from './api/readiness.ts';
import { CheckBadge } from '../../components/check-badge.tsx';

/** The booking page's "Ready to depart": the trip board's checks for this booking, each with its reason in view. */
export function BookingReadiness({ bookingId, tripId }: { bookingId: number; tripId: number }) {
  const readiness = useBookingReadiness(bookingId);
  const r = readiness.data;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="ready-to-depart">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5" id="ready-to-depart">
          Ready to depart
        </Title>
        <Anchor component={Link} to={path('trip-readiness', { id: tripId })} size="sm">
          The trip's board
        </Anchor>
      </Group>
      {readiness.isPending ? (
        <Stack gap={6}>
          {READINESS_CHECKS.map((c) => (
            <Skeleton key={c} height={22} />
          ))}
        </Stack>
      ) : !r ? (
        <Text size="sm" c="red.9" role="alert">
          The checks could not be loaded. Please refresh the page and try again.
        </Text>
      ) : (
        <Table verticalSpacing={4} aria-label="Readiness checks">
          <Table.Tbody>
            {READINESS_CHECKS.map((c) => (
              <Table.Tr key={c}>
                <Table.Th scope="row" w={120} fw={600} fz="sm">
                  {READINESS_CHECK_LABELS[c]}
                </Table.Th>
                <Table.Td w={110} style={{ whiteSpace: 'nowrap' }}>
                  <CheckBadge check={c} result={r.checks[c]} />
                </Table.Td>
                <Table.Td fz="sm">{r.checks[c].reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
