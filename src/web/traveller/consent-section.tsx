import { Alert, Blockquote, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { CONSENT_GIVEN, CONSENT_WITHDRAWN, consentInputSchema, type MyBookingDetail } from '../../contract/my.ts';
import { api, ApiError } from '../lib/api.ts';
import { formatDateTime } from '../lib/format.ts';

/**
 * A school trip's consent (issue 37), on the parent's page for their child: the trip's wording,
 * agreed by typing their full name; once given, who gave it and when, and Withdraw (asked twice).
 */
export function ConsentSection({
  booking,
  onSaved,
}: {
  booking: MyBookingDetail;
  onSaved: (booking: MyBookingDetail) => void;
}) {
  const consent = booking.consent!;
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const given = consent.given_at !== null && consent.withdrawn_at === null;
  const open = !booking.departed && booking.status !== 'cancelled';
  const child = booking.form.first_name;

  const send = async (method: 'POST' | 'DELETE', body?: { full_name: string }) => {
    setBusy(true);
    try {
      const next = await api<MyBookingDetail>(`/api/my/bookings/${booking.id}/consent`, {
        method,
        ...(body ? { body } : {}),
      });
      onSaved(next);
      setDone(method === 'POST' ? CONSENT_GIVEN : CONSENT_WITHDRAWN);
      setName('');
      setConfirming(false);
    } catch (e) {
      setError(
        e instanceof ApiError
          ? (e.errors?.full_name?.[0] ?? e.message)
          : 'Your answer could not be saved. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  };
  const give = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const checked = consentInputSchema.safeParse({ full_name: name });
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? 'Type your full name.');
    setError(null);
    void send('POST', checked.data);
  };

  if (!consent.needed)
    return <Text size="sm">{child} is 18 or over when the trip leaves, so no parent’s consent is needed.</Text>;
  return (
    <Stack gap="sm">
      <Blockquote p="sm" color="blue" aria-label="What you agree to">
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {consent.text}
        </Text>
      </Blockquote>
      {done && (
        <Alert color="green" role="status">
          {done}
        </Alert>
      )}
      {given ? (
        <>
          <Text size="sm">
            <Text span fw={700}>
              Consent given
            </Text>{' '}
            by {consent.given_by} on {formatDateTime(consent.given_at)}.
          </Text>
          {open &&
            (confirming ? (
              <Stack gap="xs" role="group" aria-label="Withdraw your consent">
                <Text size="sm">
                  Withdraw your consent? {child} will not be ready to travel until a parent consents again, and we will
                  tell the trip’s organisers.
                </Text>
                <Group gap="xs">
                  <Button color="red" size="sm" loading={busy} onClick={() => void send('DELETE')}>
                    Yes, Withdraw My Consent
                  </Button>
                  <Button variant="default" size="sm" onClick={() => setConfirming(false)}>
                    No, Keep It
                  </Button>
                </Group>
              </Stack>
            ) : (
              <Button variant="outline" color="red" size="sm" w="fit-content" onClick={() => setConfirming(true)}>
                Withdraw Consent
              </Button>
            ))}
        </>
      ) : (
        <>
          {consent.withdrawn_at && (
            <Text size="sm" c="red.9">
              Consent was withdrawn on {formatDateTime(consent.withdrawn_at)}.
            </Text>
          )}
          {open ? (
            <form onSubmit={give} noValidate>
              <Stack gap="xs">
                <TextInput
                  label="Your full name"
                  description={`Typing your name gives your consent for ${child}, as a signature would`}
                  autoComplete="name"
                  value={name}
                  onChange={(e) => setName(e.currentTarget.value)}
                  error={error}
                  required
                />
                <Button type="submit" loading={busy} w="fit-content">
                  I Give My Consent
                </Button>
              </Stack>
            </form>
          ) : (
            <Text size="sm">No consent was given.</Text>
          )}
        </>
      )}
      {given && error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
