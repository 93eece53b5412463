import { eq } from 'drizzle-orm';
import { addDays } from '../../../contract/dates.ts';
import { formatPounds } from '../../../contract/money.ts';
import type { Db } from '../../../db/client.ts';
import { charities } from '../../../db/schema/index.ts';
import type { Clock } from '../../clock.ts';
import type { Operator } from '../../common/operator.ts';
import { portalPreviewUrl } from '../../common/portal-links.ts';
import type { EmailPreviews } from '../../mail/previews.ts';
import { emailDate } from '../../mail/templates.ts';
import { summaryContext } from './charity-summary.ts';
import { FundraisingService, type FundraisingDefaults } from './service.ts';

/** The fundraising emails' previews: the booking's own figures, example ones where it has none. */
export function previews(d: {
  db: Db;
  operator: Operator;
  clock: Pick<Clock, 'now'>;
  fundraisingDefaults: FundraisingDefaults;
}): EmailPreviews {
  const fundraising = () => new FundraisingService(d.db, d.fundraisingDefaults, d.clock);
  return {
    // the booking's charity as one of its portal users would get it; an example charity when the booking has none
    fundraising_summary: async (b, today) => {
      const [charity] =
        b.booking.charityId === null
          ? []
          : await d.db
              .select({ id: charities.id, name: charities.name })
              .from(charities)
              .where(eq(charities.id, b.booking.charityId));
      const list = charity
        ? await fundraising().ofCharity(charity.id)
        : {
            ...{ current_page: 1, last_page: 1, per_page: 1, from: null, to: null },
            totals: { fundraisers: 0, raised: 0, pledged: 0, shortfall: 0, behind: 0, met: 0 },
            fundraisers: [],
            portal_users: [],
          };
      const [first] = list.portal_users;
      const recipient = first
        ? { firstName: first.name.split(' ')[0] ?? first.name, lastName: first.name.split(' ').slice(1).join(' ') }
        : { firstName: 'Sam', lastName: 'Sample' };
      return summaryContext(recipient, charity?.name ?? 'Sample Charity', list, today, d.operator);
    },
    // the booking's own next milestone; example figures for one that does not fundraise or has none ahead
    fundraising_milestone: async (b, today) => {
      const f = await fundraising().forBooking(b.booking.id);
      const m = f.next ?? { percent: 50, amount: f.target / 2 || 1250, due: addDays(today, 7) };
      return {
        traveller: {
          title: b.booking.title,
          first_name: b.booking.firstName,
          last_name: b.booking.lastName,
          preferred_name: b.booking.preferredName,
        },
        booking: { ref: b.booking.ref },
        trip: { name: b.trip.name, departure: emailDate(b.trip.departure) },
        charity: { name: f.charity?.name ?? null },
        fundraising: {
          raised: formatPounds(f.raised),
          target: formatPounds(f.target || 2500),
          percent: m.percent,
          milestone_amount: formatPounds(m.amount),
          due: emailDate(m.due),
          short: formatPounds(Math.max(0, m.amount - f.raised)),
          page_url: f.page_url,
        },
        portal: { url: portalPreviewUrl(d.operator.portalLinks) },
        operator: { name: d.operator.name },
      };
    },
  };
}
