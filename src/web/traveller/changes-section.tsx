import { Alert, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { MyChanges } from '../../contract/changes.ts';
import { api, ApiError } from '../lib/api.ts';
import { formatLongDate, formatMoney } from '../lib/format.ts';

type Kind = 'cancel' | 'change';
const ASKED: Record<Kind, string> = { cancel: 'to cancel', change: 'to change your booking' };
const STATE_WORDS = { open: 'with the office', done: 'done', declined: 'declined' } as const;

/**
 * The traveller's side of changes after booking: what cancelling would cost today (the office's
 * scale, the same figures staff see), and Ask to cancel / Ask to change. Nothing is done until
 * the office does it.
 */
export function ChangesSection({ bookingId }: { bookingId: number }) {
  const [data, setData] = useState<MyChanges | null>(null);
  const [failed, setFailed] = useState(false);
  const [asking, setAsking] = useState<Kind | null>(null);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    api<MyChanges>(`/api/my/bookings/${bookingId}/changes`)
      .then(setData)
      .catch(() => setFailed(true));
  }, [bookingId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!asking) return;
    setError(null);
    if (!message.trim()) return setError('Tell us what you would like.');
    setSending(true);
    try {
      setData(
        await api<MyChanges>(`/api/my/bookings/${bookingId}/changes`, {
          method: 'POST',
          body: { kind: asking, message: message.trim() },
        }),
      );
      setSent(`Thank you: we have your request ${ASKED[asking]}. The office will reply to you by email.`);
      setAsking(null);
      setMessage('');
    } catch (e) {
      setError(
        e instanceof ApiError
          ? (e.errors?.message?.[0] ?? e.message)
          : 'Your request could not be sent. Please try again.',
      );
    } finally {
      setSending(false);
    }
  };

  if (failed) return <Text size="sm">What a change would cost could not be loaded. Please try again later.</Text>;
  if (!data) return <Text size="sm">Loading…</Text>;
  const c = data.cancel;
  const open = new Set(data.requests.filter((r) => r.state === 'open').map((r) => r.kind));
  return (
    <Stack gap="sm">
      {sent && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setSent(null)}>
          {sent}
        </Alert>
      )}
      {data.requests.length > 0 && (
        <List spacing="xs" aria-label="Your requests">
          {data.requests.map((r) => (
            <List.Item key={r.id}>
              <Text size="sm">
                You asked {ASKED[r.kind]} on {formatLongDate(r.created_at)}: <strong>{STATE_WORDS[r.state]}</strong>
                {r.closed_note ? ` (${r.closed_note})` : ''}.
              </Text>
            </List.Item>
          ))}
        </List>
      )}
      {data.may_ask && (
        <>
          <Text size="sm">
            If you cancelled today ({c.days_before_departure} days before departure
            {c.band ? `; ${c.band.charAt(0).toLowerCase()}${c.band.slice(1)}` : ''}), we would keep{' '}
            <strong>{formatMoney(c.fee)}</strong>. You have paid {formatMoney(c.paid)}
            {c.refund_owed > 0
              ? `, so we would refund you ${formatMoney(c.refund_owed)}.`
              : c.still_owed > 0
                ? `, so ${formatMoney(c.still_owed)} of it would still be to pay.`
                : '.'}
          </Text>
          {asking ? (
            <form onSubmit={(e) => void submit(e)} noValidate aria-label={`Ask ${ASKED[asking]}`}>
              <Stack gap="sm">
                <Textarea
                  label={asking === 'cancel' ? 'Why you would like to cancel' : 'What you would like to change'}
                  description="Nothing is changed until the office confirms it with you."
                  autosize
                  minRows={3}
                  maxLength={2000}
                  size="md"
                  value={message}
                  onChange={(e) => setMessage(e.currentTarget.value)}
                  error={error}
                  required
                />
                <Button type="submit" size="lg" fullWidth loading={sending}>
                  Send my request
                </Button>
                <Button variant="subtle" size="md" onClick={() => setAsking(null)}>
                  Not now
                </Button>
              </Stack>
            </form>
          ) : (
            <Group grow>
              <Button
                variant="light"
                size="md"
                disabled={open.has('change')}
                onClick={() => {
                  setSent(null);
                  setAsking('change');
                }}
              >
                Ask to change
              </Button>
              <Button
                variant="light"
                color="red"
                size="md"
                disabled={open.has('cancel')}
                onClick={() => {
                  setSent(null);
                  setAsking('cancel');
                }}
              >
                Ask to cancel
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
