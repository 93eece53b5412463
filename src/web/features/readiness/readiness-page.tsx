import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { path } from '../../../contract/paths.ts';
import type { ReadinessRow, TripReadiness } from '../../../contract/readiness.ts';
import {
  READINESS_CHECK_LABELS,
  READINESS_CHECKS,
  SCHOOL_ONLY_CHECKS,
  READINESS_STATES,
  type ReadinessCheck,
  type ReadinessState,
} from '../../../contract/readiness-constants.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { RecordLoader } from '../../components/form-frame.tsx';
import { formatShortDate } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { useTripReadiness } from './api/readiness.ts';
import { CheckBadge, STATE_TEXT, STATE_WORDS } from '../../components/check-badge.tsx';
import { BulkActions } from './bulk-actions.tsx';
import { PassportPhotoCheck } from './passport-photo-check.tsx';

const isCheck = (v: string | null): v is ReadinessCheck => (READINESS_CHECKS as readonly string[]).includes(v ?? '');
const isState = (v: string | null): v is ReadinessState => (READINESS_STATES as readonly string[]).includes(v ?? '');

/** The checks a trip's board shows: a parent's consent only on a school trip. */
const checksOf = (trip: { asks_consent: boolean }) =>
  READINESS_CHECKS.filter((c) => trip.asks_consent || !SCHOOL_ONLY_CHECKS.includes(c));
const STATE_OPTIONS = [
  { value: '', label: 'Any state' },
  ...READINESS_STATES.map((s) => ({ value: s, label: STATE_WORDS[s] })),
];

/** The rows a filter keeps: one check in one state; any check in a state; or a check not ready. */
function matches(row: ReadinessRow, check: ReadinessCheck | null, state: ReadinessState | null): boolean {
  if (check && state) return row.checks[check].state === state;
  if (state) return READINESS_CHECKS.some((c) => row.checks[c].state === state);
  if (check) return row.checks[check].state !== 'green';
  return true;
}

/**
 * /trips/{id}/readiness: is each traveller ready to depart? One row per live booking,
 * a column per check (green, amber or red, the reason on hover and focus), the counts at the top
 * (each a filter), and filters by check and state kept in the URL. Ticked travellers can be
 * chased or sent the trip's documents (bookings change); the downloads and the passport photos
 * need the traveller data permission too.
 */
export default function ReadinessPage() {
  const tripId = Number(useParams().id);
  const board = useTripReadiness(tripId);
  return (
    <RecordLoader
      query={board}
      failed="The readiness board could not be loaded. Please refresh the page and try again."
    >
      {(b) => <Board board={b} />}
    </RecordLoader>
  );
}

const DOWNLOADS = [
  { kind: 'manifest', label: 'Manifest' },
  { kind: 'rooming', label: 'Rooming list' },
  { kind: 'contacts', label: 'Emergency contacts' },
] as const;

/** The ground team's sheets, as .xlsx or PDF: confirmed travellers, provisional ones too when ticked. Each download is in the history. */
function Downloads({ tripId }: { tripId: number }) {
  const [provisional, setProvisional] = useState(false);
  return (
    <Group gap="sm" component="section" aria-label="Downloads">
      {DOWNLOADS.map((d) => (
        <Button.Group key={d.kind}>
          {(['xlsx', 'pdf'] as const).map((format) => (
            <Button
              key={format}
              component="a"
              variant="default"
              size="xs"
              download
              href={`/api/trips/${tripId}/manifest?kind=${d.kind}&format=${format}${provisional ? '&include=provisional' : ''}`}
            >
              {format === 'xlsx' ? (
                `${d.label} (xlsx)`
              ) : (
                <>
                  <VisuallyHidden>{d.label} as </VisuallyHidden>PDF
                </>
              )}
            </Button>
          ))}
        </Button.Group>
      ))}
      <Checkbox
        size="xs"
        label="Include provisional bookings"
        checked={provisional}
        onChange={(e) => setProvisional(e.currentTarget.checked)}
      />
    </Group>
  );
}

function Board({ board }: { board: TripReadiness }) {
  const may = useCan();
  const [params, setParams] = useSearchParams();
  const check = isCheck(params.get('check')) ? (params.get('check') as ReadinessCheck) : null;
  const state = isState(params.get('state')) ? (params.get('state') as ReadinessState) : null;
  // ready=no: the travellers with any check not green (the dashboard's card links here)
  const ready = params.get('ready') === 'no' ? 'no' : params.get('ready') === 'yes' ? 'yes' : null;
  const filter = (next: {
    check?: ReadinessCheck | null;
    state?: ReadinessState | null;
    ready?: 'yes' | 'no' | null;
  }) => {
    const p = new URLSearchParams();
    const c = next.check === undefined ? check : next.check;
    const s = next.state === undefined ? state : next.state;
    const r = next.ready === undefined ? ready : next.ready;
    if (c) p.set('check', c);
    if (s) p.set('state', s);
    if (r) p.set('ready', r);
    setParams(p, { replace: true });
  };
  const rows = board.rows.filter((r) => matches(r, check, state) && (ready === null || r.ready === (ready === 'yes')));
  const { trip, summary } = board;
  const checks = checksOf(trip);
  // ticked travellers, kept while the filters change (only those still on the board count)
  const [ticked, setTicked] = useState<Set<number>>(() => new Set());
  const tickedRows = board.rows.filter((r) => ticked.has(r.booking_id));
  const allTicked = rows.length > 0 && rows.every((r) => ticked.has(r.booking_id));
  const someTicked = rows.some((r) => ticked.has(r.booking_id));
  const tick = (id: number, on: boolean) =>
    setTicked((t) => {
      const next = new Set(t);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const tickAll = (on: boolean) =>
    setTicked(
      (t) =>
        new Set(
          on ? [...t, ...rows.map((r) => r.booking_id)] : [...t].filter((id) => !rows.some((r) => r.booking_id === id)),
        ),
    );

  const columns: Array<Column<ReadinessRow>> = [
    {
      key: 'tick',
      // ticking is for the bulk actions: bookings change
      hidden: !may('bookings'),
      label: (
        <Checkbox
          aria-label="Select every traveller shown"
          checked={allTicked}
          indeterminate={someTicked && !allTicked}
          disabled={rows.length === 0}
          onChange={(e) => tickAll(e.currentTarget.checked)}
        />
      ),
      cell: (r) => (
        <Checkbox
          aria-label={`Select ${r.traveller}`}
          checked={ticked.has(r.booking_id)}
          onChange={(e) => tick(r.booking_id, e.currentTarget.checked)}
        />
      ),
    },
    {
      key: 'traveller',
      label: 'Traveller',
      cell: (r) => (
        <Stack gap={0}>
          <Anchor component={Link} to={path('booking-view', { id: r.booking_id })} fw={600} size="sm">
            {r.traveller}
          </Anchor>
          <Text size="xs" c="dimmed" ff="monospace">
            {r.booking_ref} · {r.status}
          </Text>
          {(r.chasers_off || r.last_chaser) && (
            <Group gap={4}>
              {r.chasers_off && (
                <Tooltip
                  label={
                    r.chasers_off_reason
                      ? `Automatic chasers are off: ${r.chasers_off_reason}`
                      : 'Automatic chasers are off.'
                  }
                  withArrow
                  multiline
                  maw={280}
                >
                  <Badge
                    size="xs"
                    variant="light"
                    color="gray"
                    tabIndex={0}
                    aria-label={`Chasers off${r.chasers_off_reason ? `: ${r.chasers_off_reason}` : ''}`}
                  >
                    Chasers off
                  </Badge>
                </Tooltip>
              )}
              {r.last_chaser && (
                <Text size="xs" c="dimmed">
                  Chased (
                  {READINESS_CHECK_LABELS[r.last_chaser.check as ReadinessCheck]?.toLowerCase() ?? r.last_chaser.check}){' '}
                  {formatShortDate(r.last_chaser.sent_on)}
                </Text>
              )}
            </Group>
          )}
        </Stack>
      ),
    },
    ...checks.map((c): Column<ReadinessRow> => ({
      key: c,
      label: READINESS_CHECK_LABELS[c],
      cell: (r) =>
        c === 'passport' && r.checks.passport.to_check && may('traveller_data', 'read') ? (
          <Group gap={6} wrap="nowrap">
            <CheckBadge check={c} result={r.checks[c]} />
            <PassportPhotoCheck tripId={trip.id} bookingId={r.booking_id} traveller={r.traveller} />
          </Group>
        ) : (
          <CheckBadge check={c} result={r.checks[c]} />
        ),
    })),
  ];

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>Ready to depart: {trip.name}</Title>
          <Text c="dimmed" size="sm">
            {trip.country}, {formatShortDate(trip.departure)} to {formatShortDate(trip.return)}. Passports must be valid{' '}
            {trip.passport_months} {trip.passport_months === 1 ? 'month' : 'months'} after the return.
            {trip.passport_note ? ` ${trip.passport_note}` : ''}
          </Text>
        </div>
        {may('trips', 'read') && (
          <Anchor component={Link} to={path('trip-edit', { id: trip.id })} size="sm">
            Back to the trip
          </Anchor>
        )}
      </Group>
      {may('traveller_data', 'read') && <Downloads tripId={trip.id} />}

      <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm" component="section" aria-label="Summary">
        <Paper withBorder radius="md" p="sm" bg="blue.0">
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Ready
          </Text>
          <Text fz={22} fw={700} data-testid="ready-count">
            {summary.ready} of {summary.bookings}
          </Text>
        </Paper>
        {checks.map((c) => (
          <Paper key={c} withBorder radius="md" p="sm" data-testid={`summary-${c}`}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase">
              {READINESS_CHECK_LABELS[c]}
            </Text>
            <Group gap={10} mt={4}>
              {READINESS_STATES.map((s) => (
                <UnstyledButton
                  key={s}
                  onClick={() => filter({ check: c, state: s })}
                  aria-label={`${READINESS_CHECK_LABELS[c]}: ${summary.checks[c][s]} ${STATE_WORDS[s].toLowerCase()}; show them`}
                >
                  <Text span fw={700} c={STATE_TEXT[s]} size="sm">
                    {summary.checks[c][s]}
                  </Text>{' '}
                  <Text span size="xs" c="dimmed">
                    {STATE_WORDS[s].toLowerCase()}
                  </Text>
                </UnstyledButton>
              ))}
            </Group>
          </Paper>
        ))}
      </SimpleGrid>

      <Paper
        withBorder
        radius="md"
        p="sm"
        component="form"
        role="search"
        aria-label="Filters"
        onSubmit={(e) => e.preventDefault()}
      >
        <Group align="flex-end">
          <NativeSelect
            label="Check"
            data={[
              { value: '', label: 'Any check' },
              ...checks.map((c) => ({ value: c, label: READINESS_CHECK_LABELS[c] })),
            ]}
            value={check ?? ''}
            onChange={(e) =>
              filter({ check: isCheck(e.currentTarget.value) ? (e.currentTarget.value as ReadinessCheck) : null })
            }
            w={180}
          />
          <NativeSelect
            label="State"
            data={STATE_OPTIONS}
            value={state ?? ''}
            onChange={(e) =>
              filter({ state: isState(e.currentTarget.value) ? (e.currentTarget.value as ReadinessState) : null })
            }
            w={160}
          />
          <NativeSelect
            label="Ready"
            data={[
              { value: '', label: 'Everyone' },
              { value: 'no', label: 'Not ready' },
              { value: 'yes', label: 'Ready' },
            ]}
            value={ready ?? ''}
            onChange={(e) =>
              filter({
                ready: e.currentTarget.value === 'no' || e.currentTarget.value === 'yes' ? e.currentTarget.value : null,
              })
            }
            w={140}
          />
          {(check || state || ready) && (
            <Button variant="subtle" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
              Clear filters
            </Button>
          )}
          <Text size="sm" c="dimmed" ml="auto" role="status">
            {check || state || ready
              ? `${rows.length} of ${board.rows.length} travellers`
              : `${board.rows.length} travellers`}
          </Text>
        </Group>
      </Paper>

      {board.rows.length > 0 && may('bookings') && (
        <BulkActions tripId={trip.id} ticked={tickedRows} onDone={() => setTicked(new Set())} />
      )}

      <DataTable
        columns={columns}
        data={rows}
        rowKey={(r) => r.booking_id}
        rowProps={(r) =>
          ticked.has(r.booking_id) ? { style: { boxShadow: 'inset 4px 0 0 var(--mantine-color-blue-7)' } } : {}
        }
        empty={
          board.rows.length
            ? 'No traveller matches these filters.'
            : 'There are no provisional or confirmed bookings on this trip.'
        }
        caption="Each traveller's checks: hover over or focus a check to read why"
      />
    </Stack>
  );
}
