import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AuditEventReply, AuditPage } from '../../contract/audit.ts';
import { api } from '../lib/api.ts';
import { formatDateTime } from '../lib/format.ts';
import { Pagination } from './pagination.tsx';

const SOURCE_LABELS: Record<AuditEventReply['source'], string> = {
  web: 'Web',
  api: 'API',
  system: 'System',
  webhook: 'Webhook',
  portal: 'Traveller’s pages',
  online: 'Online booking',
};

const shown = (v: unknown) =>
  v === null || v === undefined || v === '' ? '—' : typeof v === 'string' ? v : JSON.stringify(v);

/** The field-by-field changes of one event, shown on demand. */
export function ChangesTable({ changes }: { changes: NonNullable<AuditEventReply['changes']> }) {
  return (
    <Table withTableBorder fz="xs" mt={4} maw={720}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {Object.entries(changes).map(([field, [before, after]]) => (
          <Table.Tr key={field}>
            <Table.Td>{field.replaceAll('_', ' ')}</Table.Td>
            <Table.Td>{shown(before)}</Table.Td>
            <Table.Td>{shown(after)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One event as a sentence, with who/when/how beneath and its changes on demand. */
export function HistoryEntry({ event }: { event: AuditEventReply }) {
  const [open, setOpen] = useState(false);
  const changes = event.changes && Object.keys(event.changes).length ? event.changes : null;
  return (
    <Paper component="li" withBorder p="xs" radius="sm" data-testid="history-entry">
      <Text size="sm">{event.summary}</Text>
      <Group gap="xs" mt={2}>
        <Text size="xs" c="dimmed">
          {formatDateTime(event.at)}
          {event.actor.team && ` · team ${event.actor.team}`}
          {event.ip_address && ` · IP ${event.ip_address}`}
        </Text>
        <Badge
          size="xs"
          variant="light"
          color={event.source === 'system' ? 'grape' : event.source === 'api' ? 'orange' : 'gray'}
        >
          {SOURCE_LABELS[event.source]}
        </Badge>
        {changes && (
          <UnstyledButton fz="xs" c="blue.8" td="underline" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? 'Hide changes' : 'Show changes'}
          </UnstyledButton>
        )}
      </Group>
      {open && changes && <ChangesTable changes={changes} />}
    </Paper>
  );
}

/** The key of a record's history (every page of it), under the record's own query key. */
export const historyKey = (owner: readonly unknown[]) => [...owner, 'history'] as const;

/** The history of a booking or a trip: newest first, 25 to a page. */
export function HistoryPanel({
  url,
  queryKey,
  title = 'History',
}: {
  url: string;
  queryKey: readonly unknown[];
  title?: string;
}) {
  const [page, setPage] = useState(1);
  const history = useQuery({
    queryKey: [...historyKey(queryKey), page],
    queryFn: () => api<AuditPage>(url, { query: { page } }),
    placeholderData: keepPreviousData,
  });
  const headingId = `history-heading-${url.replace(/\W+/g, '-')}`;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        <Button variant="default" size="xs" onClick={() => void history.refetch()} loading={history.isFetching}>
          Refresh
        </Button>
      </Group>
      {history.isPending ? (
        <Text size="sm" c="dimmed">
          Loading the history…
        </Text>
      ) : history.isError ? (
        <Alert color="red" role="alert">
          The history could not be loaded. Please refresh the page and try again.
        </Alert>
      ) : history.data.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing has been recorded yet.
        </Text>
      ) : (
        <>
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {history.data.data.map((e) => (
              <HistoryEntry key={e.id} event={e} />
            ))}
          </Stack>
          <Pagination
            page={page}
            lastPage={history.data.last_page}
            onChange={setPage}
            from={history.data.from}
            to={history.data.to}
            total={history.data.total}
            totalIsEstimate={history.data.total_is_estimate}
            noun="events"
          />
        </>
      )}
    </Paper>
  );
}
