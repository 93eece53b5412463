import type { ChaserCheck } from '../../../contract/chasers.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../clock.ts';
import type { Operator } from '../../common/operator.ts';
import { portalPreviewUrl } from '../../common/portal-links.ts';
import { HttpError } from '../../errors.ts';
import type { EmailPreviews, PreviewBooking } from '../../mail/previews.ts';
import { ReadinessService } from '../readiness/service.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { chaserContext } from './service.ts';

/** The chasers' previews: with the booking's own reason, or an example one when its check is green. */
export function previews(d: {
  db: Db;
  operator: Operator;
  clock: Pick<Clock, 'now'>;
  fundraisingDefaults: FundraisingDefaults;
}): EmailPreviews {
  const example: Record<ChaserCheck, string> = {
    passport: 'No passport details yet.',
    forms: 'The booking form is not complete.',
    consent: 'No parent’s consent yet.',
  };
  const chaser = (check: ChaserCheck) => async (b: PreviewBooking) => {
    if (b.trip.deletedAt)
      throw new HttpError(422, "The selected booking's trip has been deleted: choose another booking.");
    const { trip, row } = await new ReadinessService(d.db, d.fundraisingDefaults, d.clock).ofBooking(b.booking.id);
    const reason = row.checks[check].state === 'green' ? example[check] : row.checks[check].reason;
    return chaserContext(b.booking, trip, reason, d.operator, portalPreviewUrl(d.operator.portalLinks));
  };
  return { chaser_passport: chaser('passport'), chaser_forms: chaser('forms'), chaser_consent: chaser('consent') };
}
