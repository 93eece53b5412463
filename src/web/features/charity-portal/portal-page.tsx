import { Alert, Anchor, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { FUNDRAISING_STATE_LABELS } from '../../../contract/fundraising-constants.ts';
import type { Fundraiser } from '../../../contract/fundraising.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { lazyComponent } from '../../components/lazy.tsx';
import { fundraiserColumns, fundraisersPage } from '../../components/fundraising.tsx';
import { ApiError } from '../../lib/api.ts';
import { formatMoney, formatShortDate, plural } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useDialog } from '../../lib/use-dialog.ts';
import { acknowledge, downloadUrl, portalKeys, usePortalFundraisers, type PortalFilter } from './api.ts';

// a fundraiser's detail and its forms load when first opened
const FundraiserDetail = lazyComponent(() => import('./fundraiser-detail.tsx').then((m) => m.FundraiserDetail));
const EntryDialog = lazyComponent(() => import('./portal-dialogs.tsx').then((m) => m.EntryDialog));
const NoteDialog = lazyComponent(() => import('./portal-dialogs.tsx').then((m) => m.NoteDialog));

const STATES = [
  { value: '', label: 'Any state' },
  ...(['on_track', 'behind', 'met'] as const).map((s) => ({ value: s, label: FUNDRAISING_STATE_LABELS[s] })),
];

type Dialog = { kind: 'entry' | 'note'; fundraiser: Fundraiser };

/**
 * The charity portal (`/charity`): a Charity user's own charity's fundraisers, with
 * what each has raised against their target and how they stand, filtered by trip and state and
 * downloadable; each one can be acknowledged, given an amount the charity confirms, or a note
 * for the office. The server decides whose fundraisers these are, from the signed-in account.
 */
export default function CharityPortalPage() {
  const [params, setParams] = useSearchParams();
  const filter: PortalFilter = { trip_id: params.get('trip') ?? '', state: params.get('state') ?? '' };
  const page = Math.max(1, Number(params.get('page')) || 1);
  const setFilter = (key: 'trip' | 'state' | 'page', value: string) => {
    // from the address as it is now: two changes in a row must not undo each other
    const next = new URLSearchParams(window.location.search);
    if (value) next.set(key, value);
    else next.delete(key);
    // another trip or state starts from its first page
    if (key !== 'page') next.delete('page');
    setParams(next);
  };
  const query = usePortalFundraisers(filter, page);
  const data = query.data;
  const [openRow, setOpenRow] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { dialog, open, close } = useDialog<Dialog>(() => setNotice(null));
  const done = (text: string) => {
    close();
    setNotice(text);
  };
  const acknowledging = useFormMutation({
    mutationFn: (f: Fundraiser) => acknowledge(f.booking_id),
    invalidate: [portalKeys.all],
    fallback: 'Sorry, the fundraiser could not be acknowledged. Please try again.',
    onSuccess: (_, f) => setNotice(`${f.traveller} has been acknowledged.`),
  });

  if (query.error instanceof ApiError && query.error.status === 403) {
    return (
      <Paper withBorder p="xl" radius="md" maw={640}>
        <Stack>
          <Title order={1} size="h2">
            Fundraisers
          </Title>
          <Text>{query.error.message}</Text>
        </Stack>
      </Paper>
    );
  }

  const columns: Array<Column<Fundraiser>> = [
    ...fundraiserColumns((f) => (
      <Text size="sm" fw={600}>
        {f.traveller}
      </Text>
    )),
    {
      key: 'page',
      label: 'Page',
      cell: (f) =>
        f.page_url ? (
          <Anchor
            href={f.page_url}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            aria-label={`Fundraising page of ${f.traveller} (opens in a new tab)`}
          >
            Open page
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            None
          </Text>
        ),
    },
    {
      key: 'ack',
      label: 'Acknowledged',
      cell: (f) =>
        f.acknowledged_at ? (
          formatShortDate(f.acknowledged_at)
        ) : (
          <Button
            size="xs"
            variant="light"
            onClick={() => void acknowledging.submit(f)}
            aria-label={`Acknowledge ${f.traveller}`}
          >
            Acknowledge
          </Button>
        ),
    },
    {
      key: 'actions',
      label: 'Action',
      cell: (f) => (
        <Button
          size="xs"
          variant="default"
          aria-expanded={openRow === f.booking_id}
          aria-label={`${openRow === f.booking_id ? 'Hide' : 'Show'} the details of ${f.traveller}`}
          onClick={() => setOpenRow(openRow === f.booking_id ? null : f.booking_id)}
        >
          {openRow === f.booking_id ? 'Hide' : 'Details'}
        </Button>
      ),
    },
  ];

  const totals = data?.totals;
  const filtered = filter.trip_id !== '' || filter.state !== '';
  return (
    <Stack gap="md">
      <div>
        <Title order={1}>Fundraisers</Title>
        <Text c="dimmed">{data ? `The travellers fundraising for ${data.charity.name}` : ' '}</Text>
      </div>
      {notice && (
        <Alert color="green" withCloseButton onClose={() => setNotice(null)} closeButtonLabel="Dismiss" role="status">
          {notice}
        </Alert>
      )}
      {acknowledging.failure && (
        <Alert color="red" role="alert">
          {acknowledging.failure}
        </Alert>
      )}
      <Paper withBorder p="md" radius="md" component="section" aria-label="Filters">
        <Group align="flex-end" justify="space-between">
          <Group align="flex-end">
            <NativeSelect
              label="Trip"
              data={[
                { value: '', label: 'All trips' },
                ...(data?.trips ?? []).map((t) => ({
                  value: String(t.id),
                  label: `${t.name} (${formatShortDate(t.departure)})`,
                })),
              ]}
              value={filter.trip_id}
              onChange={(e) => setFilter('trip', e.currentTarget.value)}
              w={300}
            />
            <NativeSelect
              label="State"
              data={STATES}
              value={filter.state}
              onChange={(e) => setFilter('state', e.currentTarget.value)}
              w={170}
            />
          </Group>
          <Button component="a" href={downloadUrl(filter)} variant="default" download>
            Download .xlsx
          </Button>
        </Group>
      </Paper>
      {totals && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" aria-label="Totals" component="section">
          <Total label="Fundraisers" value={String(totals.fundraisers)} />
          <Total label="Raised" value={formatMoney(totals.raised)} />
          <Total label="Pledged" value={formatMoney(totals.pledged)} />
          <Total label={`Short (${plural(totals.behind, 'behind', 'behind')})`} value={formatMoney(totals.shortfall)} />
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
        onPage={(p) => setFilter('page', p > 1 ? String(p) : '')}
        noun="fundraisers"
        rowKey={(f) => f.booking_id}
        failed="The fundraisers could not be loaded. Please refresh the page and try again."
        empty={filtered ? 'No fundraiser matches these filters.' : 'No traveller fundraises for your charity yet.'}
        caption="Each traveller fundraising for your charity, with their target and what they have raised"
        rowDetail={(f) =>
          openRow === f.booking_id && (
            <FundraiserDetail
              bookingId={f.booking_id}
              onEntry={() => open({ kind: 'entry', fundraiser: f })}
              onNote={() => open({ kind: 'note', fundraiser: f })}
            />
          )
        }
      />
      {dialog?.kind === 'entry' && <EntryDialog fundraiser={dialog.fundraiser} onClose={close} onDone={done} />}
      {dialog?.kind === 'note' && <NoteDialog fundraiser={dialog.fundraiser} onClose={close} onDone={done} />}
    </Stack>
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
