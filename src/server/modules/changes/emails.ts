import type { Operator } from '../../common/operator.ts';
import { portalPreviewUrl } from '../../common/portal-links.ts';
import type { EmailPreviews } from '../../mail/previews.ts';
import { emailDate } from '../../mail/templates.ts';
import { addDays } from '../../../contract/dates.ts';

/** The charity's, the transfer's and the cancellation's emails' previews. The cancellation's: the booking's traveller and trip, a £250 deposit kept of £400 paid. */
export function previews({ operator }: { operator: Operator }): EmailPreviews {
  return {
    booking_moved: async (b, today) => ({
      traveller: {
        title: b.booking.title,
        first_name: b.booking.firstName,
        last_name: b.booking.lastName,
        preferred_name: b.booking.preferredName,
      },
      booking: { ref: b.booking.ref },
      trip: { name: b.trip.name, departure: emailDate(b.trip.departure) },
      move: {
        from_name: 'Example Trek 2026',
        from_departure: emailDate(addDays(today, 60)),
        fee: '£100.00',
        refund_owed: '£0.00',
        schedule: `Balance £1,645.00 due ${emailDate(addDays(today, 120))}`,
      },
      portal: { url: portalPreviewUrl(operator.portalLinks) },
      operator: { name: operator.name },
    }),
    charity_fundraiser_changed: async (b) => ({
      recipient: { first_name: 'Alex', last_name: 'Example' },
      charity: { name: 'Example Charity' },
      traveller: {
        title: b.booking.title,
        first_name: b.booking.firstName,
        last_name: b.booking.lastName,
        preferred_name: b.booking.preferredName,
      },
      booking: { ref: b.booking.ref },
      trip: { name: b.trip.name, departure: emailDate(b.trip.departure) },
      fundraiser: { joined: true, target: '£2,500.00' },
      operator: { name: operator.name },
    }),
    booking_transferred: async (b) => ({
      traveller: {
        title: b.booking.title,
        first_name: b.booking.firstName,
        last_name: b.booking.lastName,
        preferred_name: b.booking.preferredName,
      },
      booking: { ref: b.booking.ref },
      trip: { name: b.trip.name, departure: emailDate(b.trip.departure) },
      transfer: {
        from_name: 'Sam Example',
        to_name: `${b.booking.firstName} ${b.booking.lastName}`,
        fee: '£25.00',
        to_you: true,
      },
      portal: { url: portalPreviewUrl(operator.portalLinks) },
      operator: { name: operator.name },
    }),
    booking_cancelled: async (b, today) => ({
      traveller: {
        title: b.booking.title,
        first_name: b.booking.firstName,
        last_name: b.booking.lastName,
        preferred_name: b.booking.preferredName,
      },
      booking: { ref: b.booking.ref, status: 'cancelled' },
      trip: { name: b.trip.name, departure: emailDate(b.trip.departure) },
      cancellation: {
        reason: 'You asked us to cancel: you can no longer travel.',
        fee: '£250.00',
        paid: '£400.00',
        refund_owed: '£150.00',
        refund_due_on: emailDate(addDays(today, 14)),
        still_owed: '£0.00',
        fee_waived: false,
      },
      portal: { url: portalPreviewUrl(operator.portalLinks) },
      operator: { name: operator.name },
    }),
  };
}
