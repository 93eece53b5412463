import { Alert, Anchor, Button, Checkbox, Grid, Group, NativeSelect, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { minimumWarning } from '../../../contract/change-constants.ts';
import { toDdMmYyyy, ukToday } from '../../../contract/dates.ts';
import { path } from '../../../contract/paths.ts';
import { DEFAULT_CONSENT_TEXT } from '../../../contract/readiness-constants.ts';
import type { updateTripSchema, Trip } from '../../../contract/trips.ts';
import { FormPage, RecordLoader } from '../../components/form-frame.tsx';
import { formatLongDate } from '../../lib/format.ts';
import { lazyComponent } from '../../components/lazy.tsx';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { tripKeys, updateTrip, useCountries, useTrip } from './api/trips.ts';
import { fundingOptions, levelOptions, statusOptions, typeOptions } from './trip-options.ts';

// the panels (their tables, forms and the history) load beside the form, not before it
const CancelTripDialog = lazyComponent(() => import('./cancel-trip-dialog.tsx').then((m) => m.CancelTripDialog));
const TripPanels = lazyComponent(() => import('./trip-panels.tsx').then((m) => m.TripPanels));

type Values = {
  name: string;
  country_id: string;
  departure: string;
  return: string;
  type: Trip['type'];
  level: string;
  status: Trip['status'];
  deposit: string;
  cost: string;
  require_passport: boolean;
  funding: Trip['funding'];
  capacity: string;
  minimum: string;
  consent_text: string;
};

const toValues = (t: Trip): Values => ({
  name: t.name,
  country_id: String(t.country_id),
  departure: toDdMmYyyy(t.departure),
  return: toDdMmYyyy(t.return),
  type: t.type,
  level: String(t.level),
  status: t.status,
  deposit: t.deposit.toFixed(2),
  cost: t.cost.toFixed(2),
  require_passport: t.require_passport,
  funding: t.funding,
  capacity: t.capacity === null ? '' : String(t.capacity),
  minimum: t.minimum === null ? '' : String(t.minimum),
  consent_text: t.consent_text ?? '',
});

export default function TripEditPage() {
  const id = Number(useParams().id);
  const trip = useTrip(id);
  return (
    <RecordLoader query={trip} failed="The trip could not be loaded. Please refresh the page and try again.">
      {(t) => <TripForm key={t.id} trip={t} />}
    </RecordLoader>
  );
}

function TripForm({ trip }: { trip: Trip }) {
  const may = useCan();
  // trips change edits the trip's details; a trip that cannot change says why below
  const readOnly = !trip.editable || !may('trips');
  const countries = useCountries();
  const [saved, setSaved] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [cancelled, setCancelled] = useState<string | null>(null);
  const belowMinimum = minimumWarning(trip, ukToday(new Date()));
  const form = useForm<Values, unknown, z.output<typeof updateTripSchema>>({
    resolver: lazyZodResolver(() => import('../../../contract/trips.ts').then((m) => m.updateTripSchema)) as never,
    defaultValues: toValues(trip),
  });
  const errors = form.formState.errors;
  // a school trip asks a parent's consent for its pupils: its wording is the trip's
  const school = useWatch({ control: form.control, name: 'type' }) === 'school';
  const saving = useFormMutation({
    mutationFn: (values: Values) => updateTrip(trip.id, values),
    // the trip's key holds its panels and its history too
    invalidate: [tripKeys.lists, tripKeys.one(trip.id)],
    setError: form.setError,
    fallback: 'Sorry, the trip could not be saved. Please try again.',
    onSuccess: (updated) => {
      form.reset(toValues(updated));
      setSaved(true);
    },
  });
  const save = form.handleSubmit(async () => {
    setSaved(false);
    // the form's own values: the server reads dd/mm/yyyy and pounds
    await saving.submit(form.getValues());
  });

  return (
    <FormPage
      title={`Edit Trip: ${trip.name}`}
      label="Trip details"
      failure={saving.failure}
      onSubmit={save}
      submitLabel="Save Trip"
      submitting={saving.isPending}
      readOnly={readOnly}
      back={{ to: path('trip-list'), label: 'Back to Trips' }}
      maw="100%"
      above={
        <>
          <Group gap="lg">
            {may('bookings', 'read') && (
              <>
                <Anchor component={Link} to={`${path('booking-list')}?timing=all&trip_id=${trip.id}`} w="fit-content">
                  Bookings ({trip.booking_count})
                </Anchor>
                <Anchor component={Link} to={path('trip-readiness', { id: trip.id })} w="fit-content">
                  Ready to depart?
                </Anchor>
              </>
            )}
            {/* cancelling a departure ends the trip and cancels its bookings: trips and bookings change */}
            {trip.editable && trip.status !== 'cancelled' && may('bookings') && may('trips') && (
              <Button variant="outline" color="red" size="xs" onClick={() => setCancelling(true)}>
                Cancel Departure
              </Button>
            )}
          </Group>
          {cancelled && (
            <Alert
              color="blue"
              role="status"
              withCloseButton
              onClose={() => setCancelled(null)}
              closeButtonLabel="Dismiss"
            >
              {cancelled}
            </Alert>
          )}
          {belowMinimum && (
            <Alert color="red" role="alert" title="Below its minimum numbers">
              {trip.booking_count} booked of a minimum of {trip.minimum} ({belowMinimum.short} short).{' '}
              {belowMinimum.daysLeft >= 0
                ? `To cancel it for that with no more than a refund (reg 13), tell the travellers by ${formatLongDate(belowMinimum.deadline)}: ${belowMinimum.daysLeft === 0 ? 'today' : `${belowMinimum.daysLeft} ${belowMinimum.daysLeft === 1 ? 'day' : 'days'} left`}.`
                : `The last day to cancel it for that (reg 13) was ${formatLongDate(belowMinimum.deadline)}.`}
            </Alert>
          )}
          {cancelling && (
            <CancelTripDialog
              tripId={trip.id}
              onClose={() => setCancelling(false)}
              onDone={(message) => {
                setCancelling(false);
                setCancelled(message);
                // the form shows the trip as it now is, so that saving it never reopens it
                form.reset({ ...form.getValues(), status: 'cancelled' });
              }}
            />
          )}
          {!trip.editable && (
            <Alert
              color="yellow"
              role="status"
              title="Read only"
              styles={{ title: { color: '#6b4400' }, message: { color: '#3d2a00' } }}
            >
              {trip.editable_reason}
            </Alert>
          )}
        </>
      }
      below={<TripPanels tripId={trip.id} editable={trip.editable} type={trip.type} />}
    >
      <Title order={2} size="h4">
        Trip details
      </Title>
      {saved && (
        <Alert color="blue" role="status" withCloseButton onClose={() => setSaved(false)} closeButtonLabel="Dismiss">
          Trip details updated
        </Alert>
      )}
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0 }}>
        <Grid>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <TextInput label="Trip Name" required error={errors.name?.message} {...form.register('name')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            {/* a native select: its list opens at the letter typed, and the page loads no combobox */}
            <Controller
              control={form.control}
              name="country_id"
              render={({ field }) => (
                <NativeSelect
                  label="Country"
                  required
                  data={(countries.data ?? [trip.country]).map((c) => ({ value: String(c.id), label: c.name }))}
                  value={field.value}
                  onChange={(e) => field.onChange(e.currentTarget.value)}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  error={errors.country_id?.message}
                />
              )}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput
              label="Departure"
              required
              placeholder="DD/MM/YYYY"
              maxLength={10}
              error={errors.departure?.message}
              {...form.register('departure')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput
              label="Return"
              required
              placeholder="DD/MM/YYYY"
              maxLength={10}
              error={errors.return?.message}
              {...form.register('return')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <NativeSelect label="Type" data={typeOptions} error={errors.type?.message} {...form.register('type')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <NativeSelect label="Level" data={levelOptions} error={errors.level?.message} {...form.register('level')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <NativeSelect
              label="Status"
              data={statusOptions}
              error={errors.status?.message}
              {...form.register('status')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput
              label="Deposit"
              leftSection="£"
              placeholder="0.00"
              inputMode="decimal"
              error={errors.deposit?.message}
              {...form.register('deposit')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput
              label="Cost"
              leftSection="£"
              placeholder="0.00"
              inputMode="decimal"
              error={errors.cost?.message}
              {...form.register('cost')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <NativeSelect
              label="Funding"
              data={fundingOptions}
              error={errors.funding?.message}
              {...form.register('funding')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput
              label="Capacity"
              description="Places on the trip; empty if not set"
              inputMode="numeric"
              error={errors.capacity?.message}
              {...form.register('capacity')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput
              label="Minimum numbers"
              description="Fewest travellers it runs with; empty if none"
              inputMode="numeric"
              error={errors.minimum?.message}
              {...form.register('minimum')}
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <Checkbox label="Travellers must give passport details" {...form.register('require_passport')} />
          </Grid.Col>
          {school && (
            <Grid.Col span={12}>
              <Textarea
                label="Parent’s consent"
                description="What a parent agrees to for each pupil under 18, by typing their name on their child’s page; empty: the office’s wording"
                placeholder={DEFAULT_CONSENT_TEXT}
                autosize
                minRows={3}
                maxRows={10}
                error={errors.consent_text?.message}
                {...form.register('consent_text')}
              />
            </Grid.Col>
          )}
        </Grid>
      </fieldset>
    </FormPage>
  );
}
