import { SIGN_IN_LINK_MINUTES } from '../../../contract/my.ts';
import type { Operator } from '../../common/operator.ts';
import type { EmailPreviews } from '../../mail/previews.ts';

/** The sign-in link's preview: the booking's traveller, and a link that signs no one in. */
export function previews({ operator, publicUrl }: { operator: Operator; publicUrl?: string }): EmailPreviews {
  return {
    sign_in_link: async (b) => ({
      traveller: {
        title: b.booking.title,
        first_name: b.booking.firstName,
        last_name: b.booking.lastName,
        preferred_name: b.booking.preferredName,
      },
      sign_in: {
        url: `${publicUrl ?? ''}/my/sign-in/an-example-link-that-signs-no-one-in`,
        minutes: SIGN_IN_LINK_MINUTES,
      },
      operator: { name: operator.name },
    }),
  };
}
