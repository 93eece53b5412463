import { Alert, Anchor, Badge, Button, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { MyBookingDetail, MyBookings, MyToDo } from '../../contract/my.ts';
import { api, ApiError } from '../lib/api.ts';
import { DetailsForm, Fundraising, PassportPhoto, QuestionsForm } from './details-form.tsx';
import { Loading, Pending, Shell, signedInAsTraveller, StatusBadge, useMine } from './shell.tsx';
import { formatLongDate, formatMoney } from '../lib/format.ts';

// A traveller's own pages (/my), phone first: one column, large targets, nothing of the back office.

// asking to cancel or change loads beside the booking, at the foot of its page
const ConsentSection = lazy(() => import('./consent-section.tsx').then((m) => ({ default: m.ConsentSection })));
const LeaderGroups = lazy(() => import('./group-page.tsx').then((m) => ({ default: m.LeaderGroups })));
const ChangesSection = lazy(() => import('./changes-section.tsx').then((m) => ({ default: m.ChangesSection })));

/** The email form that asks for a sign-in link; the answer is the same whoever asks. */
function AskForLink({ intro }: { intro?: string }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim()) return setError('The email field is required.');
    setSending(true);
    try {
      const { message } = await api<{ message: string }>('/api/my/sign-in-link', {
        method: 'POST',
        body: { email: email.trim() },
      });
      setSent(message);
    } catch (e) {
      setError(
        e instanceof ApiError ? (e.errors?.email?.[0] ?? e.message) : 'The link could not be sent. Please try again.',
      );
    } finally {
      setSending(false);
    }
  };
  if (sent)
    return (
      <Alert color="green" title="Check your email" role="status">
        {sent}
      </Alert>
    );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        {intro && <Text>{intro}</Text>}
        <TextInput
          label="Your email address"
          type="email"
          inputMode="email"
          autoComplete="email"
          size="md"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={error}
          required
        />
        <Button type="submit" size="lg" fullWidth loading={sending}>
          Email me a sign-in link
        </Button>
      </Stack>
    </form>
  );
}

/** From a spent or expired link: a fresh one, sent to whoever the old one was for. */
function RenewLink({ token }: { token: string }) {
  const [state, setState] = useState<{ sending?: boolean; sent?: string; error?: string }>({});
  const renew = async () => {
    setState({ sending: true });
    try {
      const { message } = await api<{ message: string }>('/api/my/sign-in-link/renew', {
        method: 'POST',
        body: { token },
      });
      setState({ sent: message });
    } catch (e) {
      setState({ error: e instanceof ApiError ? e.message : 'The link could not be sent. Please try again.' });
    }
  };
  if (state.sent)
    return (
      <Alert color="green" title="Check your email" role="status">
        {state.sent}
      </Alert>
    );
  return (
    <Stack gap="xs">
      <Button size="lg" fullWidth loading={state.sending} onClick={() => void renew()}>
        Email me a new link
      </Button>
      {state.error && (
        <Text c="red.8" size="sm" role="alert">
          {state.error}
        </Text>
      )}
    </Stack>
  );
}

/** The traveller's account: what we email and why, and signing out on every device. */
function AccountSection() {
  const [confirming, setConfirming] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const everywhere = async () => {
    setLeaving(true);
    setError(null);
    try {
      await api('/api/my/sign-out-everywhere', { method: 'POST' });
      window.location.assign('/my/sign-in');
    } catch {
      setLeaving(false);
      setError('You could not be signed out. Please try again.');
    }
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="account">
      <Title order={2} size="h4" id="account">
        Emails from us
      </Title>
      <Text size="sm">
        We email you only about your bookings: invoices, receipts and reminders before a payment is due, the details we
        still need before you travel (your passport, your booking form), your fundraising milestones and your trip’s
        documents. Each one links to the page that answers it. They stop as soon as there is nothing left to do, and
        they are how we keep your trip safe and on time, so they cannot be switched off; reply to any of them if
        something is wrong.
      </Text>
      <Title order={2} size="h4">
        Signed in somewhere else?
      </Title>
      {confirming ? (
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Text size="sm">
              This signs you out on every phone and computer, this one too, and the links in the emails we have already
              sent you stop working. You can always ask for a new link.
            </Text>
            <Stack gap="xs">
              <Button color="red" size="md" fullWidth loading={leaving} onClick={() => void everywhere()}>
                Sign out everywhere
              </Button>
              <Button variant="default" size="md" fullWidth onClick={() => setConfirming(false)} disabled={leaving}>
                Cancel
              </Button>
            </Stack>
            {error && (
              <Text c="red.8" size="sm" role="alert">
                {error}
              </Text>
            )}
          </Stack>
        </Paper>
      ) : (
        <Button variant="default" size="md" fullWidth onClick={() => setConfirming(true)}>
          Sign out everywhere…
        </Button>
      )}
    </Stack>
  );
}

/** /my/sign-in: ask for a link by email. */
export function SignInPage() {
  return (
    <Shell>
      <Title order={1} size="h2">
        Sign in to your bookings
      </Title>
      <AskForLink intro="We will email you a link that signs you in: no password needed. It works once, for 30 minutes." />
      <Text size="sm" c="dimmed">
        Have a password? <Anchor href="/login?next=/my">Sign in with it</Anchor>.
      </Text>
    </Shell>
  );
}

/** /my/sign-in/{token}: the emailed link, spent by the page (not by opening it, so a mail scanner spends nothing). */
export function SignInLinkPage({ token }: { token: string }) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    api<{ redirect: string }>('/api/my/sign-in', { method: 'POST', body: { token } })
      .then(({ redirect }) => window.location.replace(redirect))
      .catch((e: unknown) =>
        setRefusal(
          e instanceof ApiError ? (e.errors?.token?.[0] ?? e.message) : 'You could not be signed in. Please try again.',
        ),
      );
  }, [token]);
  return (
    <Shell>
      {refusal === null ? (
        <>
          <Title order={1} size="h2">
            Signing you in…
          </Title>
          <Loading />
        </>
      ) : (
        <>
          <Title order={1} size="h2">
            This link cannot sign you in
          </Title>
          <Alert color="orange" role="alert">
            {refusal}
          </Alert>
          <RenewLink token={token} />
          <Text size="sm" c="dimmed">
            Or ask with your email address:
          </Text>
          <AskForLink />
        </>
      )}
    </Shell>
  );
}

const INSTALMENT_STATES = {
  paid: { label: 'Paid', color: 'green' },
  due: { label: 'Due', color: 'blue' },
  overdue: { label: 'Overdue', color: 'red' },
  waived: { label: 'Not needed', color: 'gray' },
} as const;

/** The booking's money as the traveller reads it: the plan, the invoices (Pay, PDF), what was paid, and how else to pay. */
function Payments({ booking }: { booking: MyBookingDetail }) {
  return (
    <Stack gap="md">
      {booking.schedule.length > 0 && (
        <Stack gap={6}>
          <Title order={3} size="h5">
            Your payment plan
          </Title>
          <List listStyleType="none" spacing={6} aria-label="Your payment plan">
            {booking.schedule.map((row, i) => (
              <List.Item key={i}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm">
                    <Text span fw={600}>
                      {row.label}
                    </Text>
                    : {formatMoney(row.amount)} on {formatLongDate(row.due_date)}
                  </Text>
                  <Badge variant="light" color={INSTALMENT_STATES[row.state].color} style={{ flexShrink: 0 }}>
                    {INSTALMENT_STATES[row.state].label}
                  </Badge>
                </Group>
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
      <Stack gap={6}>
        <Title order={3} size="h5">
          Invoices
        </Title>
        {booking.invoices.length === 0 && <Text c="dimmed">No invoices yet.</Text>}
        {booking.invoices.map((invoice) => (
          <Paper key={invoice.id} withBorder p="md">
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600}>Invoice {invoice.ref}</Text>
                <Badge variant="light" color={invoice.outstanding > 0 ? 'blue' : 'green'} style={{ flexShrink: 0 }}>
                  {invoice.status}
                </Badge>
              </Group>
              <Text size="sm">
                {formatMoney(invoice.total)}
                {invoice.outstanding > 0
                  ? `, ${formatMoney(invoice.outstanding)} to pay${invoice.due_date ? ` by ${formatLongDate(invoice.due_date)}` : ''}`
                  : ', paid'}
              </Text>
              {invoice.pay_url && (
                <Button component="a" href={invoice.pay_url} size="md" fullWidth>
                  Pay {formatMoney(invoice.outstanding)}
                </Button>
              )}
              <Anchor href={invoice.pdf_url} target="_blank" size="sm">
                Download invoice {invoice.ref} (PDF)
              </Anchor>
            </Stack>
          </Paper>
        ))}
      </Stack>
      {booking.bank_transfer && (
        <Alert color="blue" title="Paying by bank transfer">
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {booking.bank_transfer.details}
          </Text>
          <Text size="sm" mt={4}>
            Please give <strong>{booking.bank_transfer.reference}</strong> as the reference, so that we know it is
            yours.
          </Text>
        </Alert>
      )}
      {booking.payments.length > 0 && (
        <Stack gap={6}>
          <Title order={3} size="h5">
            Payments received
          </Title>
          <List listStyleType="none" spacing={4} aria-label="Payments received">
            {booking.payments.map((p, i) => (
              <List.Item key={i}>
                <Text size="sm">
                  {formatLongDate(p.date)}: {p.type === 'refund' ? 'refunded ' : ''}
                  {formatMoney(p.amount)} ({p.how.toLowerCase()}, invoice {p.invoice_ref})
                </Text>
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
    </Stack>
  );
}

// the light badges that read at AA contrast on white

function ToDoList({ items, departed }: { items: MyToDo[]; departed: boolean }) {
  if (departed) return <Text c="dimmed">This trip has left: there is nothing more to do here.</Text>;
  if (!items.length) return <Text c="green.8">Nothing to do for now: you are all set.</Text>;
  return (
    <List spacing="xs" aria-label="Still to do">
      {items.map((item) => (
        <List.Item key={item.check}>
          <Text fw={600} c={item.state === 'red' ? 'red.8' : undefined}>
            {item.label}
          </Text>
          <Text size="sm">{item.detail}</Text>
        </List.Item>
      ))}
    </List>
  );
}

/** /my: the traveller's bookings, each with what is still to do. */
export function MyHome() {
  const allowed = signedInAsTraveller();
  const { data, error } = useMine<MyBookings>('/api/my/bookings');
  if (!allowed) return null;
  return (
    <Shell signedIn>
      <Title order={1} size="h2">
        {data ? `Hello, ${data.traveller.first_name}` : 'My bookings'}
      </Title>
      <Pending loaded={data !== null} error={error} />
      {data && data.bookings.length === 0 && <Text>You have no bookings with us yet.</Text>}
      {data?.bookings.map((b) => (
        <Paper key={b.id} withBorder p="md" component="article" aria-labelledby={`booking-${b.id}`}>
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Title order={2} size="h4" id={`booking-${b.id}`}>
                {b.trip.name}
              </Title>
              <StatusBadge status={b.status} />
            </Group>
            <Text size="sm">
              {formatLongDate(b.trip.departure)} to {formatLongDate(b.trip.return)} · booking {b.ref}
            </Text>
            <ToDoList items={b.to_do} departed={b.departed} />
            <Button component="a" href={`/my/bookings/${b.id}`} variant="light" size="md" fullWidth>
              Open this booking
            </Button>
          </Stack>
        </Paper>
      ))}
      {data && (
        <Suspense fallback={null}>
          <LeaderGroups />
        </Suspense>
      )}
      {data && <AccountSection />}
    </Shell>
  );
}

/** /my/bookings/{id}: one booking, what is to do, its invoices with Pay, the details we hold. */
export function MyBookingPage({ id }: { id: number }) {
  const allowed = signedInAsTraveller();
  const { data, error, setData } = useMine<MyBookingDetail>(`/api/my/bookings/${id}`);
  if (!allowed) return null;
  return (
    <Shell signedIn>
      <Pending loaded={data !== null} error={error} />
      {data && (
        <>
          <Stack gap={4}>
            <Title order={1} size="h2">
              {data.trip.name}
            </Title>
            <Group gap="xs">
              <StatusBadge status={data.status} />
              <Text size="sm">Booking {data.ref}</Text>
            </Group>
            <Text size="sm">
              {formatLongDate(data.trip.departure)} to {formatLongDate(data.trip.return)}
              {data.trip.country ? ` · ${data.trip.country}` : ''}
            </Text>
          </Stack>
          <Stack gap="xs" component="section" aria-labelledby="to-do">
            <Title order={2} size="h4" id="to-do">
              Still to do
            </Title>
            <ToDoList items={data.to_do} departed={data.departed} />
          </Stack>
          {data.consent && (
            <Stack gap="xs" component="section" aria-labelledby="consent">
              <Title order={2} size="h4" id="consent">
                Parent’s consent
              </Title>
              <Suspense fallback={<Text size="sm">Loading…</Text>}>
                <ConsentSection booking={data} onSaved={setData} />
              </Suspense>
            </Stack>
          )}
          <Stack gap="xs" component="section" aria-labelledby="payments">
            <Title order={2} size="h4" id="payments">
              Payments
            </Title>
            <Payments booking={data} />
          </Stack>
          <Stack gap="xs" component="section" aria-labelledby="details">
            <Title order={2} size="h4" id="details">
              Your details
            </Title>
            {data.departed || data.status === 'cancelled' ? (
              <>
                <Text size="sm" c="dimmed">
                  {data.departed
                    ? 'This trip has left: your details can no longer be changed here.'
                    : 'This booking is cancelled: its details can no longer be changed here.'}
                </Text>
                {data.personal_data_erased && (
                  <Text size="sm">
                    Your passport, medical, insurance and next-of-kin details: removed after your trip, as our privacy
                    notice says.
                  </Text>
                )}
              </>
            ) : (
              <DetailsForm booking={data} onSaved={setData} />
            )}
          </Stack>
          {data.fundraising && (
            <Stack gap="xs" component="section" aria-labelledby="fundraising">
              <Title order={2} size="h4" id="fundraising">
                Your fundraising
              </Title>
              <Fundraising booking={data} onSaved={setData} />
            </Stack>
          )}
          {data.documents.length > 0 && (
            <Stack gap="xs" component="section" aria-labelledby="documents">
              <Title order={2} size="h4" id="documents">
                Documents for your trip
              </Title>
              <List spacing="xs" aria-label="Documents for your trip">
                {data.documents.map((d) => (
                  <List.Item key={d.url}>
                    <Anchor href={d.url}>{d.name}</Anchor>
                    {d.size !== null && (
                      <Text span size="sm" c="dimmed">
                        {' '}
                        ({Math.max(1, Math.round(d.size / 1024))} KB)
                      </Text>
                    )}
                  </List.Item>
                ))}
              </List>
            </Stack>
          )}
          {!data.departed && data.status !== 'cancelled' && (
            <>
              {data.passport_rule !== null && (
                <Stack gap="xs" component="section" aria-labelledby="passport-photo">
                  <Title order={2} size="h4" id="passport-photo">
                    Your passport photo
                  </Title>
                  <PassportPhoto booking={data} onSaved={setData} />
                </Stack>
              )}
              {data.questions.length > 0 && (
                <Stack gap="xs" component="section" aria-labelledby="questions">
                  <Title order={2} size="h4" id="questions">
                    Questions about your trip
                  </Title>
                  <QuestionsForm booking={data} onSaved={setData} />
                </Stack>
              )}
            </>
          )}
          {!data.departed && (
            <Stack gap="xs" component="section" aria-labelledby="changes">
              <Title order={2} size="h4" id="changes">
                Cancel or change
              </Title>
              <Suspense fallback={<Text size="sm">Loading…</Text>}>
                <ChangesSection bookingId={data.id} />
              </Suspense>
            </Stack>
          )}
        </>
      )}
    </Shell>
  );
}
