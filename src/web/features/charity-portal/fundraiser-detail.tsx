import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { PortalFundraiser } from '../../../contract/fundraising.ts';
import { DataTable } from '../../components/data-table.tsx';
import { entryColumns, standingText } from '../../components/fundraising.tsx';
import { formatDateTime, formatMoney, formatShortDate } from '../../lib/format.ts';
import { usePortalFundraiser } from './api.ts';

type Entry = PortalFundraiser['entries'][number];

/**
 * One fundraiser, opened under its row: how they stand against the milestones, the amounts
 * recorded (struck-out ones shown struck), the notes your charity sent the office, and the
 * buttons to record an amount or send a note.
 */
export function FundraiserDetail({
  bookingId,
  onEntry,
  onNote,
}: {
  bookingId: number;
  onEntry: () => void;
  onNote: () => void;
}) {
  const query = usePortalFundraiser(bookingId);
  const f = query.data;
  if (query.isPending) return <Skeleton height={120} />;
  if (!f) {
    return (
      <Text size="sm" c="red.9" role="alert">
        The fundraiser could not be loaded. Please refresh the page and try again.
      </Text>
    );
  }
  const columns = entryColumns<Entry>();
  return (
    <Stack gap="sm" p="xs" aria-label={`Details of ${f.traveller}`} component="section">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Text size="sm" fw={600} data-testid="portal-standing">
            {standingText(f)}
          </Text>
          <Text size="sm" c="dimmed">
            Milestones:{' '}
            {f.milestones.length
              ? f.milestones
                  .map((m) => `${m.percent}% (${formatMoney(m.amount)}) by ${formatShortDate(m.due)}`)
                  .join('; ')
              : 'none'}
            .
            {f.acknowledged_at
              ? ` Acknowledged by ${f.acknowledged_by ?? 'your charity'} on ${formatShortDate(f.acknowledged_at)}.`
              : ' Not acknowledged yet.'}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button size="xs" onClick={onEntry}>
            Record amount raised…
          </Button>
          <Button size="xs" variant="default" onClick={onNote}>
            Send a note to the office…
          </Button>
        </Group>
      </Group>
      <Stack gap="md">
        <div>
          <Title order={3} size="h6" mb={4}>
            Amounts raised
          </Title>
          <DataTable
            columns={columns}
            data={f.entries}
            rowKey={(e) => e.id}
            empty="No amount has been recorded yet."
            caption={`Amounts raised by ${f.traveller}; a struck-out one is no longer counted`}
            tableProps={{ verticalSpacing: 4 }}
          />
        </div>
        <div>
          <Title order={3} size="h6" mb={4}>
            Your notes to the office
          </Title>
          {f.notes.length === 0 ? (
            <Text size="sm" c="dimmed">
              None sent yet.
            </Text>
          ) : (
            <Stack gap="xs">
              {f.notes.map((n) => (
                <Paper key={n.id} withBorder p="xs" radius="sm">
                  <Text size="xs" c="dimmed">
                    {n.author ?? 'Someone since removed'}, {formatDateTime(n.created_at)}
                  </Text>
                  {/* sanitised on the server when saved, as every booking note */}
                  <Text size="sm" component="div" dangerouslySetInnerHTML={{ __html: n.html }} />
                </Paper>
              ))}
            </Stack>
          )}
        </div>
      </Stack>
    </Stack>
  );
}
