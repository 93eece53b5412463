import { eq } from 'drizzle-orm';
import {
  FUNDING_ALLOWED,
  FUNDING_TYPE_LABELS,
  type FundingType,
  RAISES_FOR_CHARITY,
} from '../../../contract/booking-constants.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { charities } from '../../../db/schema/index.ts';

type TripFunding = { type: string; funding: string; charityId: number | null };

/**
 * The one rule for a booking's funding and charity, set by staff on a new booking or changed
 * later: the funding type must be one the trip allows; a charity given must exist; with none given
 * the trip's own charity is taken; and on a charity trip a fundraising or flexi booking needs one.
 * Field errors when it is refused; what to store when it is not.
 */
export async function fundingOf(
  db: Db | Tx,
  trip: TripFunding,
  fundingType: FundingType,
  charityId: number | null,
): Promise<
  | { ok: true; fundingType: FundingType; charity: { id: number; name: string } | null }
  | { ok: false; errors: Record<string, string[]> }
> {
  const errors: Record<string, string[]> = {};
  const allowed = FUNDING_ALLOWED[trip.funding as keyof typeof FUNDING_ALLOWED] ?? FUNDING_ALLOWED.both;
  if (!allowed.includes(fundingType))
    errors.funding_type = [
      `This trip does not take ${FUNDING_TYPE_LABELS[fundingType].toLowerCase()} bookings: its funding is set on the trip.`,
    ];
  const id = charityId ?? trip.charityId;
  const [charity] =
    id === null
      ? []
      : await db.select({ id: charities.id, name: charities.name }).from(charities).where(eq(charities.id, id));
  if (id !== null && !charity) errors.charity_id = ['The selected charity is invalid.'];
  else if (trip.type === 'charity' && RAISES_FOR_CHARITY.includes(fundingType) && !charity)
    errors.charity_id = ['Choose the charity this booking raises money for.'];
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, fundingType, charity: charity ?? null };
}
