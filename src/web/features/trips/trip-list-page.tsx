import { Alert, Button, Group, NativeSelect, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { path } from '../../../contract/paths.ts';
import type { Trip } from '../../../contract/trips.ts';
import { TRIP_LEVELS, TRIP_SEARCH_DEBOUNCE_MS, TRIP_TYPE_LABELS } from '../../../contract/trip-constants.ts';
import { lazyComponent, lazyDialog } from '../../components/lazy.tsx';
import { LazyMenu } from '../../components/lazy-menu.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { showFlash } from '../../lib/flash.ts';
import { formatShortDate } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { archiveTrip, deleteTrip, type TripFilter, tripKeys, useTrips } from './api/trips.ts';

// the dialogs load when first opened
const CreateTripDialog = lazyComponent(() => import('./create-trip-dialog.tsx').then((m) => m.CreateTripDialog));
const CreateBookingDialog = lazyDialog(
  () => import('../../components/create-booking-dialog.tsx').then((m) => m.CreateBookingDialog),
  (p) => p.trip !== null,
);

const SORTS = [
  { value: 'date', label: 'Departure, soonest first' },
  { value: 'date-d', label: 'Departure, latest first' },
  { value: 'name', label: 'Name' },
];

type Pending = { kind: 'archive' | 'delete'; trip: Trip } | null;

export default function TripListPage() {
  const queryClient = useQueryClient();
  const may = useCan();
  const [search, setSearch] = useState('');
  const [nameSearch] = useDebouncedValue(search.trim(), TRIP_SEARCH_DEBOUNCE_MS);
  const [sort, setSort] = useState<TripFilter['sort_by']>('date');
  const [archived, setArchived] = useState(false);
  const [page, setPage] = useState(1);
  const filter: TripFilter = { page, sort_by: sort, name_search: nameSearch, archived };
  const trips = useTrips(filter);
  const [creating, setCreating] = useState(false);
  const [booking, setBooking] = useState<Trip | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const lastPage = trips.data?.last_page ?? 1;

  const acting = useFormMutation({
    mutationFn: (p: NonNullable<Pending>): Promise<unknown> =>
      p.kind === 'archive' ? archiveTrip(p.trip.id) : deleteTrip(p.trip.id),
    invalidate: [tripKeys.all],
    fallback: 'Sorry, an error occurred. Please refresh the page and try again.',
    onSuccess: () => {
      // the last trip of the last page went: show the page before it rather than an empty one
      if (page > 1 && trips.data?.data.length === 1) setPage(page - 1);
    },
  });
  const act = async () => {
    if (!pending) return;
    await acting.submit(pending);
    setPending(null);
  };

  const columns: Array<Column<Trip>> = [
    { key: 'name', label: 'Trip', cell: (trip) => trip.name, cellProps: () => ({ fw: 500 }) },
    { key: 'country', label: 'Country', cell: (trip) => trip.country.name },
    { key: 'type', label: 'Type', cell: (trip) => TRIP_TYPE_LABELS[trip.type] },
    {
      key: 'level',
      label: 'Level',
      cell: (trip) => trip.level,
      cellProps: (trip) => ({ title: TRIP_LEVELS[trip.level] }),
    },
    { key: 'departure', label: 'Departure', cell: (trip) => formatShortDate(trip.departure) },
    { key: 'return', label: 'Return', cell: (trip) => formatShortDate(trip.return) },
    { key: 'status', label: 'Status', cell: (trip) => <StatusBadge status={trip.status} /> },
    { key: 'bookings', label: 'Bookings', align: 'right', cell: (trip) => trip.booking_count },
    {
      key: 'places',
      label: 'Places left',
      align: 'right',
      cell: (trip) =>
        trip.places.left === null ? (
          '—'
        ) : (
          <span title={`${trip.places.taken} taken, ${trip.places.held} held, ${trip.places.left} left`}>
            {trip.places.left}
            {trip.places.held > 0 ? ` (${trip.places.held} held)` : ''}
          </span>
        ),
    },
    {
      key: 'actions',
      label: 'Actions',
      cell: (trip) => (
        <Group gap={6} wrap="nowrap">
          {(trip.editable || may('trips')) && (
            <LazyMenu
              menuProps={{ position: 'bottom-end', withinPortal: true }}
              target={
                <Button size="xs" variant="default" aria-label={`Trip menu for ${trip.name}`}>
                  Trip
                </Button>
              }
            >
              {(M) => (
                <>
                  {trip.editable && (
                    <M.Item component={Link} to={path('trip-edit', { id: trip.id })}>
                      {may('trips') ? 'Edit Trip' : 'View Trip'}
                    </M.Item>
                  )}
                  {/* archiving and deleting are trips change */}
                  {may('trips') && !trip.archived && (
                    <M.Item onClick={() => setPending({ kind: 'archive', trip })}>Archive</M.Item>
                  )}
                  {may('trips') && (
                    <M.Item color="red" onClick={() => setPending({ kind: 'delete', trip })}>
                      Delete
                    </M.Item>
                  )}
                </>
              )}
            </LazyMenu>
          )}
          {may('bookings', 'read') && (
            <LazyMenu
              menuProps={{ position: 'bottom-end', withinPortal: true }}
              target={
                <Button size="xs" variant="default" aria-label={`Bookings menu for ${trip.name}`}>
                  Bookings
                </Button>
              }
            >
              {(M) => (
                <>
                  <M.Item component={Link} to={`${path('booking-list')}?timing=all&trip_id=${trip.id}`}>
                    List
                  </M.Item>
                  <M.Item component={Link} to={path('trip-readiness', { id: trip.id })}>
                    Readiness
                  </M.Item>
                  {trip.status !== 'closed' && may('bookings') && <M.Item onClick={() => setBooking(trip)}>New</M.Item>}
                </>
              )}
            </LazyMenu>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Trips</Title>
        {may('trips') && <Button onClick={() => setCreating(true)}>Create New Trip</Button>}
      </Group>

      <Group align="flex-end" gap="md">
        <TextInput
          label="Search"
          placeholder="Trip name"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={260}
        />
        <NativeSelect
          label="Sort by"
          data={SORTS}
          value={sort}
          onChange={(e) => {
            setSort(e.currentTarget.value as TripFilter['sort_by']);
            setPage(1);
          }}
        />
        <NativeSelect
          label="Page"
          data={Array.from({ length: lastPage }, (_, i) => ({
            value: String(i + 1),
            label: `Page ${i + 1} of ${lastPage}`,
          }))}
          value={String(page)}
          onChange={(e) => setPage(Number(e.currentTarget.value))}
        />
        <Switch
          label="Show archived trips"
          checked={archived}
          onChange={(e) => {
            setArchived(e.currentTarget.checked);
            setPage(1);
          }}
          mb={8}
        />
      </Group>

      {acting.failure && (
        <Alert color="red" role="alert">
          {acting.failure}
        </Alert>
      )}
      <DataTable
        columns={columns}
        query={trips}
        failed="The trips could not be loaded. Please refresh the page and try again."
        rowKey={(t) => t.id}
        empty={
          nameSearch
            ? 'No trips match this search.'
            : archived
              ? 'There are no archived trips.'
              : 'There are no trips yet.'
        }
      />

      {creating && <CreateTripDialog onClose={() => setCreating(false)} />}
      <CreateBookingDialog
        trip={booking}
        onClose={() => setBooking(null)}
        onCreated={(b) => {
          setBooking(null);
          void queryClient.invalidateQueries({ queryKey: tripKeys.all });
          showFlash(`Booking ${b.ref} has been created for ${b.first_name} ${b.last_name}.`);
        }}
      />
      <ConfirmDialog
        opened={pending?.kind === 'archive'}
        message={`Are you sure you want to archive ${pending?.trip.name ?? 'this trip'}? It will no longer show in the current trip list.`}
        confirmLabel="Yes, Archive the Trip"
        cancelLabel="No, Cancel"
        onCancel={() => setPending(null)}
        onConfirm={act}
        busy={acting.isPending}
      />
      <ConfirmDialog
        opened={pending?.kind === 'delete'}
        message={`Are you sure you want to delete ${pending?.trip.name ?? 'this trip'}? Its bookings stay in the booking list.`}
        confirmLabel="Yes, Delete the Trip"
        cancelLabel="No, Cancel"
        onCancel={() => setPending(null)}
        onConfirm={act}
        busy={acting.isPending}
      />
    </Stack>
  );
}
