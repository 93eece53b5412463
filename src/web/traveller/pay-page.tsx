import { Alert, Box, Button, Container, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { CheckoutOutcome, PayPage as PayPageData, PayPageRefusal } from '../../contract/card-payments.ts';
import { api, ApiError } from '../lib/api.ts';
import { formatLongDate, formatMoney } from '../lib/format.ts';

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; page: PayPageData }
  | { kind: 'refused'; refusal: PayPageRefusal }
  | { kind: 'paid'; outcome: CheckoutOutcome }
  | { kind: 'failed'; message: string };

const base = (token: string) => `/api/public/pay/${encodeURIComponent(token)}`;

function refusalOf(error: unknown): PayPageRefusal | null {
  if (error instanceof ApiError && error.body && typeof error.body === 'object' && 'reason' in error.body)
    return error.body as PayPageRefusal;
  return null;
}

/**
 * A pay link: what is owed and a button that takes the payer to Stripe's page; back from
 * Stripe, whether the payment was made (the server asks Stripe; the address alone proves nothing).
 */
export function PayPage({ token }: { token: string }) {
  const query = new URLSearchParams(window.location.search);
  const sessionId = query.get('session_id');
  const cancelled = query.get('cancelled') === '1';
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [notice, setNotice] = useState<string | null>(
    cancelled ? 'The payment was cancelled: nothing has been taken.' : null,
  );
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        if (sessionId) {
          const outcome = await api<CheckoutOutcome>(`${base(token)}/checkouts/${encodeURIComponent(sessionId)}`);
          if (outcome.state === 'paid') {
            if (live) setState({ kind: 'paid', outcome });
            return;
          }
          if (live) setNotice(outcome.message);
          // being processed (a bank payment): no second payment is offered meanwhile
          if (outcome.state === 'processing') {
            if (live) setState({ kind: 'paid', outcome });
            return;
          }
        }
        const page = await api<PayPageData>(base(token));
        if (live) setState({ kind: 'ready', page });
      } catch (error) {
        const refusal = refusalOf(error);
        if (!live) return;
        if (refusal) setState({ kind: 'refused', refusal });
        else
          setState({
            kind: 'failed',
            message: 'This page could not be loaded. Please check your connection and try again.',
          });
      }
    };
    void load();
    return () => {
      live = false;
    };
  }, [token, sessionId]);

  const pay = async () => {
    setStarting(true);
    setStartError(null);
    try {
      const { url } = await api<{ url: string }>(`${base(token)}/checkout`, { method: 'POST' });
      window.location.assign(url);
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) setState({ kind: 'refused', refusal });
      else
        setStartError(
          error instanceof ApiError && error.status < 500
            ? error.message
            : 'The card payment page could not be opened. Please try again.',
        );
      setStarting(false);
    }
  };

  return (
    <Container component="main" size={480} px="md" py="xl">
      <Stack gap="lg">
        {state.kind === 'loading' && (
          <Stack align="center" py="xl" role="status" aria-live="polite">
            <Loader aria-hidden />
            <Text>Loading…</Text>
          </Stack>
        )}
        {state.kind === 'failed' && (
          <Alert color="red" title="Something went wrong" role="alert">
            {state.message}
          </Alert>
        )}
        {state.kind === 'refused' && (
          <>
            {state.refusal.operator && <Text fw={600}>{state.refusal.operator}</Text>}
            <Title order={1} size="h2">
              {state.refusal.reason === 'paid' ? 'Nothing to pay' : 'This link cannot be used'}
            </Title>
            <Alert color={state.refusal.reason === 'paid' ? 'green' : 'orange'} role="alert">
              {state.refusal.message}
            </Alert>
          </>
        )}
        {state.kind === 'paid' && (
          <>
            <Title order={1} size="h2">
              {state.outcome.state === 'paid' ? 'Payment received' : 'Payment being processed'}
            </Title>
            <Alert color="green" role="status">
              <Text fz={28} fw={700} lh={1.2} mb={4}>
                {formatMoney(state.outcome.amount)}
              </Text>
              {state.outcome.message}
              {state.outcome.state === 'paid' ? ' A receipt is on its way by email.' : ''}
            </Alert>
          </>
        )}
        {state.kind === 'ready' && (
          <>
            <Text fw={600}>{state.page.operator}</Text>
            <Title order={1} size="h2">
              Pay invoice {state.page.invoice_ref}
            </Title>
            {notice && (
              <Alert color="blue" role="status">
                {notice}
              </Alert>
            )}
            <Paper withBorder p="lg">
              <Stack gap="xs">
                <Text>
                  {state.page.school ? (
                    <>{state.page.school}’s share for its pupils on </>
                  ) : (
                    <>{state.page.first_name}’s place on </>
                  )}
                  <strong>{state.page.trip.name}</strong>, departing {formatLongDate(state.page.trip.departure)}
                </Text>
                <Box>
                  <Text size="sm" c="dimmed">
                    Amount to pay
                  </Text>
                  <Text fz={32} fw={700} lh={1.2}>
                    {formatMoney(state.page.outstanding)}
                  </Text>
                </Box>
              </Stack>
            </Paper>
            {startError && (
              <Alert color="red" role="alert">
                {startError}
              </Alert>
            )}
            <Button size="lg" fullWidth onClick={() => void pay()} loading={starting}>
              Pay {formatMoney(state.page.outstanding)} by card
            </Button>
            <Text size="sm" c="dimmed">
              You will pay on Stripe’s secure page: your card details go to Stripe, never to {state.page.operator}.
              Anyone may pay this invoice with this link.
            </Text>
          </>
        )}
      </Stack>
    </Container>
  );
}
