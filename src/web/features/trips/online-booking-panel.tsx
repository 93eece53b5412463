import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Radio,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import {
  ONLINE_FUNDING_LABELS,
  saveOnlineBookingSchema,
  type OnlineBooking,
  type OnlineFundingType,
} from '../../../contract/online-booking.ts';
import { MultiSelectField } from '../../components/multi-select-field.tsx';
import { formatLongDate } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { saveOnlineBooking, useCharityChoices, useOnlineBooking } from './api/online-booking.ts';
import { tripKeys } from './api/trips.ts';
import { TripPanel } from './trip-panel.tsx';

const STATE_TEXT: Record<OnlineBooking['state'], string> = {
  off: 'Online booking is off.',
  open: 'The booking page is taking bookings.',
  closed: 'The booking page is closed: the trip is not open, or its closing day has passed.',
  full: 'The booking page shows the trip as full.',
};

/**
 * The trip's online booking: its public page's address, closing day, what travellers may choose
 * there, and the places taken, held for deposits and left. Trips read shows them; trips change edits them.
 */
export function OnlineBookingPanel({ tripId, tripType }: { tripId: number; tripType: string }) {
  const query = useOnlineBooking(tripId);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <TripPanel title="Online booking" failure={null}>
      {query.isPending ? (
        <Skeleton height={120} />
      ) : query.data ? (
        <Editor
          // the saved settings only: the places change under the form (a booking, an offer) without undoing what is typed
          key={JSON.stringify({ ...query.data, places: null, state: null })}
          tripId={tripId}
          charityTrip={tripType === 'charity'}
          data={query.data}
          notice={notice}
          setNotice={setNotice}
        />
      ) : (
        <Text c="red.9" role="alert">
          The online booking could not be loaded. Please refresh the page and try again.
        </Text>
      )}
    </TripPanel>
  );
}

function Editor({
  tripId,
  charityTrip,
  data,
  notice,
  setNotice,
}: {
  tripId: number;
  charityTrip: boolean;
  data: OnlineBooking;
  notice: string | null;
  setNotice: (n: string | null) => void;
}) {
  const may = useCan();
  const [enabled, setEnabled] = useState(data.enabled);
  const [slug, setSlug] = useState(data.slug ?? '');
  const [closesOn, setClosesOn] = useState(data.closes_on ?? '');
  const [funding, setFunding] = useState<OnlineFundingType[]>(data.funding_types);
  const [anyCharity, setAnyCharity] = useState(data.charity_ids === null ? 'any' : 'list');
  const [charityIds, setCharityIds] = useState<string[]>((data.charity_ids ?? []).map(String));
  const [discounts, setDiscounts] = useState(data.discount_codes_allowed);
  const [description, setDescription] = useState(data.description ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  // the charities' names are the charities area's: without it, the choice keeps the ids it has
  const charities = useCharityChoices(charityTrip && may('charities', 'read'));
  const saving = useFormMutation({
    mutationFn: (body: Parameters<typeof saveOnlineBooking>[1]) => saveOnlineBooking(tripId, body),
    invalidate: [tripKeys.one(tripId)],
    fallback: 'Sorry, the online booking could not be saved. Please try again.',
    setError: ((name: string, e: { message?: string }) =>
      setErrors((x) => ({ ...x, [name]: e.message ?? '' }))) as UseFormSetError<FieldValues>,
    onSuccess: () => setNotice('The online booking has been saved.'),
  });
  const changed = () => setNotice(null);

  const save = () => {
    setNotice(null);
    const body = {
      enabled,
      slug,
      closes_on: closesOn,
      funding_types: funding,
      charity_ids: charityTrip && anyCharity === 'list' ? charityIds.map(Number) : null,
      discount_codes_allowed: discounts,
      description,
    };
    const checked = saveOnlineBookingSchema.safeParse(body);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    void saving.submit(body);
  };

  const { places } = data;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Travellers book this trip themselves on its own page, paying the first instalment of its plan by card. Every
        place counts against the trip’s capacity: a place is held while its deposit is being paid.
      </Text>
      <Group gap="xl" role="group" aria-label="Places">
        <Text>
          <strong>{places.capacity ?? '–'}</strong> places
        </Text>
        <Text>
          <strong>{places.taken}</strong> taken
        </Text>
        <Text>
          <strong>{places.held}</strong> held
        </Text>
        <Text>
          <strong>{places.left ?? '–'}</strong> left
        </Text>
      </Group>
      <Alert color={data.state === 'open' ? 'green' : 'gray'} variant="light" role="status">
        {STATE_TEXT[data.state]}
        {data.url && data.enabled && (
          <>
            {' '}
            <Anchor href={data.url} target="_blank" rel="noopener" c="inherit" underline="always">
              {data.url}
            </Anchor>
          </>
        )}
      </Alert>
      <fieldset disabled={!may('trips')} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="md">
          <Switch
            label="Take bookings online"
            checked={enabled}
            onChange={(e) => {
              changed();
              setEnabled(e.currentTarget.checked);
            }}
            error={errors.enabled}
          />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <TextInput
              label="Page address"
              leftSection={<Text size="sm">/book/</Text>}
              leftSectionWidth={56}
              value={slug}
              onChange={(e) => {
                changed();
                setSlug(e.currentTarget.value);
              }}
              error={errors.slug}
              description="Lower-case letters, digits and hyphens; left empty, made from the trip’s name"
            />
            <TextInput
              label="Closing day"
              type="date"
              value={closesOn}
              onChange={(e) => {
                changed();
                setClosesOn(e.currentTarget.value);
              }}
              error={errors.closes_on}
              description={`Left empty: ${formatLongDate(data.closes_on_default)}, when the balance falls due`}
            />
          </SimpleGrid>
          <Checkbox.Group
            label="How travellers may pay for it"
            value={funding}
            onChange={(v) => {
              changed();
              setFunding(v as OnlineFundingType[]);
            }}
            error={errors.funding_types}
          >
            <Group gap="lg" mt={6}>
              {data.funding_types_allowed.map((f) => (
                <Checkbox key={f} value={f} label={ONLINE_FUNDING_LABELS[f]} />
              ))}
            </Group>
          </Checkbox.Group>
          {charityTrip && (
            <Stack gap="xs">
              <Radio.Group
                label="Charities offered"
                value={anyCharity}
                onChange={(v) => {
                  changed();
                  setAnyCharity(v);
                }}
              >
                <Group gap="lg" mt={6}>
                  <Radio value="any" label="Any charity" />
                  <Radio value="list" label="These charities" />
                </Group>
              </Radio.Group>
              {anyCharity === 'list' && (
                <MultiSelectField
                  label="Charities"
                  data={(charities.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
                  value={charityIds}
                  onChange={(v) => {
                    changed();
                    setCharityIds(v);
                  }}
                  error={errors.charity_ids}
                />
              )}
            </Stack>
          )}
          <Checkbox
            label="Travellers may enter a discount code"
            checked={discounts}
            onChange={(e) => {
              changed();
              setDiscounts(e.currentTarget.checked);
            }}
          />
          <Textarea
            label="What is included"
            description="Shown on the booking page"
            autosize
            minRows={3}
            maxRows={10}
            value={description}
            onChange={(e) => {
              changed();
              setDescription(e.currentTarget.value);
            }}
            error={errors.description}
          />
        </Stack>
      </fieldset>
      <Text size="sm" c="dimmed">
        {data.terms_url ? (
          <>
            Travellers must accept{' '}
            <Anchor href={data.terms_url} target="_blank" rel="noopener">
              the booking terms
            </Anchor>{' '}
            (OPERATOR_TERMS_URL).
          </>
        ) : (
          'Travellers accept the booking terms; set OPERATOR_TERMS_URL to link them.'
        )}
      </Text>
      {saving.failure && (
        <Alert color="red" role="alert">
          {saving.failure}
        </Alert>
      )}
      {notice && (
        <Alert color="green" role="status">
          {notice}
        </Alert>
      )}
      {may('trips') && (
        <Group>
          <Button onClick={save} loading={saving.isPending}>
            Save online booking
          </Button>
        </Group>
      )}
    </Stack>
  );
}
