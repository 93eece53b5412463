import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FUNDING_TYPE_LABELS } from '../../contract/booking-constants.ts';
import {
  ENTRY_SOURCE_LABELS,
  FUNDRAISING_STATE_LABELS,
  type FundraisingState,
} from '../../contract/fundraising-constants.ts';
import type { Paged } from '../../contract/common.ts';
import type { CharityFundraisers, Fundraiser, FundraisingEntry } from '../../contract/fundraising.ts';
import { formatDateTime, formatMoney, formatShortDate } from '../lib/format.ts';
import type { Column } from './data-table.tsx';
import { ToneBadge, type Tone } from './status-badge.tsx';

// Fundraising as every screen shows it: the booking page, the charity page and the
// charity portal draw a standing and a list of amounts raised the same way.

const TONE: Record<FundraisingState, Tone> = {
  not_fundraising: 'neutral',
  on_track: 'info',
  behind: 'bad',
  met: 'good',
};

/** The state as a badge, and under it how far short a fundraiser behind is. */
export function StandingBadge({ state, shortfall }: { state: FundraisingState; shortfall?: number }) {
  return (
    <Stack gap={2}>
      <ToneBadge tone={TONE[state]}>{FUNDRAISING_STATE_LABELS[state]}</ToneBadge>
      {state === 'behind' && shortfall !== undefined && (
        <Text size="xs" c="red.9">
          {formatMoney(shortfall)} short
        </Text>
      )}
    </Stack>
  );
}

type Dated = { percent: number; amount: number; due: string };

/** "Behind: 50% (£1,000.00) was due by 12/11/2026; £400.00 short." and the like. */
export function standingText(f: {
  state: FundraisingState;
  raised: number;
  target: number;
  shortfall: number;
  missed: Dated | null;
  next: Dated | null;
}): string {
  if (f.state === 'met') return `Target met: ${formatMoney(f.raised)} raised of ${formatMoney(f.target)}.`;
  if (f.state === 'not_fundraising') return 'This booking does not fundraise.';
  if (f.state === 'behind' && f.missed)
    return `Behind: ${f.missed.percent}% (${formatMoney(f.missed.amount)}) was due by ${formatShortDate(f.missed.due)}; ${formatMoney(f.shortfall)} short.`;
  return f.next
    ? `On track: next, ${f.next.percent}% (${formatMoney(f.next.amount)}) by ${formatShortDate(f.next.due)}; ${formatMoney(f.shortfall)} still to raise.`
    : `On track: ${formatMoney(f.shortfall)} still to raise.`;
}

type Entry = Pick<
  FundraisingEntry,
  'id' | 'amount' | 'date' | 'source' | 'note' | 'recorded_by' | 'recorded_at' | 'struck_at' | 'struck_reason'
> & { struck_by?: string | null };

/** The amounts raised as a table: date, amount (struck through when struck out), source, note and why struck, who recorded it. */
export function entryColumns<E extends Entry>(): Array<Column<E>> {
  return [
    {
      key: 'date',
      label: 'Date',
      cellProps: () => ({ style: { whiteSpace: 'nowrap' } }),
      cell: (e) => formatShortDate(e.date),
    },
    {
      key: 'amount',
      label: 'Amount',
      align: 'right',
      cell: (e) =>
        e.struck_at ? (
          <Text span size="sm" td="line-through" c="dimmed">
            {formatMoney(e.amount)}
          </Text>
        ) : (
          formatMoney(e.amount)
        ),
    },
    { key: 'source', label: 'Source', cell: (e) => ENTRY_SOURCE_LABELS[e.source] },
    {
      key: 'note',
      label: 'Note',
      cell: (e) => (
        <Stack gap={2}>
          {e.note && <Text size="sm">{e.note}</Text>}
          {e.struck_at && (
            <Text size="xs" c="red.9">
              Struck out{e.struck_by ? ` by ${e.struck_by}` : ''} on {formatShortDate(e.struck_at)}: {e.struck_reason}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'recorded',
      label: 'Recorded by',
      cell: (e) => (
        <Text size="sm" title={formatDateTime(e.recorded_at)}>
          {e.recorded_by ?? 'Someone since removed'}
        </Text>
      ),
    },
  ];
}

/**
 * The fundraisers' table as the charity page and the charity portal both show it: the traveller
 * (their name as `name` draws it: a link for staff, text for the charity), trip, departure,
 * target, raised and state; each screen adds its own columns after these.
 */
export function fundraiserColumns(name: (f: Fundraiser) => ReactNode): Array<Column<Fundraiser>> {
  return [
    {
      key: 'traveller',
      label: 'Traveller',
      cell: (f) => (
        <Stack gap={0}>
          {name(f)}
          <Text size="xs" c="dimmed" ff="monospace">
            {f.booking_ref} ·{' '}
            {FUNDING_TYPE_LABELS[f.funding_type as keyof typeof FUNDING_TYPE_LABELS] ?? f.funding_type}
          </Text>
        </Stack>
      ),
    },
    { key: 'trip', label: 'Trip', cell: (f) => <Text size="sm">{f.trip.name}</Text> },
    {
      key: 'departure',
      label: 'Departs',
      cellProps: () => ({ style: { whiteSpace: 'nowrap' } }),
      cell: (f) => formatShortDate(f.departure),
    },
    { key: 'target', label: 'Target', align: 'right', cell: (f) => formatMoney(f.target) },
    { key: 'raised', label: 'Raised', align: 'right', cell: (f) => formatMoney(f.raised) },
    { key: 'state', label: 'State', cell: (f) => <StandingBadge state={f.state} shortfall={f.shortfall} /> },
  ];
}

/** A reply of a charity's fundraisers as the table's page: its rows, and which of them all they are. */
export function fundraisersPage(
  reply: Omit<CharityFundraisers, 'portal_users'> | undefined,
): Paged<Fundraiser> | undefined {
  if (!reply) return undefined;
  const { fundraisers, totals, current_page, last_page, per_page, from, to } = reply;
  return { data: fundraisers, total: totals.fundraisers, current_page, last_page, per_page, from, to };
}
