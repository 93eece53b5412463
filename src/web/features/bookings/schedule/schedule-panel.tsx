import { Anchor, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { BookingDetail } from '../../../../contract/bookings.ts';
import { path } from '../../../../contract/paths.ts';
import { SCHEDULE_STATE_LABELS, type ScheduleState } from '../../../../contract/schedule-constants.ts';
import type { ScheduleRow } from '../../../../contract/schedules.ts';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { DestructiveButton } from '../../../components/form-frame.tsx';
import { lazyComponent } from '../../../components/lazy.tsx';
import { RemindersSwitch } from '../../../components/reminders-switch.tsx';
import { ToneBadge, type Tone } from '../../../components/status-badge.tsx';
import { formatMoney, formatShortDate } from '../../../lib/format.ts';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useFormMutation } from '../../../lib/mutation.ts';
import { useCan } from '../../../lib/session.tsx';
import {
  changeScheduleRow,
  rebuildSchedule,
  scheduleChangeKeys,
  sendReminderNow,
  setBookingReminders,
  useSchedule,
} from '../api/schedule.ts';
import { BookingPanel } from '../booking-panel.tsx';

// the dialogs (their form, the date picker) load when first opened, not with the booking page
const ChangeRowDialog = lazyComponent(() => import('./change-row-dialog.tsx').then((m) => m.ChangeRowDialog));
const ReasonDialog = lazyComponent(() =>
  import('../../../components/reason-dialog.tsx').then((m) => m.ReasonDialog<unknown>),
);

const STATE_TONE: Record<ScheduleState, Tone> = {
  scheduled: 'neutral',
  invoiced: 'info',
  paid: 'good',
  overdue: 'bad',
  waived: 'warn',
};

type Dialog = { kind: 'change' | 'waive'; row: ScheduleRow } | null;

const invoicedId = (row: ScheduleRow) => `instalment-invoiced-${row.id}`;

/**
 * The booking's payment schedule: each instalment's due date, amount, invoice and
 * state; move or change one before it is invoiced, waive one with a reason, rebuild the schedule
 * from the trip's plan, remind the traveller now, and their automatic reminders on or off. A team
 * that may only read money sees the schedule without its actions.
 */
export function SchedulePanel({ booking }: { booking: BookingDetail }) {
  const may = useCan();
  const changes = may('finance');
  const schedule = useSchedule(booking.id);
  const [notice, setNotice] = useState<string | null>(null);
  const [unwaivingId, setUnwaivingId] = useState<number | null>(null);
  const changed = scheduleChangeKeys(booking.id);

  const reminding = useFormMutation({
    mutationFn: (_: void) => sendReminderNow(booking.id),
    invalidate: changed,
    fallback: 'Sorry, the reminder could not be sent. Please try again.',
    onSuccess: (res) => setNotice(res.message),
  });
  const rebuilding = useFormMutation({
    mutationFn: (_: void) => rebuildSchedule(booking.id),
    invalidate: changed,
    fallback: 'Sorry, the schedule could not be rebuilt. Please refresh the page and try again.',
    onSuccess: () => setNotice("The schedule has been made from the trip's payment plan."),
  });
  const unwaiving = useFormMutation({
    mutationFn: (row: ScheduleRow) => changeScheduleRow(row.id, { waived: false }),
    invalidate: changed,
    fallback: 'Sorry, the instalment could not be changed. Please try again.',
    onSuccess: (_, row) => setNotice(`${row.label} is no longer waived.`),
  });
  // one message at a time: a new action clears the last one's
  const clearMessages = () => {
    setNotice(null);
    reminding.clearFailure();
    rebuilding.clearFailure();
    unwaiving.clearFailure();
  };
  // the dialogs go when they close: the focus goes back to the button that opened them
  const { dialog, open, close } = useDialog<NonNullable<Dialog>>(clearMessages);
  const done = (text: string) => {
    close();
    setNotice(text);
  };
  const run = (action: () => Promise<boolean>) => {
    clearMessages();
    return action();
  };

  const unwaive = async (row: ScheduleRow) => {
    clearMessages();
    setUnwaivingId(row.id);
    await unwaiving.submit(row);
    setUnwaivingId(null);
  };

  const data = schedule.data;
  const rows = data?.rows ?? [];
  // something invoiced is still owed: there is something to remind the traveller of
  const owing =
    booking.status !== 'cancelled' &&
    rows.some((r) => r.invoice_id !== null && r.outstanding > 0 && r.state !== 'waived' && r.state !== 'paid');

  const columns: Array<Column<ScheduleRow>> = [
    {
      key: 'label',
      label: 'Instalment',
      cell: (r) => (
        <>
          <Text fw={600} size="sm">
            {r.label}
          </Text>
          {r.state === 'waived' && r.waived_reason && (
            <Text size="xs" c="dimmed">
              Waived: {r.waived_reason}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'due',
      label: 'Due',
      cellProps: () => ({ style: { whiteSpace: 'nowrap' } }),
      cell: (r) => (
        <Text size="sm" c={r.state === 'overdue' ? 'red.9' : undefined} fw={r.state === 'overdue' ? 600 : undefined}>
          {formatShortDate(r.due_date)}
        </Text>
      ),
    },
    { key: 'amount', label: 'Amount', align: 'right', cell: (r) => formatMoney(r.amount) },
    {
      key: 'invoice',
      label: 'Invoice',
      cell: (r) =>
        r.invoice_id !== null ? (
          <Anchor component={Link} to={path('invoice-view', { id: r.invoice_id })} size="sm">
            {r.invoice_ref}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            Not yet
          </Text>
        ),
    },
    { key: 'outstanding', label: 'Outstanding', align: 'right', cell: (r) => formatMoney(r.outstanding) },
    {
      key: 'state',
      label: 'State',
      cell: (r) => <ToneBadge tone={STATE_TONE[r.state]}>{SCHEDULE_STATE_LABELS[r.state]}</ToneBadge>,
    },
  ];
  if (changes)
    columns.push({
      key: 'actions',
      label: 'Actions',
      cell: (r) => (
        <Group gap={6} wrap="nowrap" w="max-content">
          <Button
            size="xs"
            variant="default"
            disabled={r.invoice_id !== null}
            onClick={() => open({ kind: 'change', row: r })}
            aria-label={`Change ${r.label}`}
            aria-describedby={r.invoice_id !== null ? invoicedId(r) : undefined}
          >
            Change
          </Button>
          {r.state === 'waived' ? (
            <Button
              size="xs"
              variant="default"
              loading={unwaivingId === r.id}
              onClick={() => void unwaive(r)}
              aria-label={`Un-waive ${r.label}`}
            >
              Un-waive
            </Button>
          ) : (
            r.state !== 'paid' && (
              <Button
                size="xs"
                variant="default"
                onClick={() => open({ kind: 'waive', row: r })}
                aria-label={`Waive ${r.label}`}
              >
                Waive
              </Button>
            )
          )}
          {r.invoice_id !== null && (
            // why Change is unavailable, in words (it describes the button too)
            <Text size="xs" c="dimmed" id={invoicedId(r)} maw={150} lh={1.3}>
              Invoiced: change its invoice instead
            </Text>
          )}
        </Group>
      ),
    });

  const rebuild =
    changes &&
    data?.can_rebuild &&
    (rows.length === 0 ? (
      <Button variant="default" loading={rebuilding.isPending} onClick={() => void run(() => rebuilding.submit())}>
        Rebuild from plan
      </Button>
    ) : (
      <DestructiveButton
        label="Rebuild from plan"
        title="Rebuild from plan"
        message="The schedule will be made again from the trip's payment plan: dates and amounts changed here, and waived instalments, are replaced. Nothing on it has been invoiced yet."
        confirmLabel="Yes, Rebuild the Schedule"
        cancelLabel="No, Cancel"
        onConfirm={() => run(() => rebuilding.submit())}
      />
    ));

  return (
    <BookingPanel
      id="payment-schedule"
      title="Payment schedule"
      actions={
        <Group gap="xs">
          {changes && owing && (
            <Button variant="default" loading={reminding.isPending} onClick={() => void run(() => reminding.submit())}>
              Send reminder now
            </Button>
          )}
          {rebuild}
        </Group>
      }
      intro={
        <RemindersSwitch
          scope="booking"
          off={data?.reminders_off}
          reason={data?.reminders_off_reason}
          save={(setting) => setBookingReminders(booking.id, setting)}
          invalidate={changed}
          note={
            data?.trip_reminders_off && (
              <Text size="sm" c="#7a4100">
                Automatic reminders are off for this trip, so none are sent for this booking until they are turned on
                again on{' '}
                {may('trips', 'read') ? (
                  <Anchor component={Link} to={path('trip-edit', { id: booking.trip.id })} inherit>
                    the trip's page
                  </Anchor>
                ) : (
                  "the trip's page"
                )}
                .
              </Text>
            )
          }
        />
      }
      notice={notice}
      onDismiss={() => setNotice(null)}
      failure={reminding.failure ?? rebuilding.failure ?? unwaiving.failure}
    >
      <DataTable
        columns={columns}
        query={{
          data: data?.rows,
          isPending: schedule.isPending,
          isFetching: schedule.isFetching,
          isError: schedule.isError,
        }}
        failed="The payment schedule could not be loaded. Please refresh the page and try again."
        rowKey={(r) => r.id}
        empty="This booking has no payment schedule yet."
        rowProps={(r) => ({ 'data-testid': `instalment-${r.position}` })}
      />

      {dialog?.kind === 'change' && (
        <ChangeRowDialog bookingId={booking.id} row={dialog.row} onClose={close} onDone={done} />
      )}
      {dialog?.kind === 'waive' && (
        <ReasonDialog
          title={`Waive ${dialog.row.label}`}
          above={
            <Text size="sm">
              {formatMoney(dialog.row.amount)} due {formatShortDate(dialog.row.due_date)} will not be asked for:{' '}
              {dialog.row.invoice_id === null
                ? 'no invoice or reminder is sent for it.'
                : `no more reminders are sent for it (invoice ${dialog.row.invoice_ref} stays as it is).`}{' '}
              Say why, for the history.
            </Text>
          }
          submitLabel="Waive Instalment"
          required="Say why the instalment is waived."
          save={(reason) => changeScheduleRow(dialog.row.id, { waived: true, reason })}
          invalidate={changed}
          fallback="Sorry, the instalment could not be changed. Please try again."
          onDone={() => done(`${dialog.row.label} has been waived.`)}
          onClose={close}
        />
      )}
    </BookingPanel>
  );
}
