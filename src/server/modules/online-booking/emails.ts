import type { Operator } from '../../common/operator.ts';
import { portalPreviewUrl } from '../../common/portal-links.ts';
import type { EmailPreviews } from '../../mail/previews.ts';
import { emailDate } from '../../mail/templates.ts';

/** The booking-received email's preview: the booking's traveller and trip, a £250 deposit and links that pay and sign in no one. */
export function previews({ operator, publicUrl }: { operator: Operator; publicUrl?: string }): EmailPreviews {
  return {
    waiting_list_offer: async (b) => ({
      traveller: { title: null, first_name: b.booking.firstName, last_name: b.booking.lastName, preferred_name: null },
      trip: { name: b.trip.name, departure: emailDate(b.trip.departure) },
      offer: {
        url: `${publicUrl ?? ''}/book/an-example-trip?offer=a-link-made-for-each-offer`,
        places: 1,
        until: `${emailDate(b.trip.departure)} 18:00`,
      },
      operator: { name: operator.name },
    }),
    booking_received: async (b) => ({
      traveller: {
        title: b.booking.title,
        first_name: b.booking.firstName,
        last_name: b.booking.lastName,
        preferred_name: b.booking.preferredName,
      },
      booking: {
        ref: b.booking.ref,
        status: 'provisional',
        next: `Your place on ${b.trip.name} is held for 30 minutes while you pay the £250.00 deposit by card. Your booking reference is ${b.booking.ref}.`,
      },
      trip: { name: b.trip.name, departure: emailDate(b.trip.departure) },
      deposit: {
        amount: '£250.00',
        pay_url: operator.payLinks ? `${publicUrl ?? ''}/pay/an-example-link-that-pays-nothing` : '',
        bank_details: operator.payLinks ? '' : (operator.bankDetails ?? ''),
      },
      portal: { url: portalPreviewUrl(operator.portalLinks) },
      operator: { name: operator.name },
    }),
  };
}
