import { Button, List, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FUNDING_TYPE_LABELS } from '../../../contract/booking-constants.ts';
import { KEEP_LABELS } from '../../../contract/change-constants.ts';
import type { TripChangeRules } from '../../../contract/changes.ts';
import { formatPounds } from '../../../contract/pounds.ts';
import { DestructiveButton } from '../../components/form-frame.tsx';
import { api } from '../../lib/api.ts';
import { useCan } from '../../lib/session.tsx';
import { ChangeRulesForm } from '../../components/change-rules-form.tsx';
import { tripKeys } from './api/trips.ts';
import { TripPanel } from './trip-panel.tsx';

const keyOf = (tripId: number) => [...tripKeys.one(tripId), 'changes'] as const;

/** The fees for changes a trip is charged by: the office's, or its own where they differ (finance: read to see, change to set). */
export function ChangesPanel({ tripId, editable }: { tripId: number; editable: boolean }) {
  const queryClient = useQueryClient();
  const may = useCan();
  const rules = useQuery({
    queryKey: keyOf(tripId),
    queryFn: () => api<TripChangeRules>(`/api/trips/${tripId}/changes`),
  });
  const [setting, setSetting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const r = rules.data;
  const saved = (reply: TripChangeRules) => {
    queryClient.setQueryData(keyOf(tripId), reply);
    // the trip, its history and this panel
    void queryClient.invalidateQueries({ queryKey: tripKeys.one(tripId) });
  };
  return (
    <TripPanel
      title="Fees for changes"
      failure={rules.isError ? 'The fees for changes could not be loaded. Please refresh the page.' : failure}
    >
      {r && !r.own && !setting && (
        <>
          <Text size="sm">This trip uses the office’s fees for changes:</Text>
          <List size="sm" spacing={2}>
            {r.bands.map((b) => (
              <List.Item key={`${b.funding_type}-${b.from_days}`}>
                From {b.from_days} days before departure
                {b.funding_type ? ` (${FUNDING_TYPE_LABELS[b.funding_type].toLowerCase()} bookings)` : ''}:{' '}
                {b.keep === 'percent' ? `${b.percent} % of the trip cost` : KEEP_LABELS[b.keep].toLowerCase()} kept
              </List.Item>
            ))}
            <List.Item>
              Transfer {formatPounds(r.transfer_fee)}, move {formatPounds(r.move_fee)}
            </List.Item>
          </List>
          {editable && may('finance') && (
            <Button variant="default" w="fit-content" onClick={() => setSetting(true)}>
              Set This Trip’s Own
            </Button>
          )}
        </>
      )}
      {r && (r.own || setting) && (
        <ChangeRulesForm
          rules={r}
          url={`/api/trips/${tripId}/changes`}
          label="This trip’s fees for changes"
          bare
          readOnly={!may('finance')}
          note={
            r.own ? 'This trip has its own fees for changes.' : 'Starting from the office’s fees: change what differs.'
          }
          onSaved={(reply) => {
            saved(reply);
            setSetting(false);
          }}
          actions={
            !may('finance') ? undefined : r.own ? (
              <DestructiveButton
                label="Use the Office’s Fees"
                title="Use the office’s fees?"
                message="This trip’s own scale and fees are removed; its changes are charged by the office’s from now on."
                confirmLabel="Use the Office’s Fees"
                cancelLabel="Keep This Trip’s"
                onConfirm={async () => {
                  setFailure(null);
                  try {
                    saved(await api<TripChangeRules>(`/api/trips/${tripId}/changes`, { method: 'DELETE' }));
                  } catch {
                    setFailure('Sorry, the trip could not go back to the office’s fees. Please try again.');
                  }
                }}
              />
            ) : (
              <Button variant="subtle" onClick={() => setSetting(false)}>
                Keep the Office’s
              </Button>
            )
          }
        />
      )}
    </TripPanel>
  );
}
