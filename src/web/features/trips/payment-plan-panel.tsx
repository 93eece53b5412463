import { Alert, Skeleton, Text, Title } from '@mantine/core';
import { useCallback, useState } from 'react';
import {
  DEFAULT_BALANCE_DAYS_BEFORE_DEPARTURE,
  DEFAULT_DEPOSIT_DUE_DAYS,
} from '../../../contract/schedule-constants.ts';
import type { PaymentPlan } from '../../../contract/schedules.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { lazyComponent } from '../../components/lazy.tsx';
import { RemindersSwitch } from '../../components/reminders-switch.tsx';
import { formatMoney, formatShortDate } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { setTripReminders, usePaymentPlan } from './api/payment-plan.ts';
import { tripKeys } from './api/trips.ts';
import { TripPanel } from './trip-panel.tsx';

// the editor (its form, the monthly helper, the date picker) loads beside the preview
const PlanEditor = lazyComponent(() => import('./plan-editor.tsx').then((m) => m.PlanEditor));

type Scheduled = PaymentPlan['preview'][number];

const previewColumns: Array<Column<Scheduled>> = [
  { key: 'label', label: 'Instalment', cell: (r) => r.label },
  { key: 'due', label: 'Due', cell: (r) => formatShortDate(r.due_date) },
  { key: 'amount', label: 'Amount', align: 'right', cell: (r) => formatMoney(r.amount) },
];

/**
 * The trip's payment plan: the instalments every new booking's schedule is made from,
 * the schedule a booking made today would get, and the trip's "Send automatic reminders".
 * Finance read shows them; finance change edits the plan (the switch checks its own permission).
 */
export function PaymentPlanPanel({ tripId, editable }: { tripId: number; editable: boolean }) {
  const may = useCan();
  const canEdit = editable && may('finance');
  const plan = usePaymentPlan(tripId);
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState(false);
  const onDirty = useCallback((d: boolean) => {
    setDirty(d);
    if (d) setSaved(false);
  }, []);
  const p = plan.data;

  return (
    <TripPanel title="Payment plan" failure={null}>
      <RemindersSwitch
        scope="trip"
        off={plan.data?.reminders_off}
        reason={plan.data?.reminders_off_reason}
        save={(setting) => setTripReminders(tripId, setting)}
        invalidate={[tripKeys.one(tripId)]}
      />
      {plan.isPending ? (
        <Skeleton height={120} radius="sm" />
      ) : !p ? (
        <Alert color="red" role="alert">
          The payment plan could not be loaded. Please refresh the page and try again.
        </Alert>
      ) : (
        <>
          {p.is_default && (
            <Alert color="blue" variant="light" title="The default plan">
              This trip is on the default plan: the trip's deposit {DEFAULT_DEPOSIT_DUE_DAYS} days after booking, and
              the rest {DEFAULT_BALANCE_DAYS_BEFORE_DEPARTURE} days before departure.
              {canEdit && ' Save a plan below to give it its own.'}
            </Alert>
          )}
          {saved && (
            <Alert
              color="blue"
              role="status"
              withCloseButton
              closeButtonLabel="Dismiss"
              onClose={() => setSaved(false)}
            >
              Payment plan saved. New bookings get schedules from it; bookings already made keep theirs (each can be
              rebuilt from its booking page).
            </Alert>
          )}
          {/* a new saved plan starts a fresh editor */}
          <PlanEditor
            key={JSON.stringify(p.instalments)}
            tripId={tripId}
            plan={p}
            editable={canEdit}
            onDirty={onDirty}
            onSaved={() => setSaved(true)}
          />

          {/* a trip that has departed (or was deleted) takes no new bookings */}
          {editable && (
            <>
              <Title order={3} size="h5" mt="sm">
                A booking made today would get
              </Title>
              {dirty && (
                <Text size="sm" c="#7a4100">
                  This is the saved plan's schedule: save the plan to see your changes here.
                </Text>
              )}
              <DataTable
                columns={previewColumns}
                data={p.preview}
                rowKey={(r) => r.position}
                empty={`The trip's cost is ${formatMoney(p.cost)}, so a booking made today would owe nothing.`}
                tableProps={{ maw: 640 }}
              />
              {p.preview.length > 0 && (
                <Text size="sm" c="dimmed">
                  {formatMoney(p.preview.reduce((sum, r) => sum + Math.round(r.amount * 100), 0) / 100)} in all: the
                  trip's cost of {formatMoney(p.cost)}, with a deposit of {formatMoney(p.deposit)}.
                </Text>
              )}
            </>
          )}
        </>
      )}
    </TripPanel>
  );
}
