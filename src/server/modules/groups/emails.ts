import type { Operator } from '../../common/operator.ts';
import { portalPreviewUrl } from '../../common/portal-links.ts';
import type { EmailPreviews } from '../../mail/previews.ts';
import { emailDate } from '../../mail/templates.ts';

/** A parent's invitation, previewed for a booking as if it were a pupil of an example school's group. */
export function previews({ operator }: { operator: Operator }): EmailPreviews {
  return {
    group_parent_invitation: async (b) => ({
      traveller: { title: null, first_name: b.booking.firstName, last_name: b.booking.lastName, preferred_name: null },
      booking: { ref: b.booking.ref },
      trip: { name: b.trip.name, departure: emailDate(b.trip.departure), return: emailDate(b.trip.return) },
      group: { school: 'Hillside Academy', leader_name: 'Ms Example' },
      parent: { name: b.booking.nokName ?? 'Pat Parent' },
      portal: { url: portalPreviewUrl(operator.portalLinks) },
      operator: { name: operator.name },
    }),
  };
}
