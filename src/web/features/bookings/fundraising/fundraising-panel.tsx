import { Anchor, Button, Group, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { useState } from 'react';
import { ENTRY_SOURCE_LABELS } from '../../../../contract/fundraising-constants.ts';
import type { FundraisingEntry } from '../../../../contract/fundraising.ts';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { lazyComponent } from '../../../components/lazy.tsx';
import { entryColumns, StandingBadge, standingText } from '../../../components/fundraising.tsx';
import { formatMoney, formatShortDate } from '../../../lib/format.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useCan } from '../../../lib/session.tsx';
import { bookingKeys } from '../api/bookings.ts';
import { strikeFundraisingEntry, useFundraising } from '../api/fundraising.ts';
import { BookingPanel } from '../booking-panel.tsx';

// the dialogs (their forms, the date picker) load when first opened
const EntryDialog = lazyComponent(() => import('./entry-dialog.tsx').then((m) => m.EntryDialog));
const TargetDialog = lazyComponent(() => import('./target-dialog.tsx').then((m) => m.TargetDialog));
const ReasonDialog = lazyComponent(() =>
  import('../../../components/reason-dialog.tsx').then((m) => m.ReasonDialog<unknown>),
);

type Dialog = { kind: 'entry' } | { kind: 'target' } | { kind: 'strike'; entry: FundraisingEntry } | null;

/**
 * The booking page's Fundraising panel: the target (the trip's minimum unless
 * changed), the page, what is raised and how it stands against the milestones, the charity's
 * acknowledgement, and the raised-to-date entries (added; struck out with a reason, never edited).
 * Sponsorship is not trip money: nothing here touches the invoices. A team that may only read the
 * charities' fundraising sees it without the buttons.
 */
export function FundraisingPanel({ bookingId }: { bookingId: number }) {
  const changes = useCan()('charities');
  const query = useFundraising(bookingId);
  const [notice, setNotice] = useState<string | null>(null);
  const { dialog, open, close } = useDialog<NonNullable<Dialog>>(() => setNotice(null));
  const done = (text: string) => {
    close();
    setNotice(text);
  };
  const f = query.data;

  const columns: Array<Column<FundraisingEntry>> = entryColumns<FundraisingEntry>();
  if (changes)
    columns.push({
      key: 'actions',
      label: 'Action',
      cell: (e) =>
        e.struck_at ? null : (
          <Button
            size="xs"
            variant="default"
            onClick={() => open({ kind: 'strike', entry: e })}
            aria-label={`Strike out ${formatMoney(e.amount)} of ${formatShortDate(e.date)}`}
          >
            Strike out
          </Button>
        ),
    });

  return (
    <BookingPanel
      id="fundraising"
      title="Fundraising"
      notice={notice}
      onDismiss={() => setNotice(null)}
      actions={
        changes && f?.fundraises ? (
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
            <StandingBadge state={f.state} />
            <Text size="sm" fw={600} data-testid="fundraising-standing">
              {standingText(f)}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={4}>
            <Fact label="Charity" value={f.charity?.name ?? 'None chosen'} />
            <Fact label="Raised" value={`${formatMoney(f.raised)} of ${formatMoney(f.target)}`} />
            <Fact
              label="Target"
              value={
                f.target_reason
                  ? `${formatMoney(f.target)} (changed from the trip's ${formatMoney(f.trip_minimum)}: ${f.target_reason})`
                  : `${formatMoney(f.target)} (the trip's minimum)`
              }
            />
            <Fact
              label="Page"
              value={
                f.page_url ? (
                  <Anchor
                    href={f.page_url}
                    target="_blank"
                    rel="noopener noreferrer"
                    size="sm"
                    style={{ wordBreak: 'break-all' }}
                  >
                    {f.page_url}
                  </Anchor>
                ) : (
                  'None given'
                )
              }
            />
            <Fact
              label="Milestones"
              value={
                f.milestones.length
                  ? f.milestones
                      .map((m) => `${m.percent}% (${formatMoney(m.amount)}) by ${formatShortDate(m.due)}`)
                      .join('; ')
                  : 'None'
              }
            />
            <Fact
              label="Charity's acknowledgement"
              value={
                f.acknowledged_at
                  ? `${f.acknowledged_by ?? 'The charity'} on ${formatShortDate(f.acknowledged_at)}`
                  : 'Not acknowledged yet'
              }
            />
          </SimpleGrid>
          <DataTable
            columns={columns}
            data={f.entries}
            rowKey={(e) => e.id}
            empty={
              f.fundraises
                ? 'Nothing raised has been recorded yet.'
                : 'This booking does not fundraise: change its funding to Fundraise or Flexi to record sponsorship.'
            }
            caption="Amounts raised to date; a struck-out one is no longer counted"
          />
        </>
      )}
      {dialog?.kind === 'entry' && <EntryDialog bookingId={bookingId} onClose={close} onDone={done} />}
      {dialog?.kind === 'target' && f && (
        <TargetDialog bookingId={bookingId} fundraising={f} onClose={close} onDone={done} />
      )}
      {dialog?.kind === 'strike' && (
        <ReasonDialog
          title="Strike out an amount raised"
          above={
            <Text size="sm">
              {formatMoney(dialog.entry.amount)} ({ENTRY_SOURCE_LABELS[dialog.entry.source]},{' '}
              {formatShortDate(dialog.entry.date)}) stays in view, struck out, and is no longer counted. Say why, for
              the history.
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
