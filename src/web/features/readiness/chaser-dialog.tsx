import { Checkbox, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ChaserCheck, ChaserResult } from '../../../contract/chasers.ts';
import {
  CHASER_CHECKS,
  READINESS_CHECK_LABELS,
  SCHOOL_ONLY_CHECKS,
  type ReadinessCheck,
} from '../../../contract/readiness-constants.ts';
import type { ReadinessRow } from '../../../contract/readiness.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useFormMutation } from '../../lib/mutation.ts';
import { readinessKey, sendChasers } from './api/readiness.ts';
import { plural } from '../../lib/format.ts';

/** "Send chaser": what to chase for the ticked travellers, starting with what any of them still lacks. */
export function ChaserDialog({
  tripId,
  ticked,
  onClose,
  onSent,
}: {
  tripId: number;
  ticked: ReadinessRow[];
  onClose: () => void;
  onSent: (r: ChaserResult) => void;
}) {
  const needing = (c: ReadinessCheck) => ticked.filter((r) => r.checks[c].state !== 'green').length;
  // what to chase starts as what any ticked traveller still lacks: the passport and the forms (a
  // parent's consent, asked on school trips only, is ticked by choice)
  const [checks, setChecks] = useState<ChaserCheck[]>(
    CHASER_CHECKS.filter((c) => !SCHOOL_ONLY_CHECKS.includes(c) && needing(c) > 0),
  );
  const [error, setError] = useState<string | null>(null);
  const sending = useFormMutation({
    mutationFn: sendChasers,
    invalidate: [readinessKey(tripId)],
    fallback: 'Sorry, the chasers could not be sent. Please try again.',
    onSuccess: onSent,
  });
  return (
    <FormDialog
      title="Send chaser"
      onClose={onClose}
      submitLabel="Send Chaser"
      submitting={sending.isPending}
      failure={sending.failure}
      onSubmit={(e) => {
        e.preventDefault();
        if (!checks.length) return setError('Choose what to chase: the passport, the forms or both.');
        void sending.submit({ tripId, bookingIds: ticked.map((r) => r.booking_id), checks });
      }}
      above={
        <Text size="sm">
          An email now to{' '}
          {ticked.length === 1 ? 'the ticked traveller' : `each of the ${plural(ticked.length, 'ticked traveller')}`}{' '}
          for each check chosen that is not green. Travellers whose automatic chasers are off are left out.
        </Text>
      }
    >
      <Checkbox.Group
        label="Chase"
        value={checks}
        onChange={(v) => (setError(null), setChecks(v as ChaserCheck[]))}
        error={error}
        withAsterisk
      >
        <Stack gap={6} mt={6}>
          {CHASER_CHECKS.filter((c) => !SCHOOL_ONLY_CHECKS.includes(c) || needing(c) > 0).map((c) => (
            <Checkbox
              key={c}
              value={c}
              label={`${READINESS_CHECK_LABELS[c]} (${needing(c)} of ${ticked.length} not green)`}
            />
          ))}
        </Stack>
      </Checkbox.Group>
    </FormDialog>
  );
}
