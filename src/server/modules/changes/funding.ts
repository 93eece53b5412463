import { and, eq, isNull, sql } from 'drizzle-orm';
import { FUNDING_TYPE_LABELS, type FundingType } from '../../../contract/booking-constants.ts';
import type { FundingPreview, FundingSet, SetFundingValues } from '../../../contract/changes.ts';
import { ROLES } from '../../../contract/constants.ts';
import { formatPence, penceToPounds as p } from '../../../contract/money.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { bookings, charities, fundraisingEntries, trips, users } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf } from '../../clock.ts';
import { notFound, validationError } from '../../errors.ts';
import { emailDate, renderTemplate, templateOf } from '../../mail/templates.ts';
import { fundingOf } from '../bookings/funding.ts';
import { fundraises, FundraisingService } from '../fundraising/service.ts';
import type { ChangesDeps } from './service.ts';

type Charity = { id: number; name: string } | null;
type FundingPlan = {
  preview: FundingPreview;
  booking: { id: number; ref: string; tripId: number; firstName: string; lastName: string };
  trip: { name: string; departure: string };
  to: { fundingType: FundingType; charity: Charity; targetPence: number | null };
};

/**
 * A booking's funding type and charity, changed after booking (issue 35): checked by the rule that
 * checks a new booking's, previewed by the function that then does it; the entries raised are kept
 * whatever the funding; the charity a fundraiser joins or leaves is told.
 */
export class Funding {
  private readonly fundraising: FundraisingService;

  constructor(private readonly d: ChangesDeps) {
    this.fundraising = new FundraisingService(d.db, d.fundraising, d.clock);
  }

  private async plan(
    tx: Db | Tx,
    bookingId: number,
    v: { funding_type: FundingType; charity_id: number | null },
    lock: boolean,
  ): Promise<FundingPlan> {
    const q = tx
      .select({
        id: bookings.id,
        ref: bookings.ref,
        tripId: bookings.tripId,
        firstName: bookings.firstName,
        lastName: bookings.lastName,
        fundingType: bookings.fundingType,
        charityId: bookings.charityId,
        ownTarget: bookings.fundraisingTargetPence,
        tripType: trips.type,
        tripFunding: trips.funding,
        tripCharityId: trips.charityId,
        tripName: trips.name,
        departure: trips.departureDate,
      })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, bookingId));
    const [b] = lock ? await q.for('update', { of: bookings }) : await q;
    if (!b) throw notFound('Booking not found');
    const checked = await fundingOf(
      tx,
      { type: b.tripType, funding: b.tripFunding, charityId: b.tripCharityId },
      v.funding_type,
      v.charity_id,
    );
    if (!checked.ok) throw validationError(checked.errors);
    const rules = await this.fundraising.rulesOf(tx, b.tripId);
    const targetOf = (type: string) => (fundraises(type) ? (b.ownTarget ?? rules[type].minimumPence) : null);
    const [before] =
      b.charityId === null
        ? []
        : await tx
            .select({ id: charities.id, name: charities.name })
            .from(charities)
            .where(eq(charities.id, b.charityId));
    const from = {
      fundingType: b.fundingType as FundingType,
      charity: before ?? null,
      targetPence: targetOf(b.fundingType),
    };
    const to = {
      fundingType: checked.fundingType,
      charity: checked.charity,
      targetPence: targetOf(checked.fundingType),
    };
    const [entries] = await tx
      .select({
        n: sql<number>`count(*)::int`.mapWith(Number),
        pence: sql<number>`coalesce(sum(${fundraisingEntries.amountPence}), 0)::bigint`.mapWith(Number),
      })
      .from(fundraisingEntries)
      .where(and(eq(fundraisingEntries.bookingId, b.id), isNull(fundraisingEntries.struckAt)));
    const sameCharity = from.charity?.id === to.charity?.id;
    const wasFundraiser = from.targetPence !== null && from.charity !== null;
    const isFundraiser = to.targetPence !== null && to.charity !== null;
    const joined = isFundraiser && (!wasFundraiser || !sameCharity) ? to.charity!.name : null;
    const left = wasFundraiser && (!isFundraiser || !sameCharity) ? from.charity!.name : null;
    const changed = from.fundingType !== to.fundingType || !sameCharity;
    const label = (s: typeof from) =>
      `${FUNDING_TYPE_LABELS[s.fundingType].toLowerCase()}${s.charity ? ` for ${s.charity.name}` : ''}`;
    const summary = !changed
      ? 'Nothing changes: this is the booking’s funding and charity already.'
      : `${b.ref} becomes ${label(to)} (was ${label(from)}). ${
          to.targetPence === null
            ? 'It no longer fundraises'
            : `Its fundraising target is ${formatPence(to.targetPence)}`
        }; ${
          entries!.n === 0
            ? 'nothing has been raised yet'
            : `the ${entries!.n === 1 ? 'entry' : `${entries!.n} entries`} raised so far (${formatPence(entries!.pence)}) ${entries!.n === 1 ? 'is' : 'are'} kept`
        }.${
          joined ? ` ${joined} is told a fundraiser joins it.` : ''
        }${left ? ` ${left} is told a fundraiser leaves it.` : ''}`;
    const side = (s: typeof from) => ({
      funding_type: s.fundingType,
      charity: s.charity,
      fundraises: s.targetPence !== null,
      target: s.targetPence === null ? null : p(s.targetPence),
    });
    return {
      booking: { id: b.id, ref: b.ref, tripId: b.tripId, firstName: b.firstName, lastName: b.lastName },
      trip: { name: b.tripName, departure: b.departure },
      to,
      preview: {
        booking_id: b.id,
        ref: b.ref,
        changed,
        from: side(from),
        to: side(to),
        raised: p(entries!.pence),
        entries_kept: entries!.n,
        charity_joined: joined,
        charity_left: left,
        summary,
      },
    };
  }

  async preview(bookingId: number, v: { funding_type: FundingType; charity_id: number | null }) {
    return (await this.plan(this.d.db, bookingId, v, false)).preview;
  }

  /** Sets the funding and charity in one transaction with its event; then tells the charities. */
  async set(bookingId: number, v: SetFundingValues): Promise<FundingSet> {
    const plan = await this.d.db.transaction(async (tx) => {
      const plan = await this.plan(tx, bookingId, v, true);
      if (!plan.preview.changed) return plan;
      await tx
        .update(bookings)
        .set({
          fundingType: plan.to.fundingType,
          charityId: plan.to.charity?.id ?? null,
          updatedAt: nowOf(this.d.clock),
        })
        .where(eq(bookings.id, bookingId));
      const pr = plan.preview;
      await audit(tx, {
        action: 'booking.funding_changed',
        subject: { type: 'booking', id: bookingId },
        bookingId,
        tripId: plan.booking.tripId,
        summary: `changed the funding of booking ${plan.booking.ref}: ${pr.summary}`,
        details: {
          reason: v.reason,
          target_before: pr.from.target,
          target_after: pr.to.target,
          entries_kept: pr.entries_kept,
          charity_joined: pr.charity_joined,
          charity_left: pr.charity_left,
        },
        changes: {
          ...(pr.from.funding_type === pr.to.funding_type
            ? {}
            : { funding_type: [pr.from.funding_type, pr.to.funding_type] }),
          ...(pr.from.charity?.id === pr.to.charity?.id
            ? {}
            : { charity: [pr.from.charity?.name ?? null, pr.to.charity?.name ?? null] }),
        },
      });
      return plan;
    });
    let sent = 0;
    const pr = plan.preview;
    if (pr.changed) {
      if (pr.charity_joined && pr.to.charity) sent += await this.tellCharity(plan, pr.to.charity, true);
      if (pr.charity_left && pr.from.charity) sent += await this.tellCharity(plan, pr.from.charity, false);
    }
    return {
      ...pr,
      message: pr.changed ? `The funding of ${pr.ref} is changed.` : 'Nothing changed.',
      charity_emails: sent,
    };
  }

  /** Emails each member of the charity that a fundraiser joins it or leaves it; how many were sent. */
  private async tellCharity(plan: FundingPlan, charity: { id: number; name: string }, joined: boolean) {
    const members = await this.d.db
      .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(and(eq(users.userRoleId, ROLES.charity), eq(users.charityId, charity.id)));
    const template = await templateOf(this.d.db, 'charity_fundraiser_changed');
    let sent = 0;
    for (const m of members) {
      try {
        const mail = await renderTemplate(template, {
          recipient: { first_name: m.firstName ?? '', last_name: m.lastName ?? '' },
          charity: { name: charity.name },
          traveller: {
            title: null,
            first_name: plan.booking.firstName,
            last_name: plan.booking.lastName,
            preferred_name: null,
          },
          booking: { ref: plan.booking.ref },
          trip: { name: plan.trip.name, departure: emailDate(plan.trip.departure) },
          fundraiser: { joined, target: plan.to.targetPence === null ? '' : formatPence(plan.to.targetPence) },
          operator: { name: this.d.operator.name },
        });
        await this.d.mailer.send({ to: { name: `${m.firstName} ${m.lastName}`, address: m.email }, ...mail });
        await audit(this.d.db, {
          action: 'booking.charity_told',
          subject: { type: 'booking', id: plan.booking.id },
          bookingId: plan.booking.id,
          summary: `emailed ${m.email} of ${charity.name} that ${plan.booking.firstName} ${plan.booking.lastName} ${joined ? 'joins' : 'leaves'} it as a fundraiser`,
          details: { charity_id: charity.id, joined },
        });
        sent += 1;
      } catch {
        // the change stands; the History shows who was told
      }
    }
    return sent;
  }
}
