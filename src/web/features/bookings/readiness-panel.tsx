import { Anchor, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { path } from '../../../contract/paths.ts';
import { READINESS_CHECK_LABELS, READINESS_CHECKS, SCHOOL_ONLY_CHECKS } from '../../../contract/readiness-constants.ts';
import { setChasers, useBookingReadiness } from './api/readiness.ts';
import { bookingKeys } from './api/bookings.ts';
import { CheckBadge } from '../../components/check-badge.tsx';
import { RemindersSwitch } from '../../components/reminders-switch.tsx';
import { formatShortDate } from '../../lib/format.ts';

/**
 * The booking page's "Ready to depart": the trip board's checks for this booking, each with its
 * reason in view, when it was last chased, and its "Send automatic chasers" switch.
 */
export function BookingReadiness({
  bookingId,
  tripId,
  school,
}: {
  bookingId: number;
  tripId: number;
  /** a school trip: the parent's consent is one of the checks */
  school: boolean;
}) {
  const readiness = useBookingReadiness(bookingId);
  const checks = READINESS_CHECKS.filter((c) => school || !SCHOOL_ONLY_CHECKS.includes(c));
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
          {checks.map((c) => (
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
            {checks.map((c) => (
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
      <Stack gap={6} mt="sm">
        {r?.last_chaser && (
          <Text size="sm" c="dimmed">
            Last chased about the{' '}
            {READINESS_CHECK_LABELS[r.last_chaser.check as keyof typeof READINESS_CHECK_LABELS]?.toLowerCase() ??
              r.last_chaser.check}{' '}
            on {formatShortDate(r.last_chaser.sent_on)}.
          </Text>
        )}
        <RemindersSwitch
          kind="chasers"
          scope="booking"
          off={r?.chasers_off}
          reason={r?.chasers_off_reason}
          save={(v) => setChasers(bookingId, v)}
          invalidate={[bookingKeys.one(bookingId)]}
        />
      </Stack>
    </Paper>
  );
}
