import { Anchor, Button, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ENTRY_SOURCE_LABELS, FUNDRAISING_STATE_LABELS, type FundraisingState } from '../../../../contract/fundraising-constants.ts';
import type { BookingFundraising, FundraisingEntry } from '../../../../contract/fundraising.ts';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { lazyComponent } from '../../../components/lazy.tsx';
import { ToneBadge, type Tone } from '../../../components/status-badge.tsx';
import { formatDateTime, formatMoney, formatShortDate } from '../../../lib/format.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { bookingKeys } from '../api/bookings.ts';
import { strikeFundraisingEntry, useFundraising } from '../api/fundraising.ts';
import { BookingPanel } from '../booking-panel.tsx';

// the dialogs (their forms, the date picker) load when first opened
const EntryDialog = lazyComponent(() => import('./entry-dialog.tsx').then((m) => m.EntryDialog));
const TargetDialog = lazyComponent(() => import('./target-dialog.tsx').then((m) => m.TargetDialog));
const ReasonDialog = lazyComponent(() => import('../../../components/reason-dialog.tsx').then((m) => m.ReasonDialog<unknown>));

export const FUNDRAISING_TONE: Record<FundraisingState, Tone> = { not_fundraising: 'neutral', on_track: 'info', behind: 'bad', met: 'good' };

/** "Behind: 50% (£1,000.00) was due by 12 Nov 2026; £400.00 short." and the like. */
export function standingText(f: BookingFundraising): string {
  if (f.state === 'met') return `Target met: ${formatMoney(f.raised)} raised of ${formatMoney(f.target)}.`;
  if (f.state === 'not_fundraising') return 'This booking does not fundraise.';
  if (f.state === 'behind' && f.missed) return `Behind: ${f.missed.percent}% (${formatMoney(f.missed.amount)}) was due by ${formatShortDate(f.missed.due)}; ${formatMoney(f.shortfall)} short.`;
  return f.next ? `On track: next, ${f.next.percent}% (${formatMoney(f.next.amount)}) by ${formatShortDate(f.next.due)}; ${formatMoney(f.shortfall)} still to raise.` : `On track: ${formatMoney(f.shortfall)} still to raise.`;
}

type Dialog = { kind: 'entry' } | { kind: 'target' } | { kind: 'strike'; entry: FundraisingEntry } | null;

/**
 * The booking page's Fundraising panel (issue 19): the target (the trip's minimum unless
 * changed), the page, what is raised and how it stands against the milestones, the charity's
 * acknowledgement, and the raised-to-date entries (added; struck out with a reason, never edited).
 * Sponsorship is not trip money: nothing here touches the invoices.
 */
export function FundraisingPanel({ bookingId }: { bookingId: number }) {
  const query = useFundraising(bookingId);
  const [notice, setNotice] = useState<string | null>(null);
  const { dialog, open, close } = useDialog<NonNullable<Dialog>>(() => setNotice(null));
  const done = (text: string) => {
    close();
    setNotice(text);
  };
  const f = query.data;

  const columns: Array<Column<FundraisingEntry>> = [
    { key: 'date', label: 'Date', cellProps: () => ({ style: { whiteSpace: 'nowrap' } }), cell: (e) => formatShortDate(e.date) },
    {
      key: 'amount',
      label: 'Amount',
      align: 'right',
      cell: (e) => (e.struck_at ? <Text span size="sm" td="line-through" c="dimmed">{formatMoney(e.amount)}</Text> : formatMoney(e.amount)),
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
    {
      key: 'actions',
      label: 'Action',
      cell: (e) =>
        e.struck_at ? null : (
          <Button size="xs" variant="default" onClick={() => open({ kind: 'strike', entry: e })} aria-label={`Strike out ${formatMoney(e.amount)} of ${formatShortDate(e.date)}`}>
            Strike out
          </Button>
        ),
    },
  ];

  return (
    <BookingPanel
      id="fundraising"
      title="Fundraising"
      notice={notice}
      onDismiss={() => setNotice(null)}
      actions={
        f?.fundraises ? (
          <Group gap="xs">
            <Button variant="default" onClick={() => open({ kind: 'target' })}>
              Change target or page…
            </Button>
            <Button onClick={() => open({ kind: 'entry' })}>Record amount raised…</Button>
          </Group>
        ) : undefined
      }
    >
      {query.isPending ? (
        <Skeleton height={80} />
      ) : !f ? (
        <Text size="sm" c="red.9" role="alert">
          The fundraising could not be loaded. Please refresh the page and try again.
        </Text>
      ) : (
        <>
          <Group gap="sm" align="center">
            <ToneBadge tone={FUNDRAISING_TONE[f.state]}>{FUNDRAISING_STATE_LABELS[f.state]}</ToneBadge>
            <Text size="sm" fw={600} data-testid="fundraising-standing">
              {standingText(f)}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={4}>
            <Fact label="Charity" value={f.charity?.name ?? 'None chosen'} />
            <Fact label="Raised" value={`${formatMoney(f.raised)} of ${formatMoney(f.target)}`} />
            <Fact label="Target" value={f.target_reason ? `${formatMoney(f.target)} (changed from the trip's ${formatMoney(f.trip_minimum)}: ${f.target_reason})` : `${formatMoney(f.target)} (the trip's minimum)`} />
            <Fact
              label="Page"
              value={
                f.page_url ? (
                  <Anchor href={f.page_url} target="_blank" rel="noopener noreferrer" size="sm" style={{ wordBreak: 'break-all' }}>
                    {f.page_url}
                  </Anchor>
                ) : (
                  'None given'
                )
              }
            />
            <Fact label="Milestones" value={f.milestones.length ? f.milestones.map((m) => `${m.percent}% (${formatMoney(m.amount)}) by ${formatShortDate(m.due)}`).join('; ') : 'None'} />
            <Fact label="Charity's acknowledgement" value={f.acknowledged_at ? `${f.acknowledged_by ?? 'The charity'} on ${formatShortDate(f.acknowledged_at)}` : 'Not acknowledged yet'} />
          </SimpleGrid>
          <DataTable
            columns={columns}
            data={f.entries}
            rowKey={(e) => e.id}
            empty={f.fundraises ? 'Nothing raised has been recorded yet.' : 'This booking does not fundraise: change its funding to Fundraise or Flexi to record sponsorship.'}
            caption="Amounts raised to date; a struck-out one is no longer counted"
          />
        </>
      )}
      {dialog?.kind === 'entry' && <EntryDialog bookingId={bookingId} onClose={close} onDone={done} />}
      {dialog?.kind === 'target' && f && <TargetDialog bookingId={bookingId} fundraising={f} onClose={close} onDone={done} />}
      {dialog?.kind === 'strike' && (
        <ReasonDialog
          title="Strike out an amount raised"
          above={
            <Text size="sm">
              {formatMoney(dialog.entry.amount)} ({ENTRY_SOURCE_LABELS[dialog.entry.source]}, {formatShortDate(dialog.entry.date)}) stays in view, struck out, and is no longer counted. Say why, for the history.
            </Text>
          }
          submitLabel="Strike Out"
          required="Say why the entry is struck out."
          save={(reason) => strikeFundraisingEntry(dialog.entry.id, reason)}
          invalidate={[bookingKeys.one(bookingId)]}
          fallback="Sorry, the entry could not be struck out. Please try again."
          onDone={() => done(`${formatMoney(dialog.entry.amount)} has been struck out.`)}
          onClose={close}
        />
      )}
    </BookingPanel>
  );
}

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" w={170} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {value}
      </Text>
    </Group>
  );
}
