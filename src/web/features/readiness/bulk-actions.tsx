import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ChaserResult } from '../../../contract/chasers.ts';
import type { ReadinessRow } from '../../../contract/readiness.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { lazyComponent } from '../../components/lazy.tsx';
import { plural } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { readinessKey, sendDocuments } from './api/readiness.ts';

// the dialog (and Modal) loads when first opened: the board itself stays light
const ChaserDialog = lazyComponent(() => import('./chaser-dialog.tsx').then((m) => m.ChaserDialog));

/**
 * The board's bulk actions for the ticked travellers: "Send chaser…" (choose the
 * passport, the forms or both; green checks and travellers with chasers off are left alone) and
 * "Send documents" (the trip's uploaded documents, attached). What became of each is said after.
 */
export function BulkActions({
  tripId,
  ticked,
  onDone,
}: {
  tripId: number;
  ticked: ReadinessRow[];
  onDone: () => void;
}) {
  const [choosing, setChoosing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<ChaserResult | null>(null);
  const ids = ticked.map((r) => r.booking_id);
  const invalidate = [readinessKey(tripId)];
  const documents = useFormMutation({
    mutationFn: sendDocuments,
    invalidate,
    fallback: 'Sorry, the documents could not be sent. Please try again.',
    onSuccess: (res) => {
      setConfirming(false);
      setResult(res);
      onDone();
    },
  });
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="center" mih={36}>
        <Text size="sm" c={ticked.length ? undefined : 'dimmed'} role="status">
          {ticked.length
            ? `${plural(ticked.length, 'traveller')} ticked.`
            : 'Tick travellers to chase them or send them the trip’s documents.'}
        </Text>
        <Group gap="xs">
          <Button variant="default" disabled={!ticked.length} onClick={() => (setResult(null), setChoosing(true))}>
            Send chaser…
          </Button>
          <Button
            variant="default"
            disabled={!ticked.length}
            onClick={() => (setResult(null), documents.clearFailure(), setConfirming(true))}
          >
            Send documents
          </Button>
        </Group>
      </Group>
      {documents.failure && !confirming && (
        <Alert color="red" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={documents.clearFailure}>
          {documents.failure}
        </Alert>
      )}
      {result && (
        <Alert
          color={result.failed.length || result.sent.length === 0 ? 'orange' : 'green'}
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setResult(null)}
        >
          {result.message}
          {result.skipped.length > 0 && (
            <Text size="xs" mt={4}>
              {result.skipped
                .slice(0, 6)
                .map(
                  (s) =>
                    `${ticked.find((r) => r.booking_id === s.booking_id)?.traveller ?? `Booking ${s.booking_id}`}: ${s.reason}`,
                )
                .join(' ')}
              {result.skipped.length > 6 ? ` And ${result.skipped.length - 6} more.` : ''}
            </Text>
          )}
        </Alert>
      )}
      {choosing && (
        <ChaserDialog
          tripId={tripId}
          ticked={ticked}
          onClose={() => setChoosing(false)}
          onSent={(res) => {
            setChoosing(false);
            setResult(res);
            onDone();
          }}
        />
      )}
      <ConfirmDialog
        opened={confirming}
        title="Send the trip’s documents"
        message={`Email the trip’s documents, attached, to ${plural(ids.length, 'ticked traveller')}? Travellers who already have them get them again.`}
        confirmLabel="Send Documents"
        cancelLabel="Cancel"
        busy={documents.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void documents.submit({ tripId, bookingIds: ids })}
      />
    </Stack>
  );
}
