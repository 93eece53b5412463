import { Anchor, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { RefundOwed, RefundsOwed } from '../../../contract/changes.ts';
import { path } from '../../../contract/paths.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { api } from '../../lib/api.ts';
import { formatMoney, formatShortDate } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';

type Show = 'open' | 'overdue' | 'settled';
const SHOWN: Array<{ value: Show; label: string }> = [
  { value: 'open', label: 'Open' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'settled', label: 'Settled' },
];

function daysLeft(r: RefundOwed) {
  if (r.state === 'settled')
    return <Text size="sm">Settled {r.settled_at ? formatShortDate(r.settled_at.slice(0, 10)) : ''}</Text>;
  if (r.days_left < 0)
    return (
      <Text size="sm" c="red.8" fw={700}>
        {-r.days_left} day{r.days_left === -1 ? '' : 's'} late
      </Text>
    );
  return (
    <Text size="sm" c={r.days_left <= 3 ? 'orange.9' : undefined} fw={r.days_left <= 3 ? 700 : undefined}>
      {r.days_left === 0 ? 'Due today' : `${r.days_left} day${r.days_left === 1 ? '' : 's'} left`}
    </Text>
  );
}

/** the columns; the booking a link only for a team that may read bookings */
const columnsFor = (canOpenBooking: boolean): Array<Column<RefundOwed>> => [
  {
    key: 'booking',
    label: 'Booking',
    cell: (r) =>
      canOpenBooking ? (
        <Anchor component={Link} to={path('booking-view', { id: r.booking_id })} size="sm">
          {r.booking_ref}
        </Anchor>
      ) : (
        r.booking_ref
      ),
  },
  { key: 'traveller', label: 'Traveller', cell: (r) => r.traveller },
  { key: 'trip', label: 'Trip', cell: (r) => r.trip_name },
  { key: 'amount', label: 'Owed back', align: 'right', cell: (r) => formatMoney(r.amount) },
  { key: 'due', label: 'Due by', cell: (r) => formatShortDate(r.due_on) },
  { key: 'left', label: 'Days left', cell: daysLeft },
  { key: 'reason', label: 'Why', cell: (r) => <Text size="sm">{r.reason}</Text> },
];

/**
 * What the office owes travellers back (a cancellation that kept less than was paid), each due by law
 * within 14 days: the days left, and the late ones in red. Recording the refund on the booking settles it.
 */
export function RefundsOwedTab() {
  const may = useCan();
  const [show, setShow] = useState<Show>('open');
  const query = show === 'overdue' ? { overdue: '1' } : { state: show };
  const list = useQuery({
    queryKey: ['money-due', 'refunds-owed', show],
    queryFn: () => api<RefundsOwed>('/api/refunds-owed', { query }),
  });
  const data = list.data;
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Refunds owed</Title>
          <Text c="dimmed" size="sm">
            Money owed back to travellers after a cancellation, due within 14 days. Record the refund on the booking
            (any way it was paid) and it is settled here.
          </Text>
        </div>
        <SegmentedControl aria-label="Show" value={show} onChange={(v) => setShow(v as Show)} data={SHOWN} />
      </Group>
      {data && (
        <Text size="sm" role="status">
          {formatMoney(data.total_open)} owed in all{data.overdue > 0 ? `, ${data.overdue} late` : ''}.
        </Text>
      )}
      <DataTable
        columns={columnsFor(may('bookings', 'read'))}
        data={data?.data}
        rowKey={(r) => r.id}
        isPending={list.isPending}
        isFetching={list.isFetching}
        error={list.isError ? 'The refunds owed could not be loaded. Please refresh the page and try again.' : null}
        empty={show === 'settled' ? 'No refund owed has been settled yet.' : 'No refunds are owed.'}
        rowProps={(r) => (r.overdue ? { 'data-overdue': true } : {})}
      />
    </Stack>
  );
}
