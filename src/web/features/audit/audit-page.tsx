import { Alert, Anchor, Button, Grid, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fragment, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AUDIT_SOURCES, type AuditEventReply } from '../../../contract/audit.ts';
import type { Paged } from '../../../contract/common.ts';
import { path } from '../../../contract/paths.ts';
import { DateField } from '../../components/date-field.tsx';
import { ChangesTable } from '../../components/history-panel.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';

const FILTERS = ['actor', 'action', 'booking_ref', 'source', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];

const SOURCE_OPTIONS = [{ value: '', label: 'Any source' }, ...AUDIT_SOURCES.map((s) => ({ value: s, label: s === 'api' ? 'API' : s[0]!.toUpperCase() + s.slice(1) }))];

/** /audit: every event of the office's history, filtered; the filters live in the URL so a view can be shared. */
export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const query: Record<string, string | number> = { page };
  for (const f of FILTERS) {
    const v = params.get(f);
    if (v) query[f] = v;
  }
  const events = useQuery({
    queryKey: ['audit', query],
    queryFn: () => api<Paged<AuditEventReply>>('/api/audit', { query }),
    placeholderData: keepPreviousData,
  });
  const [draft, setDraft] = useState<Record<Filter, string>>(() => Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Record<Filter, string>);
  const [open, setOpen] = useState<number | null>(null);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const f of FILTERS) if (draft[f].trim()) next.set(f, draft[f].trim());
    setParams(next);
  };
  const reset = () => {
    setDraft(Object.fromEntries(FILTERS.map((f) => [f, ''])) as Record<Filter, string>);
    setParams(new URLSearchParams());
  };
  const goTo = (p: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(p));
    setParams(next);
  };
  const field = (f: Filter) => ({ value: draft[f], onChange: (e: { currentTarget: { value: string } }) => setDraft((d) => ({ ...d, [f]: e.currentTarget.value })) });
  const fieldErrors = events.error instanceof ApiError ? events.error.errors : undefined;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>History</Title>
        <Button component="a" variant="default" href={`/audit/export?${new URLSearchParams(Object.entries(query).filter(([k]) => k !== 'page').map(([k, v]) => [k, String(v)]))}`} download>
          Download
        </Button>
      </Group>
      <Paper withBorder p="md" radius="md" component="form" role="search" aria-label="Filter the history" onSubmit={apply} noValidate>
        <Grid align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 2.5 }}>
            <TextInput label="Who" placeholder="Name or email" {...field('actor')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2.5 }}>
            <TextInput label="Action" placeholder="booking. or invoice.sent" description="End with a dot for every action of a kind" {...field('action')} error={fieldErrors?.action?.[0]} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 1.5 }}>
            <TextInput label="Booking Ref" placeholder="TD-…" {...field('booking_ref')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4, lg: 1.5 }}>
            <NativeSelect label="Source" data={SOURCE_OPTIONS} {...field('source')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4, lg: 2 }}>
            <DateField label="From" placeholder="Any date" clearable value={draft.from || null} onChange={(v) => setDraft((d) => ({ ...d, from: v ?? '' }))} error={fieldErrors?.from?.[0]} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4, lg: 2 }}>
            <DateField label="To" placeholder="Any date" clearable value={draft.to || null} onChange={(v) => setDraft((d) => ({ ...d, to: v ?? '' }))} error={fieldErrors?.to?.[0]} />
          </Grid.Col>
        </Grid>
        <Group justify="flex-end" gap="xs" mt="sm">
          <Button variant="default" onClick={reset}>
            Reset
          </Button>
          <Button type="submit">Search</Button>
        </Group>
      </Paper>

      {events.isError && (
        <Alert color="red" role="alert">
          {events.error instanceof ApiError && events.error.status === 422 ? events.error.message : 'The history could not be loaded. Please refresh the page and try again.'}
        </Alert>
      )}
      {events.isPending && <Text c="dimmed">Loading the history…</Text>}
      {events.data && (
        <>
          <Table.ScrollContainer minWidth={900}>
            <Table striped verticalSpacing="xs" aria-busy={events.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>What happened</Table.Th>
                  <Table.Th>Source</Table.Th>
                  <Table.Th>IP Address</Table.Th>
                  <Table.Th>Booking</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {events.data.data.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <Text c="dimmed" size="sm">No events match these filters.</Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {events.data.data.map((e) => (
                  <Fragment key={e.id}>
                    <Table.Tr>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{e.summary}</Text>
                        <Group gap="xs">
                          <Text size="xs" c="dimmed" ff="monospace">
                            {e.action}
                          </Text>
                          {e.changes && (
                            <UnstyledButton fz="xs" c="blue.8" td="underline" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                              {open === e.id ? 'Hide changes' : 'Show changes'}
                            </UnstyledButton>
                          )}
                        </Group>
                        {open === e.id && e.changes && <ChangesTable changes={e.changes} />}
                      </Table.Td>
                      <Table.Td>{e.source === 'api' ? 'API' : e.source[0]!.toUpperCase() + e.source.slice(1)}</Table.Td>
                      <Table.Td>{e.ip_address ?? ''}</Table.Td>
                      <Table.Td>
                        {e.booking_id !== null && (
                          <Anchor component={Link} to={path('booking-view', { id: e.booking_id })} size="sm" aria-label={`View booking ${e.booking_id}`}>
                            View
                          </Anchor>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pagination page={page} lastPage={events.data.last_page} onChange={goTo} from={events.data.from} to={events.data.to} total={events.data.total} noun="events" />
        </>
      )}
    </Stack>
  );
}
