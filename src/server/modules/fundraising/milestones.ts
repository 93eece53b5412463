import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { formatPence } from '../../../contract/money.ts';
import { FUNDRAISING_TYPES, type FundraisingType } from '../../../contract/fundraising-constants.ts';
import type { Db } from '../../../db/client.ts';
import { bookings, charities, fundraisingReminders, trips } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import { type Mailer } from '../../mail/transport.ts';
import { emailDate, type TemplateContext } from '../../mail/templates.ts';
import type { Operator } from '../../common/operator.ts';
import { inSendingHours } from '../../common/sending-hours.ts';
import { milestoneDate, milestonePence } from './rules.ts';
import type { FundraisingDefaults, FundraisingRule } from './service.ts';
import { FundraisingService } from './service.ts';
import { sendOnce } from '../../mail/send-once.ts';
import { portalUrlOf } from '../../common/portal-links.ts';

/** The milestone chaser goes this many days before a milestone the traveller has not reached. */
export const MILESTONE_NOTICE_DAYS = 7;

type Outcome = 'sent' | 'failed' | 'skipped';

/**
 * Fundraising milestone chasers: a traveller who fundraises gets one email in the
 * week before each milestone they have not yet reached (from the "fundraising_milestone"
 * template), in sending hours; none for a booking whose automatic chasers are off (recorded as
 * skipped), nor once the trip has left. Each email and skip is in the booking's History.
 */
export class MilestoneChaser {
  private readonly fundraising: FundraisingService;

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly operator: Operator,
    defaults: FundraisingDefaults,
    private readonly clock: Pick<Clock, 'now'>,
  ) {
    this.fundraising = new FundraisingService(db, defaults, clock);
  }

  async run(): Promise<Record<Outcome, number>> {
    const counts: Record<Outcome, number> = { sent: 0, failed: 0, skipped: 0 };
    const now = nowOf(this.clock);
    if (!inSendingHours(now)) return counts;
    const today = ukToday(now);
    const rows = await this.db
      .select({
        id: bookings.id,
        ref: bookings.ref,
        tripId: bookings.tripId,
        title: bookings.title,
        firstName: bookings.firstName,
        lastName: bookings.lastName,
        preferredName: bookings.preferredName,
        email: bookings.email,
        fundingType: bookings.fundingType,
        targetPence: bookings.fundraisingTargetPence,
        pageUrl: bookings.fundraisingPageUrl,
        userId: bookings.userId,
        chasersOff: bookings.chasersOff,
        chasersOffReason: bookings.chasersOffReason,
        tripName: trips.name,
        departure: trips.departureDate,
        charity: charities.name,
      })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .leftJoin(charities, eq(charities.id, bookings.charityId))
      .where(
        and(
          inArray(bookings.status, ['provisional', 'confirmed']),
          inArray(bookings.fundingType, [...FUNDRAISING_TYPES]),
          isNull(trips.deletedAt),
          gt(trips.departureDate, today),
        ),
      )
      .orderBy(asc(trips.departureDate), asc(bookings.id));
    if (!rows.length) return counts;
    const raised = await this.fundraising.raisedOf(rows.map((r) => r.id));
    const rules = new Map<number, Record<FundraisingType, FundraisingRule>>();
    for (const tripId of new Set(rows.map((r) => r.tripId)))
      rules.set(tripId, await this.fundraising.rulesOf(this.db, tripId));
    for (const b of rows) {
      const rule = rules.get(b.tripId)![b.fundingType as FundraisingType];
      const targetPence = b.targetPence ?? rule.minimumPence;
      const raisedPence = raised.get(b.id) ?? 0;
      // the milestone within the coming week that is not yet reached (the nearest, if two)
      const ahead = rule.milestones
        .map((m) => ({ ...m, due: milestoneDate(b.departure, m), pence: milestonePence(targetPence, m) }))
        .filter((m) => m.due > today && m.due <= addDays(today, MILESTONE_NOTICE_DAYS) && raisedPence < m.pence)
        .sort((x, y) => x.due.localeCompare(y.due))[0];
      if (!ahead) continue;
      const context: TemplateContext = {
        traveller: { title: b.title, first_name: b.firstName, last_name: b.lastName, preferred_name: b.preferredName },
        booking: { ref: b.ref },
        trip: { name: b.tripName, departure: emailDate(b.departure) },
        charity: { name: b.charity },
        fundraising: {
          raised: formatPence(raisedPence),
          target: formatPence(targetPence),
          percent: ahead.percent,
          milestone_amount: formatPence(ahead.pence),
          due: emailDate(ahead.due),
          short: formatPence(ahead.pence - raisedPence),
          page_url: b.pageUrl,
        },
        portal: { url: portalUrlOf(b, this.operator.portalLinks, nowOf(this.clock)) },
        operator: { name: this.operator.name },
      };
      counts[await this.remind(b, ahead.due, today, context)] += 1;
    }
    return counts;
  }

  private async remind(
    b: {
      id: number;
      tripId: number;
      email: string;
      firstName: string;
      lastName: string;
      chasersOff: boolean;
      chasersOffReason: string | null;
    },
    due: string,
    today: string,
    context: TemplateContext,
  ): Promise<Outcome> {
    const about = { subject: { type: 'booking', id: b.id }, bookingId: b.id, tripId: b.tripId };
    if (b.chasersOff) {
      const why = `automatic chasers are off for this booking${b.chasersOffReason ? ` (${b.chasersOffReason})` : ''}`;
      const [row] = await this.db
        .insert(fundraisingReminders)
        .values({
          bookingId: b.id,
          milestoneDue: due,
          sentOn: today,
          outcome: 'skipped',
          reason: why,
          createdAt: nowOf(this.clock),
        })
        .onConflictDoNothing()
        .returning({ id: fundraisingReminders.id });
      if (!row) return 'skipped';
      await audit(this.db, {
        action: 'chaser.skipped',
        ...about,
        summary: `did not send the fundraising milestone chaser to ${b.email}: ${why}`,
        details: { check: 'fundraising', due_on: due, reason: why },
      });
      return 'skipped';
    }
    return sendOnce(this.db, this.mailer, {
      template: 'fundraising_milestone',
      context,
      to: { name: `${b.firstName} ${b.lastName}`, address: b.email },
      about,
      named: (subject) => `the fundraising milestone chaser "${subject}" to ${b.email}`,
      details: { milestone_due: due },
      claim: async () => {
        const [claim] = await this.db
          .insert(fundraisingReminders)
          .values({
            bookingId: b.id,
            milestoneDue: due,
            sentOn: today,
            outcome: 'sending',
            createdAt: nowOf(this.clock),
          })
          .onConflictDoUpdate({
            target: [fundraisingReminders.bookingId, fundraisingReminders.milestoneDue],
            set: { outcome: 'sending', sentOn: today, reason: null },
            setWhere: sql`${fundraisingReminders.outcome} = 'failed'`,
          })
          .returning({ id: fundraisingReminders.id });
        return claim?.id;
      },
      settle: async (tx, id, failure) => {
        await tx
          .update(fundraisingReminders)
          .set(failure === null ? { outcome: 'sent' } : { outcome: 'failed', reason: failure })
          .where(eq(fundraisingReminders.id, id));
      },
    });
  }
}
