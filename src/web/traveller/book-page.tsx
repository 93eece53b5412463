import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Checkbox,
  Container,
  Fieldset,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { BOOKING_TITLES } from '../../contract/booking-constants.ts';
import { publicBookingSchema, type PublicBooked, type PublicTrip } from '../../contract/online-booking.ts';
import { api, ApiError } from '../lib/api.ts';
import { Heading } from './heading.tsx';
import { formatDateTime, formatLongDate, formatMoney } from '../lib/format.ts';

type Values = {
  title: string;
  first_name: string;
  last_name: string;
  preferred_name: string;
  email: string;
  mobile: string;
  date_of_birth: string;
  address_1: string;
  address_2: string;
  address_3: string;
  address_4: string;
  post_code: string;
  funding_type: string;
  charity_id: string;
  addon_ids: number[];
  discount_code: string;
  as_on_passport: boolean;
  terms_accepted: boolean;
  website: string;
};

const EMPTY: Values = {
  title: '',
  first_name: '',
  last_name: '',
  preferred_name: '',
  email: '',
  mobile: '',
  date_of_birth: '',
  address_1: '',
  address_2: '',
  address_3: '',
  address_4: '',
  post_code: '',
  funding_type: '',
  charity_id: '',
  addon_ids: [],
  discount_code: '',
  as_on_passport: false,
  terms_accepted: false,
  website: '',
};

type State =
  | { kind: 'loading' }
  | { kind: 'missing' }
  | { kind: 'failed' }
  | { kind: 'ready'; trip: PublicTrip }
  | { kind: 'booked'; trip: PublicTrip; booked: PublicBooked };

// only a full trip's page needs it
const WaitingListForm = lazy(() => import('./waiting-list-form.tsx').then((m) => ({ default: m.WaitingListForm })));

const range = (trip: PublicTrip) => `${formatLongDate(trip.departure)} to ${formatLongDate(trip.return)}`;

/**
 * A trip's public booking page (/book/{slug}): the trip, its price and plan, and the form. The
 * form is checked by the same contract as the server; what the server says (its field errors, a
 * full or closed trip) is what counts, and nothing typed is lost when it refuses.
 */
export function BookPage({ slug }: { slug: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  // a waiting list's offer: the page opens with its places held for the person it was sent to
  const [offer] = useState(() => new URLSearchParams(window.location.search).get('offer') ?? undefined);

  useEffect(() => {
    let live = true;
    api<PublicTrip>(`/api/public/trips/${encodeURIComponent(slug)}`, { query: { offer } })
      .then((trip) => {
        if (!live) return;
        document.title = `Book ${trip.name}`;
        setState({ kind: 'ready', trip });
      })
      .catch((error: unknown) => {
        if (live) setState({ kind: error instanceof ApiError && error.status === 404 ? 'missing' : 'failed' });
      });
    return () => {
      live = false;
    };
  }, [slug, offer]);

  return (
    <Container component="main" size={640} px="md" py="xl">
      {state.kind === 'loading' && (
        <Stack align="center" py="xl" role="status" aria-live="polite">
          <Loader aria-hidden />
          <Text>Loading…</Text>
        </Stack>
      )}
      {state.kind === 'missing' && (
        <Stack>
          <Title order={1} size="h2">
            Trip not found
          </Title>
          <Text>There is no trip to book at this address. Please check the link you followed.</Text>
        </Stack>
      )}
      {state.kind === 'failed' && (
        <Alert color="red" title={<Heading>Something went wrong</Heading>} role="alert">
          This page could not be loaded. Please check your connection and try again.
        </Alert>
      )}
      {state.kind === 'ready' && (
        <Stack gap="lg">
          <TripSummary trip={state.trip} />
          {offer && !state.trip.offer && (
            <Alert color="orange" role="status" title={<Heading>This offer has ended</Heading>}>
              The place offered to you is no longer held: the offer has expired or has already been used.
            </Alert>
          )}
          {state.trip.offer && (
            <Alert
              color="green"
              role="status"
              title={<Heading>{state.trip.offer.first_name}, your place is held</Heading>}
            >
              {state.trip.offer.places === 1 ? 'A place is' : `${state.trip.offer.places} places are`} held for you
              until {formatDateTime(state.trip.offer.expires_at)}. Book below to take{' '}
              {state.trip.offer.places === 1 ? 'it' : 'them'}.
            </Alert>
          )}
          {state.trip.state === 'open' ? (
            <BookingForm
              trip={state.trip}
              slug={slug}
              offer={state.trip.offer ? offer : undefined}
              onBooked={(booked) => setState({ kind: 'booked', trip: state.trip, booked })}
              onGone={(trip) => setState({ kind: 'ready', trip })}
            />
          ) : (
            <>
              <Alert
                color="orange"
                role="status"
                title={<Heading>{state.trip.state === 'full' ? 'This trip is full' : 'Booking has closed'}</Heading>}
              >
                {state.trip.state === 'full'
                  ? 'Every place on this trip has been taken. Join the waiting list below: if a place frees up, we will email you an offer to book it.'
                  : 'This trip is no longer taking bookings online. Please contact us if you would like to join it.'}
              </Alert>
              {state.trip.waiting_list && (
                <Suspense fallback={null}>
                  <WaitingListForm slug={slug} />
                </Suspense>
              )}
            </>
          )}
        </Stack>
      )}
      {state.kind === 'booked' && <Booked trip={state.trip} booked={state.booked} />}
    </Container>
  );
}

function TripSummary({ trip }: { trip: PublicTrip }) {
  return (
    <Stack gap="sm">
      <Text fw={600}>{trip.operator}</Text>
      <Title order={1} size="h2">
        {trip.name}
      </Title>
      <Text>
        {trip.country} · {range(trip)}
      </Text>
      {trip.description && <Text style={{ whiteSpace: 'pre-line' }}>{trip.description}</Text>}
      <Paper withBorder p="md">
        <Stack gap={6}>
          <Group justify="space-between" align="baseline" wrap="nowrap">
            <Text size="sm" c="dimmed">
              Trip price
            </Text>
            <Text fz={26} fw={700} lh={1.2}>
              {formatMoney(trip.price)}
            </Text>
          </Group>
          {trip.deposit > 0 && (
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm">Deposit, paid when you book</Text>
              <Text fw={600}>{formatMoney(trip.deposit)}</Text>
            </Group>
          )}
          <Text size="sm">You pay {trip.plan_text}.</Text>
          {trip.places_left !== null && trip.state === 'open' && (
            <Badge color="orange" variant="light" size="lg" w="fit-content">
              {trip.places_left === 1 ? 'Only 1 place left' : `Only ${trip.places_left} places left`}
            </Badge>
          )}
          <Text size="sm" c="dimmed">
            Book by {formatLongDate(trip.closes_on)}.
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}

function BookingForm({
  trip,
  slug,
  offer,
  onBooked,
  onGone,
}: {
  trip: PublicTrip;
  slug: string;
  offer: string | undefined;
  onBooked: (booked: PublicBooked) => void;
  onGone: (trip: PublicTrip) => void;
}) {
  const [values, setValues] = useState<Values>(() => ({
    ...EMPTY,
    funding_type: trip.funding_types.length === 1 ? trip.funding_types[0]!.value : '',
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const noticeRef = useRef<HTMLDivElement>(null);
  // a field's error goes as soon as it is changed; nothing typed is ever cleared
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: '' } : e));
  };
  const text = (key: keyof Values, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={label}
      size="md"
      value={values[key] as string}
      onChange={(e) => set(key, e.currentTarget.value as never)}
      error={errors[key]}
      {...extra}
    />
  );

  const addonsTotal = trip.addons.filter((a) => values.addon_ids.includes(a.id)).reduce((s, a) => s + a.price, 0);
  const free = values.funding_type === 'free';

  const refused = (found: Record<string, string>, message = 'Please check the fields marked in red.') => {
    setErrors(found);
    setNotice(message);
    requestAnimationFrame(() => noticeRef.current?.focus());
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const body = {
      ...values,
      charity_id: values.charity_id === '' ? null : values.charity_id,
      funding_type: values.funding_type || undefined,
      offer,
    };
    const checked = publicBookingSchema.safeParse(body);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) found[String(issue.path[0])] ??= issue.message;
      refused(found);
      return;
    }
    setErrors({});
    setSending(true);
    try {
      onBooked(
        await api<PublicBooked>(`/api/public/trips/${encodeURIComponent(slug)}/bookings`, { method: 'POST', body }),
      );
    } catch (e) {
      if (e instanceof ApiError && e.errors) {
        refused(Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k, v[0] ?? ''])));
      } else if (e instanceof ApiError && e.status === 409) {
        // full or closed meanwhile: the page says so, as it now stands
        const fresh = await api<PublicTrip>(`/api/public/trips/${encodeURIComponent(slug)}`, {
          query: { offer },
        }).catch(() => null);
        // a copy of the page a second old may still say open: then the refusal itself is what counts
        if (fresh && fresh.state !== 'open') onGone(fresh);
        else refused({}, e.message);
      } else
        refused(
          {},
          e instanceof ApiError && e.status < 500 ? e.message : 'Your booking could not be sent. Please try again.',
        );
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Book your place">
      <Stack gap="md">
        <Title order={2} size="h3">
          Book your place
        </Title>
        <Fieldset legend="About you">
          <Stack gap="sm">
            <NativeSelect
              label="Title"
              size="md"
              required
              value={values.title}
              onChange={(e) => set('title', e.currentTarget.value)}
              error={errors.title}
              data={[{ value: '', label: 'Choose…' }, ...BOOKING_TITLES.map((t) => ({ value: t, label: t }))]}
              autoComplete="honorific-prefix"
            />
            {text('first_name', 'First name, as on your passport', { required: true, autoComplete: 'given-name' })}
            {text('last_name', 'Last name, as on your passport', { required: true, autoComplete: 'family-name' })}
            {text('preferred_name', 'Preferred name', {
              autoComplete: 'nickname',
              description: 'What we should call you',
            })}
            {text('email', 'Email', { required: true, type: 'email', autoComplete: 'email', inputMode: 'email' })}
            {text('mobile', 'Mobile', { required: true, type: 'tel', inputMode: 'tel', autoComplete: 'tel' })}
            {text('date_of_birth', 'Date of birth', { required: true, type: 'date', autoComplete: 'bday' })}
          </Stack>
        </Fieldset>
        <Fieldset legend="Your address">
          <Stack gap="sm">
            {text('address_1', 'Address line 1', { required: true, autoComplete: 'address-line1' })}
            {text('address_2', 'Address line 2', { autoComplete: 'address-line2' })}
            {text('address_3', 'Town', { autoComplete: 'address-level2' })}
            {text('address_4', 'County')}
            {text('post_code', 'Post code', { required: true, autoComplete: 'postal-code' })}
          </Stack>
        </Fieldset>
        <Fieldset legend="Your trip">
          <Stack gap="sm">
            <Radio.Group
              label="How will you pay for the trip?"
              value={values.funding_type}
              onChange={(v) => set('funding_type', v)}
              error={errors.funding_type}
              withAsterisk
            >
              <Stack gap={8} mt={6}>
                {trip.funding_types.map((f) => (
                  <Radio key={f.value} value={f.value} label={f.label} size="md" />
                ))}
              </Stack>
            </Radio.Group>
            {trip.charities.length > 0 && (
              <NativeSelect
                label="The charity you will raise money for"
                size="md"
                required
                value={values.charity_id}
                onChange={(e) => set('charity_id', e.currentTarget.value)}
                error={errors.charity_id}
                data={[
                  { value: '', label: 'Choose a charity…' },
                  ...trip.charities.map((c) => ({ value: String(c.id), label: c.name })),
                ]}
              />
            )}
            {trip.addons.length > 0 && (
              <Checkbox.Group
                label="Extras"
                value={values.addon_ids.map(String)}
                onChange={(ids) => set('addon_ids', ids.map(Number))}
                error={errors.addon_ids}
              >
                <Stack gap={8} mt={6}>
                  {trip.addons.map((a) => (
                    <Checkbox key={a.id} value={String(a.id)} size="md" label={`${a.name} (${formatMoney(a.price)})`} />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
            {trip.discount_codes &&
              !free &&
              text('discount_code', 'Discount code', { autoComplete: 'off', description: 'If you have one' })}
          </Stack>
        </Fieldset>
        {/* people never see this field; a bot that fills it is refused */}
        <Box style={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }} aria-hidden>
          <label>
            Website
            <input
              type="text"
              name="website"
              tabIndex={-1}
              autoComplete="off"
              value={values.website}
              onChange={(e) => set('website', e.currentTarget.value)}
            />
          </label>
        </Box>
        <Paper withBorder p="md" aria-live="polite">
          <Stack gap={6}>
            <Group justify="space-between" wrap="nowrap">
              <Text>Trip</Text>
              <Text>{free ? formatMoney(0) : formatMoney(trip.price)}</Text>
            </Group>
            {addonsTotal > 0 && (
              <Group justify="space-between" wrap="nowrap">
                <Text>Extras</Text>
                <Text>{formatMoney(addonsTotal)}</Text>
              </Group>
            )}
            <Group
              justify="space-between"
              wrap="nowrap"
              pt={6}
              style={{ borderTop: '1px solid var(--mantine-color-gray-4)' }}
            >
              <Text fw={700}>Total</Text>
              <Text fw={700}>{formatMoney((free ? 0 : trip.price) + addonsTotal)}</Text>
            </Group>
            {!free && trip.deposit > 0 && (
              <Text size="sm">
                {formatMoney(trip.deposit)} deposit now{values.discount_code ? ', less your discount' : ''}; the rest as
                the plan above.
              </Text>
            )}
          </Stack>
        </Paper>
        <Stack gap="xs">
          <Checkbox
            size="md"
            checked={values.as_on_passport}
            onChange={(e) => set('as_on_passport', e.currentTarget.checked)}
            error={errors.as_on_passport}
            label="My name is as shown on my passport"
          />
          <Checkbox
            size="md"
            checked={values.terms_accepted}
            onChange={(e) => set('terms_accepted', e.currentTarget.checked)}
            error={errors.terms_accepted}
            label={
              trip.terms_url ? (
                <>
                  I accept the{' '}
                  <Anchor href={trip.terms_url} target="_blank" rel="noopener">
                    booking terms
                  </Anchor>
                </>
              ) : (
                'I accept the booking terms'
              )
            }
          />
        </Stack>
        {notice && (
          <Alert color="red" role="alert" ref={noticeRef} tabIndex={-1}>
            {notice}
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth loading={sending}>
          {!free && trip.deposit > 0 && trip.card_payments ? `Book and pay the deposit` : 'Book my place'}
        </Button>
        {!free && trip.deposit > 0 && trip.card_payments && (
          <Text size="sm" c="dimmed">
            Your place is held for {trip.hold_minutes} minutes while you pay the deposit on Stripe’s secure page.
          </Text>
        )}
      </Stack>
    </form>
  );
}

function Booked({ trip, booked }: { trip: PublicTrip; booked: PublicBooked }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Stack gap="lg">
      <Text fw={600}>{trip.operator}</Text>
      <Title order={1} size="h2" ref={heading} tabIndex={-1}>
        {booked.status === 'confirmed' ? 'You are booked' : 'Booking received'}
      </Title>
      <Paper withBorder p="lg">
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            Your booking reference
          </Text>
          <Text fz={28} fw={700} lh={1.2}>
            {booked.booking_ref}
          </Text>
          <Text>
            {trip.name}, {range(trip)}
          </Text>
        </Stack>
      </Paper>
      <Alert color={booked.status === 'confirmed' ? 'green' : 'blue'} role="status">
        {booked.message}
      </Alert>
      {booked.pay_url && (
        <Button component="a" href={booked.pay_url} size="lg" fullWidth>
          Pay {formatMoney(booked.deposit)} by card
        </Button>
      )}
      {booked.bank_details && (
        <Paper withBorder p="md">
          <Text fw={600}>Pay by bank transfer</Text>
          <Text style={{ whiteSpace: 'pre-line' }}>{booked.bank_details}</Text>
          <Text size="sm">Use {booked.booking_ref} as the reference.</Text>
        </Paper>
      )}
      <Text>
        We have emailed you the details. Your bookings, payments and the details we need from you before you travel are
        on <Anchor href="/my/sign-in">your own pages</Anchor>.
      </Text>
    </Stack>
  );
}
