import { Alert, Stack, Switch, Text } from '@mantine/core';
import type { QueryKey } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import type { RemindersSetting } from '../../contract/schedules.ts';
import { useFormMutation } from '../lib/mutation.ts';
import { useCan } from '../lib/session.tsx';
import { ServerAlert } from './form-frame.tsx';
import { lazyComponent } from './lazy.tsx';

// the reason's dialog (and react-hook-form) loads when reminders are first turned off
const ReasonDialog = lazyComponent(() =>
  import('./reason-dialog.tsx').then((m) => m.ReasonDialog<{ message: string }>),
);

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
  /** payment reminders, or passport and forms chasers */
  kind?: 'reminders' | 'chasers';
};

const WORDS = {
  reminders: {
    label: 'Send automatic reminders',
    on: (whom: string) => `Payment reminders are emailed for ${whom} before and after each instalment is due.`,
    title: 'Turn automatic reminders off',
    above: (none: string) =>
      `No payment reminders will be emailed for ${none} until they are turned on again. Say why, for the history.`,
    submit: 'Turn Reminders Off',
    required: 'Say why automatic reminders are turned off.',
    fallback: 'Sorry, the reminders setting could not be changed. Please try again.',
  },
  chasers: {
    label: 'Send automatic chasers',
    on: () =>
      'While the passport or the forms are not green, the traveller is emailed a week after booking, then every two weeks, then weekly from 8 weeks before departure; a fundraiser, a week before each milestone not yet reached.',
    title: 'Turn automatic chasers off',
    above: (none: string) =>
      `No passport, forms or fundraising chasers will be emailed for ${none} until they are turned on again (each one skipped is in the history). Say why, for the history.`,
    submit: 'Turn Chasers Off',
    required: 'Say why automatic chasers are turned off.',
    fallback: 'Sorry, the chasers setting could not be changed. Please try again.',
  },
} as const;

/**
 * "Send automatic reminders", for a booking or a whole trip, and "Send automatic
 * chasers" for a booking: turning it on is one click; turning it off asks why, and
 * the reason stays in view while it is off. A member whose team may not change them (reminders are
 * money's, chasers bookings') sees only whether they are on.
 */
export function RemindersSwitch({ off, reason, scope, save, invalidate, note, kind = 'reminders' }: Props) {
  const words = WORDS[kind];
  const may = useCan();
  const [asking, setAsking] = useState(false);
  const switchRef = useRef<HTMLInputElement>(null);
  // the dialog goes when it closes: the focus comes back to the switch
  const stopAsking = () => {
    setAsking(false);
    requestAnimationFrame(() => switchRef.current?.focus());
  };
  const [notice, setNotice] = useState<string | null>(null);
  const turningOn = useFormMutation({
    mutationFn: save,
    invalidate,
    fallback: words.fallback,
    onSuccess: (res) => setNotice(res.message),
  });
  const whom = scope === 'booking' ? 'this booking' : 'every booking of this trip';
  const none = scope === 'booking' ? 'this booking' : 'any booking of this trip';
  const toggle = (send: boolean) => {
    setNotice(null);
    turningOn.clearFailure();
    if (send) void turningOn.submit({ send: true });
    else setAsking(true);
  };
  if (!may(kind === 'chasers' ? 'bookings' : 'finance'))
    return (
      <Stack gap={6}>
        {off !== undefined && (
          <Text size="sm" c={off ? '#7a4100' : undefined} fw={off ? 600 : undefined}>
            {words.label}: {off ? `off for ${whom}${reason ? `: ${reason}` : '.'}` : `on for ${whom}.`}
          </Text>
        )}
        {note}
      </Stack>
    );
  return (
    <Stack gap={6}>
      <Switch
        ref={switchRef}
        label={words.label}
        checked={off === false}
        disabled={off === undefined || turningOn.isPending}
        onChange={(e) => toggle(e.currentTarget.checked)}
        description={
          off ? `Off for ${whom}${reason ? `: ${reason}` : '.'}` : off === false && !note ? words.on(whom) : undefined
        }
        styles={{ description: off ? { color: '#7a4100', fontWeight: 600 } : undefined }}
      />
      {note}
      {notice && (
        <Alert
          color="blue"
          variant="light"
          role="status"
          py={6}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
        >
          <Text size="sm">{notice}</Text>
        </Alert>
      )}
      <ServerAlert failure={turningOn.failure} variant="light" />
      {asking && (
        <ReasonDialog
          title={words.title}
          above={<Text size="sm">{words.above(none)}</Text>}
          submitLabel={words.submit}
          required={words.required}
          save={(r) => save({ send: false, reason: r })}
          invalidate={invalidate}
          fallback={words.fallback}
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
