import {
  Anchor,
  Button,
  Checkbox,
  Grid,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { BookingRow } from '../../../contract/bookings.ts';
import { path } from '../../../contract/paths.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { lazyDialog } from '../../components/lazy.tsx';
import { LazyMenu } from '../../components/lazy-menu.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { ApiError } from '../../lib/api.ts';
import { formatShortDate } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { useBookings, useTripOptions } from './api/bookings.ts';
import {
  type BookingFilters,
  COLUMNS,
  type ColumnKey,
  emptyFilters,
  type ListState,
  loadState,
  saveState,
  toQuery,
} from './list-state.ts';

// the trips multi-select (Mantine's combobox with its popover and floating-ui) loads as the page
// first draws rather than before it, as the notes editor does; a plain field holds its place
const MultiSelectField = lazy(() =>
  import('../../components/multi-select-field.tsx').then((m) => ({ default: m.MultiSelectField })),
);
// the download dialog loads when first opened
const DownloadDialog = lazyDialog(
  () => import('./download-dialog.tsx').then((m) => m.DownloadDialog),
  (p) => p.opened,
);

const PASSPORT_LABELS: Record<string, string> = {
  missing: 'Missing',
  expired: 'Expired',
  expires: 'Expires soon',
  ok: 'OK',
};

function cell(b: BookingRow, key: ColumnKey, seesUsers: boolean) {
  switch (key) {
    case 'id':
      return b.id;
    case 'created_at':
      return formatShortDate(b.created_at);
    case 'deposit_payment_date':
      return formatShortDate(b.deposit_payment_date);
    case 'status':
      return <StatusBadge status={b.status} />;
    case 'trip':
      return b.trip.name;
    case 'name': {
      const name = `${b.first_name} ${b.last_name}`;
      return b.user_url && seesUsers ? (
        <Anchor component={Link} to={b.user_url}>
          {name}
        </Anchor>
      ) : (
        name
      );
    }
    case 'passport_valid':
      return PASSPORT_LABELS[b.passport_valid];
    case 'age':
      return b.age ?? '';
    default:
      return b[key] ?? '';
  }
}

export default function BookingListPage() {
  const [params] = useSearchParams();
  const may = useCan();
  // the trips to choose from are the trips area's; who has medical conditions, and whose passport
  // is missing or runs out, is traveller data
  const seesTrips = may('trips', 'read');
  const seesTravellerData = may('traveller_data', 'read');
  // a traveller's name opens their user only for a team that may read the users
  const seesUsers = may('people', 'read');
  const [state, setState] = useState<ListState>(() => {
    const kept = loadState(params);
    // a search kept from before leaves out what this team may not search by (its field is not shown)
    return {
      ...kept,
      filters: {
        ...kept.filters,
        trips: seesTrips ? kept.filters.trips : [],
        medical: seesTravellerData ? kept.filters.medical : '',
        passport: seesTravellerData ? kept.filters.passport : '',
      },
    };
  });
  const [draft, setDraft] = useState<BookingFilters>(state.filters);
  const [downloading, setDownloading] = useState(false);
  const columnsButton = useRef<HTMLButtonElement>(null);
  // the menu's first close (just after it loaded) has no button to give the focus back to, as the
  // button it opened from was swapped for the menu's own: a keyboard user keeps their place
  const keepFocus = () =>
    setTimeout(() => {
      if (!document.activeElement || document.activeElement === document.body) columnsButton.current?.focus();
    }, 50);
  const bookings = useBookings(toQuery(state));
  const trips = useTripOptions(seesTrips);
  useEffect(() => saveState(state), [state]);

  const set = <K extends keyof BookingFilters>(key: K, value: BookingFilters[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const search = (e: React.FormEvent) => {
    e.preventDefault();
    setState((s) => ({ ...s, filters: draft, page: 1 }));
  };
  const reset = () => {
    setDraft(emptyFilters());
    setState((s) => ({ ...s, filters: emptyFilters(), page: 1 }));
  };
  const sortBy = (field: ListState['sort_field']) =>
    setState((s) => ({
      ...s,
      page: 1,
      sort_field: field,
      sort_dir: s.sort_field === field && s.sort_dir === 'desc' ? 'asc' : 'desc',
    }));
  const toggleColumn = (key: ColumnKey) =>
    setState((s) => ({
      ...s,
      columns: s.columns.includes(key)
        ? s.columns.filter((c) => c !== key)
        : COLUMNS.map((c) => c.key).filter((k) => k === key || s.columns.includes(k)),
    }));
  const shown = COLUMNS.filter((c) => state.columns.includes(c.key));
  const customLabels =
    state.filters.withCustomFields && bookings.data
      ? [...new Set(bookings.data.data.flatMap((b) => Object.keys(b.custom_fields ?? {})))]
      : [];
  const tableColumns: Array<Column<BookingRow>> = [
    ...shown.map((c) => ({
      key: c.key,
      label: c.label,
      sort: 'sort' in c ? c.sort : undefined,
      cell: (b: BookingRow) => cell(b, c.key, seesUsers),
    })),
    ...customLabels.map((l) => ({ key: `cf-${l}`, label: l, cell: (b: BookingRow) => b.custom_fields?.[l] ?? '' })),
    {
      key: 'view',
      label: <span className="visually-hidden-label">Actions</span>,
      cell: (b: BookingRow) => (
        <Anchor component={Link} to={path('booking-view', { id: b.id })} aria-label={`View booking ${b.ref}`}>
          View
        </Anchor>
      ),
    },
  ];
  const fieldErrors = bookings.error instanceof ApiError ? bookings.error.errors : undefined;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Bookings</Title>
        <Button variant="default" onClick={() => setDownloading(true)}>
          Download
        </Button>
      </Group>
      <DownloadDialog opened={downloading} onClose={() => setDownloading(false)} query={toQuery(state)} />
      <Paper
        withBorder
        p="md"
        radius="md"
        component="form"
        onSubmit={search}
        role="search"
        aria-label="Search bookings"
      >
        <Grid>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <NativeSelect
              label="Status"
              value={draft.status}
              onChange={(e) => set('status', e.currentTarget.value)}
              data={[
                { value: 'all', label: 'All' },
                { value: 'confirmed', label: 'Confirmed' },
                { value: 'provisional', label: 'Provisional' },
                { value: 'cancelled', label: 'Cancelled' },
              ]}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <NativeSelect
              label="Timing"
              value={draft.timing}
              onChange={(e) => set('timing', e.currentTarget.value)}
              data={[
                { value: 'future', label: 'Future trips' },
                { value: 'past', label: 'Past trips' },
                { value: 'all', label: 'All trips' },
              ]}
            />
          </Grid.Col>
          {seesTrips && (
            <Grid.Col span={{ base: 12, md: 5 }}>
              <Suspense
                fallback={
                  <TextInput label="Trips" placeholder="Loading…" disabled error={fieldErrors?.trips?.join('\n')} />
                }
              >
                <MultiSelectField
                  label="Trips"
                  data={(trips.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
                  value={draft.trips}
                  onChange={(v) => set('trips', v)}
                  error={fieldErrors?.trips?.join('\n')}
                />
              </Suspense>
            </Grid.Col>
          )}
          {seesTravellerData && (
            <Grid.Col span={{ base: 6, md: 3 }}>
              <NativeSelect
                label="Passport"
                value={draft.passport}
                onChange={(e) => set('passport', e.currentTarget.value)}
                data={[
                  { value: '', label: 'Any' },
                  { value: 'missing', label: 'Missing' },
                  { value: 'expired', label: 'Expired' },
                  { value: 'expires', label: 'Expires too soon for the destination' },
                  { value: 'ok', label: 'OK' },
                ]}
              />
            </Grid.Col>
          )}
          <Grid.Col span={{ base: 6, md: 2 }}>
            <TextInput
              label="Booking Ref"
              value={draft.booking_ref}
              onChange={(e) => set('booking_ref', e.currentTarget.value)}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput
              label="Name"
              value={draft.name}
              onChange={(e) => set('name', e.currentTarget.value)}
              description="First, last or preferred"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput label="Email" value={draft.email} onChange={(e) => set('email', e.currentTarget.value)} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <TextInput
              label="Telephone"
              value={draft.telephone}
              onChange={(e) => set('telephone', e.currentTarget.value)}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <TextInput
              label="Address"
              value={draft.address}
              onChange={(e) => set('address', e.currentTarget.value)}
              description="Any line or post code"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 3, md: 1 }}>
            <TextInput
              label="Age from"
              inputMode="numeric"
              value={draft.age_min}
              onChange={(e) => set('age_min', e.currentTarget.value)}
              error={fieldErrors?.age_min?.join('\n')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 3, md: 1 }}>
            <TextInput
              label="Age to"
              inputMode="numeric"
              value={draft.age_max}
              onChange={(e) => set('age_max', e.currentTarget.value)}
              error={fieldErrors?.age_max?.join('\n')}
            />
          </Grid.Col>
          {seesTravellerData && (
            <Grid.Col span={{ base: 6, md: 2 }}>
              <NativeSelect
                label="Medical"
                value={draft.medical}
                onChange={(e) => set('medical', e.currentTarget.value)}
                data={[
                  { value: '', label: 'Any' },
                  { value: 'yes', label: 'Has conditions' },
                  { value: 'no', label: 'None' },
                ]}
              />
            </Grid.Col>
          )}
          <Grid.Col span={{ base: 6, md: 2 }}>
            <NativeSelect
              label="Gender"
              value={draft.gender}
              onChange={(e) => set('gender', e.currentTarget.value)}
              data={[
                { value: '', label: 'Any' },
                { value: 'female', label: 'Female' },
                { value: 'male', label: 'Male' },
                { value: 'other', label: 'Other' },
              ]}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <NativeSelect
              label="Fundraising"
              value={draft.fundraising}
              onChange={(e) => set('fundraising', e.currentTarget.value)}
              data={[
                { value: '', label: 'Any' },
                { value: 'on_track', label: 'On track' },
                { value: 'behind', label: 'Behind' },
                { value: 'met', label: 'Target met' },
              ]}
            />
          </Grid.Col>
        </Grid>
        <Group mt="md" justify="space-between">
          <Group>
            <Button type="submit">Search</Button>
            <Button variant="default" onClick={reset}>
              Reset
            </Button>
            <Checkbox
              label="With custom fields"
              checked={draft.withCustomFields}
              onChange={(e) => set('withCustomFields', e.currentTarget.checked)}
            />
          </Group>
          <Group gap="xs">
            {(state.filters.trip_id || state.filters.user_id) && (
              <Text size="sm" c="dimmed">
                {state.filters.trip_id ? 'Showing one trip. ' : ''}
                {state.filters.user_id ? 'Showing one user’s bookings. ' : ''}
                <Anchor component="button" type="button" size="sm" onClick={reset}>
                  Show all
                </Anchor>
              </Text>
            )}
            <LazyMenu
              menuProps={{ closeOnItemClick: false, position: 'bottom-end', onClose: keepFocus }}
              target={
                <Button variant="default" ref={columnsButton}>
                  Columns
                </Button>
              }
            >
              {(M) => (
                <>
                  <M.Label>Show columns</M.Label>
                  {COLUMNS.map((c) => (
                    <M.Item
                      key={c.key}
                      onClick={() => toggleColumn(c.key)}
                      leftSection={
                        <Checkbox
                          readOnly
                          tabIndex={-1}
                          checked={state.columns.includes(c.key)}
                          aria-hidden
                          size="xs"
                        />
                      }
                    >
                      {c.label}
                    </M.Item>
                  ))}
                </>
              )}
            </LazyMenu>
          </Group>
        </Group>
      </Paper>
      {(state.filters.departure_from || state.filters.departure_to || state.filters.booked_before) && (
        <Group gap="sm" role="status" aria-label="Further filters">
          <Text size="sm">
            Also filtered:{' '}
            {[
              state.filters.departure_from || state.filters.departure_to
                ? `trips departing ${state.filters.departure_from ? `from ${formatShortDate(state.filters.departure_from)}` : ''}${state.filters.departure_from && state.filters.departure_to ? ' ' : ''}${state.filters.departure_to ? `to ${formatShortDate(state.filters.departure_to)}` : ''}`
                : '',
              state.filters.booked_before ? `booked before ${formatShortDate(state.filters.booked_before)}` : '',
            ]
              .filter(Boolean)
              .join('; ')}
            .
          </Text>
          <Button
            size="xs"
            variant="default"
            onClick={() => {
              const cleared = { ...state.filters, departure_from: '', departure_to: '', booked_before: '' };
              setDraft(cleared);
              setState((s) => ({ ...s, filters: cleared, page: 1 }));
            }}
          >
            Clear these
          </Button>
        </Group>
      )}

      <DataTable
        columns={tableColumns}
        query={bookings}
        rowKey={(b) => b.id}
        // a search the server cannot read says why (422); anything else, the screen's words
        error={bookings.error instanceof ApiError && bookings.error.status === 422 ? bookings.error.message : null}
        failed="The bookings could not be loaded. Please refresh the page and try again."
        empty="No bookings match this search."
        sort={{ field: state.sort_field, dir: state.sort_dir }}
        onSort={(field) => sortBy(field as ListState['sort_field'])}
        page={state.page}
        onPage={(page) => setState((s) => ({ ...s, page }))}
        noun="bookings"
        totalIsEstimate={bookings.data?.total_is_estimate}
        tableProps={{ verticalSpacing: 'xs' }}
      />
    </Stack>
  );
}
