import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { BulkReminderResult } from '../../../contract/email-templates.ts';
import type { MoneyDuePage, MoneyDueQuery, MoneyDueRow } from '../../../contract/money-due.ts';
import { path } from '../../../contract/paths.ts';
import { TRIP_TYPE_LABELS, TRIP_TYPES } from '../../../contract/trip-constants.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { lazyComponent } from '../../components/lazy.tsx';
import { formatDateTime, formatMoney, formatShortDate } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { moneyDueKeys, sendReminders, useMoneyDue, useRefundsDue, useTripOptions } from './api/money-due.ts';
import {
  AGE_BUCKET_LABELS,
  AGE_BUCKETS,
  DUE_WITHIN_MAX,
  MONEY_DUE_SORTS,
  type MoneyDueSort,
} from '../../../contract/money-due-constants.ts';

// the refunds owed tab loads when it is opened
const RefundsOwedTab = lazyComponent(() => import('./refunds-owed-tab.tsx').then((m) => m.RefundsOwedTab));

const FAILED = 'The money due could not be loaded. Please refresh the page and try again.';
// the biggest debts and the longest overdue first; names and dates A→Z / soonest first
const DESC_FIRST: MoneyDueSort[] = ['outstanding', 'days_overdue', 'last_reminder'];
const TYPE_OPTIONS = [
  { value: '', label: 'Any type' },
  ...TRIP_TYPES.map((t) => ({ value: t, label: TRIP_TYPE_LABELS[t] })),
];

const rowKey = (r: MoneyDueRow) => `${r.kind}-${r.id}`;

/** The filters, sort and page of the URL, as the API takes them (anything unreadable is left out). */
function readQuery(params: URLSearchParams): MoneyDueQuery & { sort: MoneyDueSort; dir: 'asc' | 'desc'; page: number } {
  const q: MoneyDueQuery & { sort: MoneyDueSort; dir: 'asc' | 'desc'; page: number } = {
    page: Math.max(1, Number(params.get('page')) || 1),
    sort: (MONEY_DUE_SORTS as readonly string[]).includes(params.get('sort') ?? '')
      ? (params.get('sort') as MoneyDueSort)
      : 'due_date',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
  };
  const trip = Number(params.get('trip_id'));
  if (Number.isInteger(trip) && trip > 0) q.trip_id = trip;
  const type = params.get('trip_type');
  if (type && (TRIP_TYPES as readonly string[]).includes(type)) q.trip_type = type as (typeof TRIP_TYPES)[number];
  if (params.get('overdue') === '1') q.overdue = '1';
  // from the dashboard: a season of departures
  for (const key of ['departure_from', 'departure_to'] as const) {
    const day = params.get(key);
    if (day && /^\d{4}-\d{2}-\d{2}$/.test(day)) q[key] = day;
  }
  const within = params.get('due_within');
  if (within !== null && isDays(within)) q.due_within = Number(within);
  return q;
}

const isDays = (text: string) => /^\d{1,4}$/.test(text.trim()) && Number(text) <= DUE_WITHIN_MAX;

function BucketCards({ page, loading }: { page: MoneyDuePage | undefined; loading: boolean }) {
  const card = (key: string, label: string, amount: number | undefined, strong?: boolean) => (
    <Paper key={key} withBorder radius="md" p="sm" bg={strong ? 'blue.0' : undefined} data-testid={`bucket-${key}`}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lh={1.3}>
        {label}
      </Text>
      {loading || amount === undefined ? (
        <Skeleton height={24} mt={6} width="60%" />
      ) : (
        <Text
          fz={strong ? 22 : 20}
          fw={700}
          mt={4}
          c={!strong && key !== 'not_due' && amount > 0 ? 'red.9' : undefined}
        >
          {formatMoney(amount)}
        </Text>
      )}
    </Paper>
  );
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" component="section" aria-label="Totals by how overdue">
      {AGE_BUCKETS.map((b) => card(b, AGE_BUCKET_LABELS[b], page?.buckets[b]))}
      {card('total', 'Total outstanding', page?.total_outstanding, true)}
    </SimpleGrid>
  );
}

/** The xlsx of the list as filtered and sorted (every page). */
function exportHref(query: MoneyDueQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (key !== 'page' && value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return `/api/money-due/export${text ? `?${text}` : ''}`;
}

/** /money: money due (the default) and the refunds the office owes travellers (?tab=refunds). */
export default function MoneyDuePage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'refunds' ? 'refunds' : 'due';
  return (
    <Stack>
      <Tabs value={tab} onChange={(v) => setParams(v === 'refunds' ? { tab: 'refunds' } : {})}>
        <Tabs.List>
          <Tabs.Tab value="due">Money due</Tabs.Tab>
          <Tabs.Tab value="refunds">Refunds owed</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'refunds' ? <RefundsOwedTab /> : <MoneyDueList />}
    </Stack>
  );
}

/** Who owes us what — every unpaid invoice and instalment not yet invoiced, with reminders sent from the list. */
function MoneyDueList() {
  const [params, setParams] = useSearchParams();
  const may = useCan();
  // reminders are sent with finance change; the trip filter lists trips (trips read); rows open bookings (bookings read)
  const canSend = may('finance');
  const canPickTrip = may('trips', 'read');
  const canOpenBooking = may('bookings', 'read');
  const query = readQuery(params);
  const list = useMoneyDue(query);
  const trips = useTripOptions(canPickTrip);
  const data = list.data;
  const queryText = JSON.stringify(query);

  // "Due within" is typed: the URL takes it once it is a number of days
  const [within, setWithin] = useState(params.get('due_within') ?? '');
  const withinError =
    within.trim() !== '' && !isDays(within) ? `Type a whole number of days from 0 to ${DUE_WITHIN_MAX}.` : undefined;

  // ticked rows, by row; a new filter, sort or page starts afresh
  const [tickedFor, setTickedFor] = useState<{ query: string; rows: Map<string, number> }>({
    query: queryText,
    rows: new Map(),
  });
  const ticked = tickedFor.query === queryText ? tickedFor.rows : new Map<string, number>();
  const setTicked = (change: (t: Map<string, number>) => Map<string, number>) =>
    setTickedFor({ query: queryText, rows: change(ticked) });
  const [result, setResult] = useState<BulkReminderResult | null>(null);

  const update = (changes: Record<string, string | null>, keepPage = false) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!keepPage) next.delete('page');
    setParams(next);
  };
  useEffect(() => {
    const current = params.get('due_within') ?? '';
    const wanted = isDays(within) ? String(Number(within)) : within.trim() === '' ? '' : current;
    if (wanted === current) return;
    const timer = setTimeout(() => update({ due_within: wanted || null }), 400);
    return () => clearTimeout(timer);
  });

  const sort = (field: string) => {
    const f = field as MoneyDueSort;
    const dir = query.sort === f ? (query.dir === 'asc' ? 'desc' : 'asc') : DESC_FIRST.includes(f) ? 'desc' : 'asc';
    update({ sort: f, dir });
  };

  const sending = useFormMutation({
    mutationFn: sendReminders,
    invalidate: [moneyDueKeys.all],
    fallback: 'Sorry, the reminders could not be sent. Please try again.',
    onSuccess: (res) => {
      setResult(res);
      setTicked(() => new Map());
    },
  });
  const bookingIds = [...new Set(ticked.values())];
  const send = () => {
    setResult(null);
    void sending.submit(bookingIds);
  };

  const rows = data?.data ?? [];
  const allTicked = rows.length > 0 && rows.every((r) => ticked.has(rowKey(r)));
  const someTicked = rows.some((r) => ticked.has(rowKey(r)));
  const tick = (r: MoneyDueRow, on: boolean) =>
    setTicked((t) => {
      const next = new Map(t);
      if (on) next.set(rowKey(r), r.booking_id);
      else next.delete(rowKey(r));
      return next;
    });
  const tickAll = (on: boolean) =>
    setTicked(() => (on ? new Map(rows.map((r) => [rowKey(r), r.booking_id])) : new Map()));

  const filtered = Boolean(query.trip_id || query.trip_type || query.overdue || query.due_within !== undefined);

  const columns: Array<Column<MoneyDueRow>> = [
    {
      key: 'tick',
      label: (
        <Checkbox
          aria-label="Select all on this page"
          checked={allTicked}
          indeterminate={someTicked && !allTicked}
          disabled={rows.length === 0}
          onChange={(e) => tickAll(e.currentTarget.checked)}
        />
      ),
      cell: (r) => (
        <Checkbox
          aria-label={`Select ${r.traveller}: ${r.label}${r.invoice_ref ? ` ${r.invoice_ref}` : ''}`}
          checked={ticked.has(rowKey(r))}
          onChange={(e) => tick(r, e.currentTarget.checked)}
        />
      ),
      cellProps: () => ({ w: 40 }),
      // without finance change there is nothing to tick rows for
      hidden: !canSend,
    },
    {
      key: 'traveller',
      label: 'Traveller',
      sort: 'traveller',
      cell: (r) => (
        <>
          {canOpenBooking ? (
            <Anchor
              component={Link}
              to={path('booking-view', { id: r.booking_id })}
              size="sm"
              fw={500}
              style={{ whiteSpace: 'nowrap' }}
            >
              {r.traveller}
            </Anchor>
          ) : (
            <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
              {r.traveller}
            </Text>
          )}
          <Text size="xs" c="gray.7" ff="monospace">
            {r.booking_ref}
          </Text>
        </>
      ),
    },
    {
      key: 'trip',
      label: 'Trip',
      sort: 'trip',
      cell: (r) => (
        <>
          <Text size="sm">{r.trip_name}</Text>
          <Text size="xs" c="gray.7">
            {TRIP_TYPE_LABELS[r.trip_type]}
          </Text>
        </>
      ),
    },
    {
      key: 'departure',
      label: 'Departure',
      sort: 'departure',
      cell: (r) => formatShortDate(r.departure),
      cellProps: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'due',
      label: 'Due',
      sort: 'due_date',
      cell: (r) => formatShortDate(r.due_date),
      cellProps: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'overdue',
      label: 'Days overdue',
      sort: 'days_overdue',
      align: 'right',
      cell: (r) =>
        r.days_overdue > 0 ? (
          <Text span size="sm" fw={600} c={r.days_overdue > 30 ? 'red.9' : 'gray.9'}>
            {r.days_overdue}
          </Text>
        ) : (
          <Text span size="sm" c="gray.7">
            Not yet due
          </Text>
        ),
      cellProps: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'what',
      label: 'What',
      cell: (r) => (
        <>
          <Text size="sm">{r.label}</Text>
          {r.invoice_id !== null && r.invoice_ref ? (
            <Anchor component={Link} to={path('invoice-view', { id: r.invoice_id })} size="xs" ff="monospace">
              {r.invoice_ref}
            </Anchor>
          ) : (
            <Text size="xs" c="gray.7">
              Not invoiced yet
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'outstanding',
      label: 'Outstanding',
      sort: 'outstanding',
      align: 'right',
      cell: (r) => formatMoney(r.outstanding),
      cellProps: () => ({ fw: 600, style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'reminder',
      label: 'Last reminder',
      sort: 'last_reminder',
      cell: (r) =>
        r.last_reminder_at ? (
          formatDateTime(r.last_reminder_at)
        ) : (
          <Text span size="sm" c="gray.7">
            None sent
          </Text>
        ),
      cellProps: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
  ];

  const tripOptions = [
    { value: '', label: 'Any trip' },
    ...(trips.data ?? []).map((t) => ({ value: String(t.id), label: t.name })),
  ];
  // a trip in the URL that the list does not hold yet still shows as chosen
  if (query.trip_id && !tripOptions.some((o) => o.value === String(query.trip_id)))
    tripOptions.push({ value: String(query.trip_id), label: trips.isPending ? 'Loading…' : `Trip ${query.trip_id}` });

  return (
    <Stack>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Title order={1}>Money due</Title>
          <Text c="dimmed" size="sm">
            Every unpaid or part-paid invoice, and every instalment not invoiced yet, of bookings that are not
            cancelled.
          </Text>
        </div>
        {/* every row of these filters, in this order: the browser downloads it (the session's cookie signs it in) */}
        <Button component="a" variant="default" href={exportHref(query)} download>
          Download (xlsx)
        </Button>
      </Group>

      <RefundsDueNotice canOpenBooking={canOpenBooking} />
      {list.isError ? null : <BucketCards page={data} loading={list.isPending} />}
      {(query.departure_from || query.departure_to) && (
        <Group gap="sm" role="status" aria-label="Further filters">
          <Text size="sm">
            Also filtered: trips departing{query.departure_from ? ` from ${formatShortDate(query.departure_from)}` : ''}
            {query.departure_to ? ` to ${formatShortDate(query.departure_to)}` : ''}.
          </Text>
          <Button size="xs" variant="default" onClick={() => update({ departure_from: null, departure_to: null })}>
            Clear this
          </Button>
        </Group>
      )}

      <Paper
        withBorder
        radius="md"
        p="sm"
        component="form"
        role="search"
        aria-label="Filters"
        onSubmit={(e) => e.preventDefault()}
      >
        <Group align="flex-end" gap="md">
          {canPickTrip && (
            <NativeSelect
              label="Trip"
              data={tripOptions}
              value={query.trip_id ? String(query.trip_id) : ''}
              onChange={(e) => update({ trip_id: e.currentTarget.value })}
              w={280}
            />
          )}
          <NativeSelect
            label="Trip type"
            data={TYPE_OPTIONS}
            value={query.trip_type ?? ''}
            onChange={(e) => update({ trip_type: e.currentTarget.value })}
            w={140}
          />
          <TextInput
            label="Due within"
            rightSection={
              <Text size="xs" c="dimmed">
                days
              </Text>
            }
            rightSectionWidth={44}
            inputMode="numeric"
            placeholder="Any time"
            value={within}
            error={withinError}
            onChange={(e) => setWithin(e.currentTarget.value)}
            w={140}
          />
          <Checkbox
            label="Overdue only"
            checked={query.overdue === '1'}
            onChange={(e) => update({ overdue: e.currentTarget.checked ? '1' : null })}
            mb={8}
          />
          {filtered && (
            <Button
              variant="subtle"
              onClick={() => {
                setWithin('');
                setParams(
                  new URLSearchParams(
                    query.sort !== 'due_date' || query.dir !== 'asc' ? { sort: query.sort, dir: query.dir } : {},
                  ),
                );
              }}
            >
              Clear filters
            </Button>
          )}
        </Group>
      </Paper>

      {canSend && rows.length > 0 && (
        <Group justify="space-between" align="center" mih={36}>
          <Text size="sm" c={ticked.size ? undefined : 'dimmed'} role="status">
            {ticked.size
              ? `${ticked.size} ${ticked.size === 1 ? 'row' : 'rows'} ticked (${bookingIds.length} ${bookingIds.length === 1 ? 'booking' : 'bookings'}).`
              : 'Tick rows to send their travellers a reminder now.'}
          </Text>
          <Button onClick={send} disabled={bookingIds.length === 0} loading={sending.isPending}>
            Send reminder now
          </Button>
        </Group>
      )}
      {sending.failure && (
        <Alert color="red" role="alert" withCloseButton onClose={sending.clearFailure}>
          {sending.failure}
        </Alert>
      )}
      {result && (
        <Alert
          color={result.failed.length || result.sent.length === 0 ? 'orange' : 'green'}
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setResult(null)}
        >
          {result.message}
        </Alert>
      )}

      <DataTable
        columns={columns}
        query={list}
        failed={FAILED}
        rowKey={rowKey}
        empty={filtered ? 'Nothing is owed for these filters.' : 'Nothing is owed.'}
        sort={{ field: query.sort, dir: query.dir }}
        onSort={sort}
        page={query.page}
        onPage={(p) => update({ page: String(p) }, true)}
        noun="amounts"
        rowProps={(r) =>
          ticked.has(rowKey(r)) ? { style: { boxShadow: 'inset 4px 0 0 var(--mantine-color-blue-7)' } } : {}
        }
      />
    </Stack>
  );
}

/** Invoices paid more than their total (a card payment made twice): shown only when there are any. */
function RefundsDueNotice({ canOpenBooking }: { canOpenBooking: boolean }) {
  const refunds = useRefundsDue();
  const rows = refunds.data?.data ?? [];
  if (!rows.length) return null;
  const total = refunds.data!.total;
  return (
    <Alert
      color="orange"
      variant="light"
      title={`Overpaid: ${total} refund${total === 1 ? '' : 's'} due`}
      styles={{ title: { color: '#7a3b00' } }}
    >
      <Text size="sm" mb={6}>
        These invoices have been paid more than their total. Refund the difference in Stripe&apos;s dashboard; Tripdesk
        records the refund when Stripe reports it.
      </Text>
      <Stack gap={2}>
        {rows.map((r) => (
          <Text size="sm" key={r.invoice_id}>
            {canOpenBooking ? (
              <Anchor component={Link} to={path('booking-view', { id: r.booking_id })}>
                {r.booking_ref}
              </Anchor>
            ) : (
              r.booking_ref
            )}{' '}
            {r.traveller}, invoice {r.invoice_ref}: {formatMoney(r.overpaid)} overpaid since {formatShortDate(r.since)}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
