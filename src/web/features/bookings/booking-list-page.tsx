import { Alert, Anchor, Button, Checkbox, Grid, Group, Menu, NativeSelect, Paper, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { BookingRow } from '../../../contract/bookings.ts';
import { path } from '../../../contract/paths.ts';
import { MultiSelectField } from '../../components/multi-select-field.tsx';
import { PageLoader } from '../../components/page-loader.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { ApiError } from '../../lib/api.ts';
import { formatShortDate } from '../../lib/format.ts';
import { useBookings, useTripOptions } from './api/bookings.ts';
import { DownloadDialog } from './download-dialog.tsx';
import { type BookingFilters, COLUMNS, type ColumnKey, emptyFilters, type ListState, loadState, saveState, toQuery } from './list-state.ts';

const PASSPORT_LABELS: Record<string, string> = { missing: 'Missing', expired: 'Expired', expires: 'Expires soon', ok: 'OK' };

function cell(b: BookingRow, key: ColumnKey) {
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
      return b.user_url ? (
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
  const [state, setState] = useState<ListState>(() => loadState(params));
  const [draft, setDraft] = useState<BookingFilters>(state.filters);
  const [downloading, setDownloading] = useState(false);
  const bookings = useBookings(toQuery(state));
  const trips = useTripOptions();
  useEffect(() => saveState(state), [state]);

  const set = <K extends keyof BookingFilters>(key: K, value: BookingFilters[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const search = (e: React.FormEvent) => {
    e.preventDefault();
    setState((s) => ({ ...s, filters: draft, page: 1 }));
  };
  const reset = () => {
    setDraft(emptyFilters());
    setState((s) => ({ ...s, filters: emptyFilters(), page: 1 }));
  };
  const sortBy = (field: ListState['sort_field']) =>
    setState((s) => ({ ...s, page: 1, sort_field: field, sort_dir: s.sort_field === field && s.sort_dir === 'desc' ? 'asc' : 'desc' }));
  const toggleColumn = (key: ColumnKey) =>
    setState((s) => ({ ...s, columns: s.columns.includes(key) ? s.columns.filter((c) => c !== key) : COLUMNS.map((c) => c.key).filter((k) => k === key || s.columns.includes(k)) }));
  const shown = COLUMNS.filter((c) => state.columns.includes(c.key));
  const customLabels = state.filters.withCustomFields && bookings.data ? [...new Set(bookings.data.data.flatMap((b) => Object.keys(b.custom_fields ?? {})))] : [];
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
      <Paper withBorder p="md" radius="md" component="form" onSubmit={search} role="search" aria-label="Search bookings">
        <Grid>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <NativeSelect label="Status" value={draft.status} onChange={(e) => set('status', e.currentTarget.value)} data={[{ value: 'all', label: 'All' }, { value: 'confirmed', label: 'Confirmed' }, { value: 'provisional', label: 'Provisional' }, { value: 'cancelled', label: 'Cancelled' }]} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <NativeSelect label="Timing" value={draft.timing} onChange={(e) => set('timing', e.currentTarget.value)} data={[{ value: 'future', label: 'Future trips' }, { value: 'past', label: 'Past trips' }, { value: 'all', label: 'All trips' }]} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <MultiSelectField
              label="Trips"
              data={(trips.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
              value={draft.trips}
              onChange={(v) => set('trips', v)}
              error={fieldErrors?.trips?.join('\n')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <NativeSelect label="Passport" value={draft.passport} onChange={(e) => set('passport', e.currentTarget.value)} data={[{ value: '', label: 'Any' }, { value: 'missing', label: 'Missing' }, { value: 'expired', label: 'Expired' }, { value: 'expires', label: 'Expires within 6 months of return' }, { value: 'ok', label: 'OK' }]} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <TextInput label="Booking Ref" value={draft.booking_ref} onChange={(e) => set('booking_ref', e.currentTarget.value)} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput label="Name" value={draft.name} onChange={(e) => set('name', e.currentTarget.value)} description="First, last or preferred" />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput label="Email" value={draft.email} onChange={(e) => set('email', e.currentTarget.value)} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <TextInput label="Telephone" value={draft.telephone} onChange={(e) => set('telephone', e.currentTarget.value)} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <TextInput label="Address" value={draft.address} onChange={(e) => set('address', e.currentTarget.value)} description="Any line or post code" />
          </Grid.Col>
          <Grid.Col span={{ base: 3, md: 1 }}>
            <TextInput label="Age from" inputMode="numeric" value={draft.age_min} onChange={(e) => set('age_min', e.currentTarget.value)} error={fieldErrors?.age_min?.join('\n')} />
          </Grid.Col>
          <Grid.Col span={{ base: 3, md: 1 }}>
            <TextInput label="Age to" inputMode="numeric" value={draft.age_max} onChange={(e) => set('age_max', e.currentTarget.value)} error={fieldErrors?.age_max?.join('\n')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <NativeSelect label="Medical" value={draft.medical} onChange={(e) => set('medical', e.currentTarget.value)} data={[{ value: '', label: 'Any' }, { value: 'yes', label: 'Has conditions' }, { value: 'no', label: 'None' }]} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 2 }}>
            <NativeSelect label="Gender" value={draft.gender} onChange={(e) => set('gender', e.currentTarget.value)} data={[{ value: '', label: 'Any' }, { value: 'female', label: 'Female' }, { value: 'male', label: 'Male' }, { value: 'other', label: 'Other' }]} />
          </Grid.Col>
        </Grid>
        <Group mt="md" justify="space-between">
          <Group>
            <Button type="submit">Search</Button>
            <Button variant="default" onClick={reset}>
              Reset
            </Button>
            <Checkbox label="With custom fields" checked={draft.withCustomFields} onChange={(e) => set('withCustomFields', e.currentTarget.checked)} />
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
            <Menu closeOnItemClick={false} position="bottom-end">
              <Menu.Target>
                <Button variant="default">Columns</Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>Show columns</Menu.Label>
                {COLUMNS.map((c) => (
                  <Menu.Item key={c.key} onClick={() => toggleColumn(c.key)} leftSection={<Checkbox readOnly tabIndex={-1} checked={state.columns.includes(c.key)} aria-hidden size="xs" />}>
                    {c.label}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </Paper>

      {bookings.isPending && <PageLoader />}
      {bookings.isError && (
        <Alert color="red" role="alert">
          {bookings.error instanceof ApiError && bookings.error.status === 422 ? bookings.error.message : 'The bookings could not be loaded. Please refresh the page and try again.'}
        </Alert>
      )}
      {bookings.data && (
        <>
          <Table.ScrollContainer minWidth={900}>
            <Table striped highlightOnHover verticalSpacing="xs" aria-busy={bookings.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  {shown.map((c) => {
                    const sorted = 'sort' in c && state.sort_field === c.sort;
                    return (
                      <Table.Th key={c.key} aria-sort={sorted ? (state.sort_dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                        {'sort' in c ? (
                          <UnstyledButton onClick={() => sortBy(c.sort)} fw={700} fz="sm">
                            {c.label}
                            {/* aria-sort says the order; the glyph is for the eye only */}
                            {sorted && <span aria-hidden="true"> {state.sort_dir === 'asc' ? '▲' : '▼'}</span>}
                          </UnstyledButton>
                        ) : (
                          c.label
                        )}
                      </Table.Th>
                    );
                  })}
                  {customLabels.map((l) => (
                    <Table.Th key={`cf-${l}`}>{l}</Table.Th>
                  ))}
                  <Table.Th>
                    <span className="visually-hidden-label">Actions</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {bookings.data.data.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={shown.length + customLabels.length + 1}>
                      <Text c="dimmed" ta="center" py="md">
                        No bookings match this search.
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {bookings.data.data.map((b) => (
                  <Table.Tr key={b.id}>
                    {shown.map((c) => (
                      <Table.Td key={c.key}>{cell(b, c.key)}</Table.Td>
                    ))}
                    {customLabels.map((l) => (
                      <Table.Td key={`cf-${l}`}>{b.custom_fields?.[l] ?? ''}</Table.Td>
                    ))}
                    <Table.Td>
                      <Anchor component={Link} to={path('booking-view', { id: b.id })} aria-label={`View booking ${b.ref}`}>
                        View
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pagination
            page={state.page}
            lastPage={bookings.data.last_page}
            onChange={(page) => setState((s) => ({ ...s, page }))}
            from={bookings.data.from}
            to={bookings.data.to}
            total={bookings.data.total}
            totalIsEstimate={bookings.data.total_is_estimate}
            noun="bookings"
          />
        </>
      )}
    </Stack>
  );
}
