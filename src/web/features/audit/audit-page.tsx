import {
  Anchor,
  Button,
  Grid,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AuditEventReply, AuditPage } from '../../../contract/audit.ts';
import { AUDIT_SOURCES } from '../../../contract/constants.ts';
import { path } from '../../../contract/paths.ts';
import { DateField } from '../../components/date-field.tsx';
import { ChangesTable } from '../../components/history-panel.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';

const FILTERS = ['actor', 'action', 'booking_ref', 'source', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];

const SOURCE_OPTIONS = [
  { value: '', label: 'Any source' },
  ...AUDIT_SOURCES.map((s) => ({ value: s, label: s === 'api' ? 'API' : s[0]!.toUpperCase() + s.slice(1) })),
];

/** /audit: every event of the office's history, filtered; the filters live in the URL so a view can be shared. */
export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const may = useCan();
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const query: Record<string, string | number> = { page };
  for (const f of FILTERS) {
    const v = params.get(f);
    if (v) query[f] = v;
  }
  const events = useQuery({
    queryKey: ['audit', query],
    queryFn: () => api<AuditPage>('/api/audit', { query }),
    placeholderData: keepPreviousData,
  });
  const [draft, setDraft] = useState<Record<Filter, string>>(
    () => Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Record<Filter, string>,
  );
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
  const columns: Array<Column<AuditEventReply>> = [
    {
      key: 'at',
      label: 'When',
      cell: (e) => formatDateTime(e.at),
      cellProps: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'what',
      label: 'What happened',
      cell: (e) => (
        <>
          <Text size="sm">{e.summary}</Text>
          <Group gap="xs">
            <Text size="xs" c="dimmed" ff="monospace">
              {e.action}
            </Text>
            {e.actor.team && (
              <Text size="xs" c="dimmed">
                team {e.actor.team}
              </Text>
            )}
            {e.changes && (
              <UnstyledButton
                fz="xs"
                c="blue.8"
                td="underline"
                aria-expanded={open === e.id}
                onClick={() => setOpen(open === e.id ? null : e.id)}
              >
                {open === e.id ? 'Hide changes' : 'Show changes'}
              </UnstyledButton>
            )}
          </Group>
          {open === e.id && e.changes && <ChangesTable changes={e.changes} />}
        </>
      ),
    },
    {
      key: 'source',
      label: 'Source',
      cell: (e) => (e.source === 'api' ? 'API' : e.source[0]!.toUpperCase() + e.source.slice(1)),
    },
    { key: 'ip', label: 'IP Address', cell: (e) => e.ip_address ?? '' },
    {
      key: 'booking',
      label: 'Booking',
      // its View link opens the booking: only for a team that may read bookings
      hidden: !may('bookings', 'read'),
      cell: (e) =>
        e.booking_id !== null && (
          <Anchor
            component={Link}
            to={path('booking-view', { id: e.booking_id })}
            size="sm"
            aria-label={`View booking ${e.booking_id}`}
          >
            View
          </Anchor>
        ),
    },
  ];
  const set = (f: Filter, value: string) => setDraft((d) => ({ ...d, [f]: value }));
  // the value is read now: the event's currentTarget is gone by the time React runs the updater
  const field = (f: Filter) => ({
    value: draft[f],
    onChange: (e: { currentTarget: { value: string } }) => set(f, e.currentTarget.value),
  });
  const fieldErrors = events.error instanceof ApiError ? events.error.errors : undefined;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>History</Title>
        <Button
          component="a"
          variant="default"
          href={`/audit/export?${new URLSearchParams(
            Object.entries(query)
              .filter(([k]) => k !== 'page')
              .map(([k, v]) => [k, String(v)]),
          )}`}
          download
        >
          Download
        </Button>
      </Group>
      <Paper
        withBorder
        p="md"
        radius="md"
        component="form"
        role="search"
        aria-label="Filter the history"
        onSubmit={apply}
        noValidate
      >
        <Grid align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 2.5 }}>
            <TextInput label="Who" placeholder="Name or email" {...field('actor')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2.5 }}>
            <TextInput
              label="Action"
              placeholder="booking. or invoice.sent"
              description="End with a dot for every action of a kind"
              {...field('action')}
              error={fieldErrors?.action?.[0]}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 1.5 }}>
            <TextInput label="Booking Ref" placeholder="TD-…" {...field('booking_ref')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4, lg: 1.5 }}>
            <NativeSelect label="Source" data={SOURCE_OPTIONS} {...field('source')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4, lg: 2 }}>
            <DateField
              label="From"
              placeholder="Any date"
              clearable
              value={draft.from || null}
              onChange={(v) => set('from', v ?? '')}
              error={fieldErrors?.from?.[0]}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4, lg: 2 }}>
            <DateField
              label="To"
              placeholder="Any date"
              clearable
              value={draft.to || null}
              onChange={(v) => set('to', v ?? '')}
              error={fieldErrors?.to?.[0]}
            />
          </Grid.Col>
        </Grid>
        <Group justify="flex-end" gap="xs" mt="sm">
          <Button variant="default" onClick={reset}>
            Reset
          </Button>
          <Button type="submit">Search</Button>
        </Group>
      </Paper>

      <DataTable
        columns={columns}
        query={events}
        rowKey={(e) => e.id}
        // a filter the server cannot read says why (422); anything else, the screen's words
        error={events.error instanceof ApiError && events.error.status === 422 ? events.error.message : null}
        failed="The history could not be loaded. Please refresh the page and try again."
        empty="No events match these filters."
        page={page}
        onPage={goTo}
        noun="events"
        totalIsEstimate={events.data?.total_is_estimate}
        tableProps={{ verticalSpacing: 'xs', highlightOnHover: false }}
      />
    </Stack>
  );
}
