import { Alert, Stack, Switch, Text } from '@mantine/core';
import type { QueryKey } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import type { RemindersSetting } from '../../contract/schedules.ts';
import { useFormMutation } from '../lib/mutation.ts';
import { ServerAlert } from './form-frame.tsx';
import { lazyComponent } from './lazy.tsx';

// the reason's dialog (and react-hook-form) loads when reminders are first turned off
const ReasonDialog = lazyComponent(() => import('./reason-dialog.tsx').then((m) => m.ReasonDialog<{ message: string }>));

type Props = {
  /** reminders are off; undefined while not yet known */
  off: boolean | undefined;
  reason: string | null | undefined;
  /** 'booking': this booking only; 'trip': every booking of the trip */
  scope: 'booking' | 'trip';
  save: (setting: RemindersSetting) => Promise<{ message: string }>;
  invalidate: QueryKey[];
  /** a standing remark under the switch (the trip has them off), in place of the description of "on" */
  note?: ReactNode;
};

const FALLBACK = 'Sorry, the reminders setting could not be changed. Please try again.';

/**
 * "Send automatic reminders" (issue 17), for a booking or a whole trip: turning it on is one
 * click; turning it off asks why, and the reason stays in view while it is off.
 */
export function RemindersSwitch({ off, reason, scope, save, invalidate, note }: Props) {
  const [asking, setAsking] = useState(false);
  const switchRef = useRef<HTMLInputElement>(null);
  // the dialog goes when it closes: the focus comes back to the switch
  const stopAsking = () => {
    setAsking(false);
    requestAnimationFrame(() => switchRef.current?.focus());
  };
  const [notice, setNotice] = useState<string | null>(null);
  const turningOn = useFormMutation({ mutationFn: save, invalidate, fallback: FALLBACK, onSuccess: (res) => setNotice(res.message) });
  const whom = scope === 'booking' ? 'this booking' : 'every booking of this trip';
  const none = scope === 'booking' ? 'this booking' : 'any booking of this trip';
  const toggle = (send: boolean) => {
    setNotice(null);
    turningOn.clearFailure();
    if (send) void turningOn.submit({ send: true });
    else setAsking(true);
  };
  return (
    <Stack gap={6}>
      <Switch
        ref={switchRef}
        label="Send automatic reminders"
        checked={off === false}
        disabled={off === undefined || turningOn.isPending}
        onChange={(e) => toggle(e.currentTarget.checked)}
        description={off ? `Off for ${whom}${reason ? `: ${reason}` : '.'}` : off === false && !note ? `Payment reminders are emailed for ${whom} before and after each instalment is due.` : undefined}
        styles={{ description: off ? { color: '#7a4100', fontWeight: 600 } : undefined }}
      />
      {note}
      {notice && (
        <Alert color="blue" variant="light" role="status" py={6} withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          <Text size="sm">{notice}</Text>
        </Alert>
      )}
      <ServerAlert failure={turningOn.failure} variant="light" />
      {asking && (
        <ReasonDialog
          title="Turn automatic reminders off"
          above={<Text size="sm">No payment reminders will be emailed for {none} until they are turned on again. Say why, for the history.</Text>}
          submitLabel="Turn Reminders Off"
          required="Say why automatic reminders are turned off."
          save={(r) => save({ send: false, reason: r })}
          invalidate={invalidate}
          fallback={FALLBACK}
          onDone={(res) => {
            stopAsking();
            setNotice(res.message);
          }}
          onClose={stopAsking}
        />
      )}
    </Stack>
  );
}
