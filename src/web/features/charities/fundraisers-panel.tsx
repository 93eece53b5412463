import { Anchor, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { FUNDRAISING_STATE_LABELS } from '../../../contract/fundraising-constants.ts';
import type { Fundraiser } from '../../../contract/fundraising.ts';
import { path } from '../../../contract/paths.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { fundraiserColumns, fundraisersPage } from '../../components/fundraising.tsx';
import { formatMoney, formatShortDate } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { useCharityFundraisers } from './api/charities.ts';

const STATES = [
  { value: '', label: 'Any state' },
  ...(['on_track', 'behind', 'met'] as const).map((s) => ({ value: s, label: FUNDRAISING_STATE_LABELS[s] })),
];

/**
 * The charity page's fundraisers: its travellers who fundraise for it, each with their
 * target, what they have raised and how they stand; the totals; and the charity's portal users.
 */
export function FundraisersPanel({ charityId }: { charityId: number }) {
  const may = useCan();
  const [state, setState] = useState('');
  const [page, setPage] = useState(1);
  const query = useCharityFundraisers(charityId, state, page);
  const data = query.data;
  const columns: Array<Column<Fundraiser>> = [
    // the booking opens for a member who may read bookings
    ...fundraiserColumns((f) =>
      may('bookings', 'read') ? (
        <Anchor component={Link} to={path('booking-view', { id: f.booking_id })} size="sm" fw={600}>
          {f.traveller}
        </Anchor>
      ) : (
        <Text size="sm" fw={600}>
          {f.traveller}
        </Text>
      ),
    ),
    {
      key: 'ack',
      label: 'Acknowledged',
      cell: (f) =>
        f.acknowledged_at ? (
          formatShortDate(f.acknowledged_at)
        ) : (
          <Text size="sm" c="dimmed">
            Not yet
          </Text>
        ),
    },
  ];
  const totals = data?.totals;
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="charity-fundraisers">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <Title order={2} size="h4" id="charity-fundraisers">
            Fundraisers
          </Title>
          <NativeSelect
            label="State"
            data={STATES}
            value={state}
            onChange={(e) => {
              setState(e.currentTarget.value);
              setPage(1);
            }}
            w={170}
          />
        </Group>
        {totals && (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" aria-label="Totals" component="section">
            <Total label="Fundraisers" value={String(totals.fundraisers)} />
            <Total label="Raised" value={formatMoney(totals.raised)} />
            <Total label="Pledged" value={formatMoney(totals.pledged)} />
            <Total label={`Short (${totals.behind} behind)`} value={formatMoney(totals.shortfall)} />
          </SimpleGrid>
        )}
        <DataTable
          columns={columns}
          query={{
            data: fundraisersPage(data),
            isPending: query.isPending,
            isFetching: query.isFetching,
            isError: query.isError,
          }}
          page={page}
          onPage={setPage}
          noun="fundraisers"
          rowKey={(f) => f.booking_id}
          failed="The fundraisers could not be loaded. Please refresh the page and try again."
          empty={state ? 'No fundraiser is in this state.' : 'No traveller fundraises for this charity yet.'}
          caption="Each traveller fundraising for this charity, with their target and what they have raised"
        />
        <div>
          <Text size="sm" fw={600}>
            Portal users
          </Text>
          <Text size="sm" c={data?.portal_users.length ? undefined : 'dimmed'}>
            {data?.portal_users.length
              ? data.portal_users.map((u) => `${u.name} (${u.email})`).join(', ')
              : 'None: link a user of the Charity role to this charity on their user page.'}
          </Text>
        </div>
      </Stack>
    </Paper>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="xs">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fw={700}>{value}</Text>
    </Paper>
  );
}
