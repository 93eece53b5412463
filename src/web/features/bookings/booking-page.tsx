import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { FUNDING_TYPE_LABELS } from '../../../contract/booking-constants.ts';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { BookingDetail } from '../../../contract/bookings.ts';
import { path } from '../../../contract/paths.ts';
import { RecordLoader } from '../../components/form-frame.tsx';
import { HistoryPanel } from '../../components/history-panel.tsx';
import { lazyComponent } from '../../components/lazy.tsx';
import { StatusBadge, type Tone, ToneBadge } from '../../components/status-badge.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { formatDateTime, formatLongDate, formatMoney } from '../../lib/format.ts';
import { HIDDEN_FOR_TEAM } from '../../../contract/team-constants.ts';
import { useCan } from '../../lib/session.tsx';
import { bookingKeys, useBooking } from './api/bookings.ts';
import { TravellerFormDialog } from './traveller-form-dialog.tsx';
import { useSchedule } from './api/schedule.ts';
import { EmailsPanel } from './emails-panel.tsx';
import { InvoicesPanel } from './invoices/invoices-panel.tsx';
import { NotesPanel } from './notes/notes-panel.tsx';

// the form (and react-hook-form) loads when Edit Booking is first pressed
const EditBookingDialog = lazyComponent(() => import('./edit-booking-dialog.tsx').then((m) => m.EditBookingDialog));
// the payment schedule (its switch and inputs) loads beside the page; its data is asked for at once
const SchedulePanel = lazyComponent(() => import('./schedule/schedule-panel.tsx').then((m) => m.SchedulePanel));
const CancelBookingDialog = lazyComponent(() =>
  import('./cancel-booking-dialog.tsx').then((m) => m.CancelBookingDialog),
);
const TransferBookingDialog = lazyComponent(() =>
  import('./transfer-booking-dialog.tsx').then((m) => m.TransferBookingDialog),
);
const MoveBookingDialog = lazyComponent(() => import('./move-booking-dialog.tsx').then((m) => m.MoveBookingDialog));
const FundingDialog = lazyComponent(() => import('./funding-dialog.tsx').then((m) => m.FundingDialog));
const RequestsPanel = lazyComponent(() => import('./requests-panel.tsx').then((m) => m.RequestsPanel));
const KeepUntilDialog = lazyComponent(() => import('./keep-until-dialog.tsx').then((m) => m.KeepUntilDialog));
const FundraisingPanel = lazyComponent(() =>
  import('./fundraising/fundraising-panel.tsx').then((m) => m.FundraisingPanel),
);
const BookingReadiness = lazyComponent(() => import('./readiness-panel.tsx').then((m) => m.BookingReadiness));

const PASSPORT_TEXT: Record<BookingDetail['passport_valid'], { label: string; tone: Tone }> = {
  missing: { label: 'No passport details', tone: 'neutral' },
  expired: { label: 'Expires before the trip returns', tone: 'bad' },
  expires: { label: 'Expires too soon after the return for the destination’s rule', tone: 'warn' },
  ok: { label: 'Valid', tone: 'good' },
};

function Facts({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      <Stack gap={6}>{children}</Stack>
    </Paper>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  const empty = value === null || value === undefined || value === '';
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" w={150} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {empty ? '—' : value}
      </Text>
    </Group>
  );
}

// null: hidden from a team without traveller data (shown as a dash)
const yesNo = (v: boolean | null) => (v === null ? null : v ? 'Yes' : 'No');
const capital = (v: string | null) => (v ? v.charAt(0).toUpperCase() + v.slice(1) : v);
const FUNDING: Record<string, string> = FUNDING_TYPE_LABELS;

export default function BookingPage() {
  const booking = useBooking(Number(useParams().id));
  return (
    <RecordLoader query={booking} failed="The booking could not be loaded. Please refresh the page and try again.">
      {(b) => <Booking b={b} />}
    </RecordLoader>
  );
}

function Booking({ b }: { b: BookingDetail }) {
  const may = useCan();
  // what the team may do with the booking itself; the money and fundraising panels ask for theirs
  const changes = may('bookings');
  // the travellers' health and passport data: the server sends none to a team without it
  const secret = (value: ReactNode) => (may('traveller_data', 'read') ? value : HIDDEN_FOR_TEAM);
  const [editing, setEditing] = useState(false);
  const [keeping, setKeeping] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const [moving, setMoving] = useState(false);
  const [funding, setFunding] = useState(false);
  const [kept, setKept] = useState<string | null>(null);
  const [linking, setLinking] = useState(false);
  const [linkError, setLinkError] = useState<string | null>(null);
  useSchedule(b.id, may('finance', 'read'));
  // the traveller's own pages, opened at this booking: the link goes to their email, never to the office
  const emailSignInLink = async () => {
    setLinking(true);
    setLinkError(null);
    try {
      const { message } = await api<{ message: string }>(`/api/bookings/${b.id}/sign-in-link`, { method: 'POST' });
      setKept(message);
    } catch (error) {
      setLinkError(
        error instanceof ApiError
          ? (Object.values(error.errors ?? {})[0]?.[0] ?? error.message)
          : 'The link could not be sent.',
      );
    } finally {
      setLinking(false);
    }
  };
  const passport = PASSPORT_TEXT[b.passport_valid];
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>
            {b.first_name} {b.last_name}{' '}
            <Text span c="dimmed" fz="h3">
              {b.ref}
            </Text>
          </Title>
          <Group gap="xs" mt={4}>
            <StatusBadge status={b.status} />
            {b.source === 'online' && <ToneBadge tone="info">Booked online</ToneBadge>}
            {b.hold_expires_at && (
              <ToneBadge tone="warn">Held for its deposit until {formatDateTime(b.hold_expires_at)}</ToneBadge>
            )}
            <Text size="sm">
              {b.trip.name} · {b.trip.country} · {formatLongDate(b.trip.departure)} to {formatLongDate(b.trip.return)}
            </Text>
            {b.trip.deleted && <ToneBadge tone="bad">Trip deleted</ToneBadge>}
          </Group>
        </div>
        <Group>
          {changes && (
            <>
              <Button onClick={() => setEditing(true)}>Edit Booking</Button>
              {/* the form holds the passport, insurance, next-of-kin and medical fields: the server wants traveller data change */}
              {may('traveller_data') && <TravellerFormDialog b={b} />}
              <Button variant="default" onClick={() => void emailSignInLink()} loading={linking}>
                Email a sign-in link
              </Button>
            </>
          )}
          {changes && b.status !== 'cancelled' && (
            <>
              <Button variant="default" onClick={() => setTransferring(true)}>
                Transfer
              </Button>
              <Button variant="default" onClick={() => setMoving(true)}>
                Move
              </Button>
              <Button variant="outline" color="red" onClick={() => setCancelling(true)}>
                Cancel Booking
              </Button>
            </>
          )}
          <Anchor component={Link} to={path('booking-list')}>
            Back to Bookings
          </Anchor>
        </Group>
      </Group>
      {linkError && (
        <Alert color="red" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => setLinkError(null)}>
          {linkError}
        </Alert>
      )}
      {kept && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setKept(null)}>
          {kept}
        </Alert>
      )}
      <RequestsPanel bookingId={b.id} onCancel={() => setCancelling(true)} />

      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
        <Facts title="Traveller">
          <Fact label="Name" value={`${b.title ? b.title + ' ' : ''}${b.first_name} ${b.last_name}`} />
          <Fact label="Preferred name" value={b.preferred_name} />
          <Fact label="Email" value={b.email && <Anchor href={`mailto:${b.email}`}>{b.email}</Anchor>} />
          <Fact label="Mobile" value={b.mobile} />
          <Fact
            label="Date of birth"
            value={b.date_of_birth ? `${formatLongDate(b.date_of_birth)} (${b.age} on departure)` : null}
          />
          <Fact label="Gender" value={capital(b.gender)} />
          <Fact
            label="Address"
            value={[b.address_1, b.address_2, b.address_3, b.address_4, b.post_code].filter(Boolean).join(', ')}
          />
          <Fact
            label="Own pages"
            value={
              b.traveller_last_signed_in_at
                ? `Last signed in ${formatLongDate(b.traveller_last_signed_in_at)}; their changes are in the History (Traveller’s pages)`
                : 'Never signed in'
            }
          />
          <Fact
            label="Account"
            value={
              b.user_url &&
              may('people', 'read') && (
                <Anchor component={Link} to={b.user_url}>
                  Open the user
                </Anchor>
              )
            }
          />
        </Facts>
        <Facts title="Booking, trip and room">
          <Fact label="Received" value={formatLongDate(b.created_at)} />
          <Fact label="Deposit paid" value={b.deposit_payment_date ? formatLongDate(b.deposit_payment_date) : null} />
          <Fact label="Charity" value={b.charity?.name} />
          <Fact label="Travel basis" value={b.travel_basis === 'landonly' ? 'Land only' : 'Flights included'} />
          <Fact
            label="Travel basis discount"
            value={b.travel_basis_discount ? formatMoney(b.travel_basis_discount) : null}
          />
          <Fact label="Room type" value={b.room_type} />
          <Fact label="Room ref" value={b.room_ref} />
          <Fact label="Sharing with" value={b.share_with} />
          <Fact label="Double room" value={yesNo(b.double_room)} />
        </Facts>
        <Facts title="Passport">
          <Fact label="State" value={<ToneBadge tone={passport.tone}>{passport.label}</ToneBadge>} />
          <Fact label="Number" value={secret(b.passport_number)} />
          <Fact label="Issued" value={secret(b.passport_issue ? formatLongDate(b.passport_issue) : null)} />
          <Fact label="Expires" value={secret(b.passport_expiry ? formatLongDate(b.passport_expiry) : null)} />
          <Fact label="Nationality" value={secret(b.nationality)} />
          <Fact
            label="Image"
            value={
              b.has_passport_image ? (
                may('traveller_data', 'read') ? (
                  <Anchor href={`/api/bookings/${b.id}/passport-image`} target="_blank">
                    View the photo page
                  </Anchor>
                ) : (
                  'Uploaded'
                )
              ) : (
                'Not uploaded'
              )
            }
          />
          <Fact
            label="Erasure"
            value={
              b.personal_data_erased_at ? (
                `Passport, medical and next-of-kin details erased on ${formatLongDate(b.personal_data_erased_at)}, after the trip's return.`
              ) : (
                <Group gap="xs">
                  <Text size="sm">
                    {b.keep_until
                      ? `Kept until ${formatLongDate(b.keep_until)}: ${b.keep_reason ?? ''}`
                      : "Erased some months after the trip's return."}
                  </Text>
                  {changes && (
                    <Button size="compact-xs" variant="default" onClick={() => setKeeping(true)}>
                      {b.keep_until ? 'Change' : 'Keep longer…'}
                    </Button>
                  )}
                </Group>
              )
            }
          />
        </Facts>
        <Facts title="Insurance">
          <Fact label="Company" value={secret(b.insurance_company)} />
          <Fact label="Policy number" value={secret(b.insurance_policy_number)} />
          <Fact label="Telephone" value={secret(b.insurance_telephone)} />
        </Facts>
        <Facts title="Next of kin">
          <Fact label="Name" value={secret(b.nok_name)} />
          <Fact label="Relationship" value={secret(b.nok_relationship)} />
          <Fact label="Email" value={secret(b.nok_email)} />
          <Fact label="Telephone" value={secret(b.nok_telephone)} />
          <Fact label="Address" value={secret(b.nok_address)} />
        </Facts>
        <Facts title="Medical and dietary">
          <Fact label="Conditions" value={secret(yesNo(b.medical_conditions))} />
          <Fact label="Details" value={secret(b.medical_detail)} />
          <Fact label="Medication" value={secret(b.medication)} />
          <Fact label="Dietary" value={secret(b.dietary)} />
        </Facts>
        <Facts title="Funding">
          <Fact label="Funding" value={FUNDING[b.funding_type] ?? b.funding_type} />
          <Fact label="Raises for" value={b.charity?.name ?? 'No charity'} />
          <Fact label="Form complete" value={yesNo(b.form_complete)} />
          {changes && b.status !== 'cancelled' && (
            <Button variant="default" size="xs" w="fit-content" onClick={() => setFunding(true)}>
              Change Funding
            </Button>
          )}
        </Facts>
        <Facts title="About the traveller">
          <Fact label="Referred by" value={b.referred_by} />
          <Fact label="Previous trips" value={b.previous_trips} />
          <Fact label="Fitness training" value={b.fitness_training} />
          <Fact label="Additional info" value={b.additional_info} />
          <Fact label="Notes" value={b.notes} />
        </Facts>
        <Facts title="Add-ons">
          {b.addons.length === 0 ? (
            <Text size="sm" c="dimmed">
              No add-ons.
            </Text>
          ) : (
            b.addons.map((a) => (
              <Fact
                key={a.id}
                label={a.name}
                value={`${formatMoney(a.price)} · ${a.pivot.invoiced ? 'Invoiced' : 'Not invoiced'}`}
              />
            ))
          )}
        </Facts>
        <Facts title="Trip questions">
          {b.custom_fields.length === 0 ? (
            <Text size="sm" c="dimmed">
              This trip asks no extra questions.
            </Text>
          ) : (
            b.custom_fields.map((f) => <Fact key={f.id} label={f.label} value={f.answer} />)
          )}
        </Facts>
      </SimpleGrid>

      <BookingReadiness bookingId={b.id} tripId={b.trip.id} school={b.trip.type === 'school'} />
      {(b.funding_type === 'fundraise' || b.funding_type === 'flexi') && may('charities', 'read') && (
        <FundraisingPanel bookingId={b.id} />
      )}
      {may('finance', 'read') && (
        <>
          <InvoicesPanel booking={b} />
          <SchedulePanel booking={b} />
        </>
      )}
      <NotesPanel bookingId={b.id} />
      <EmailsPanel bookingId={b.id} />
      <HistoryPanel url={`/api/bookings/${b.id}/history`} queryKey={bookingKeys.one(b.id)} />

      {editing && <EditBookingDialog booking={b} onClose={() => setEditing(false)} />}
      {transferring && (
        <TransferBookingDialog
          bookingId={b.id}
          onClose={() => setTransferring(false)}
          onDone={(message) => {
            setTransferring(false);
            setKept(message);
          }}
        />
      )}
      {funding && (
        <FundingDialog
          bookingId={b.id}
          fundingType={b.funding_type}
          charityId={b.charity?.id ?? null}
          onClose={() => setFunding(false)}
          onDone={(message) => {
            setFunding(false);
            setKept(message);
          }}
        />
      )}
      {moving && (
        <MoveBookingDialog
          bookingId={b.id}
          onClose={() => setMoving(false)}
          onDone={(message) => {
            setMoving(false);
            setKept(message);
          }}
        />
      )}
      {cancelling && (
        <CancelBookingDialog
          bookingId={b.id}
          onClose={() => setCancelling(false)}
          onDone={(message) => {
            setCancelling(false);
            setKept(message);
          }}
        />
      )}
      {keeping && (
        <KeepUntilDialog
          bookingId={b.id}
          keepUntil={b.keep_until}
          keepReason={b.keep_reason}
          onClose={() => setKeeping(false)}
          onDone={(message) => {
            setKeeping(false);
            setKept(message);
          }}
        />
      )}
    </Stack>
  );
}
