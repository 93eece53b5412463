import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { ROLES } from '../../../contract/constants.ts';
import { FUNDRAISING_STATE_LABELS, type CharityFundraisers } from '../../../contract/fundraising.ts';
import { formatPounds } from '../../../contract/money.ts';
import type { Db } from '../../../db/client.ts';
import { charities, charitySummaries, users } from '../../../db/schema/index.ts';
import { nowOf, type Clock } from '../../clock.ts';
import { type Mailer } from '../../mail/transport.ts';
import { emailDate, type TemplateContext } from '../../mail/templates.ts';
import { ukToday } from '../../../contract/dates.ts';
import type { Operator } from '../../common/operator.ts';
import { inSendingHours } from '../../common/sending-hours.ts';
import { FundraisingService, type FundraisingDefaults } from './service.ts';
import { sendOnce } from '../../mail/send-once.ts';

type Outcome = 'sent' | 'failed' | 'skipped';

const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The summary's values: the charity's fundraisers, one line each. */
export function summaryContext(
  recipient: { firstName: string; lastName: string },
  charityName: string,
  list: CharityFundraisers,
  today: string,
  operator: Operator,
): TemplateContext {
  const lines = list.fundraisers.map((f) => {
    const standing =
      f.state === 'behind'
        ? `behind (${formatPounds(f.shortfall)} short)`
        : FUNDRAISING_STATE_LABELS[f.state].toLowerCase();
    return `${f.traveller}, ${f.trip.name} (departs ${emailDate(f.departure)}): ${formatPounds(f.raised)} of ${formatPounds(f.target)}, ${standing}`;
  });
  return {
    recipient: { first_name: recipient.firstName, last_name: recipient.lastName },
    charity: { name: charityName },
    summary: {
      month: MONTH.format(new Date(`${today}T00:00:00Z`)),
      count: list.totals.fundraisers,
      behind: list.totals.behind,
      met: list.totals.met,
      raised: formatPounds(list.totals.raised),
      pledged: formatPounds(list.totals.pledged),
      lines: lines.join('\n'),
    },
    operator: { name: operator.name },
  };
}

/**
 * The monthly fundraising summary: at the start of each month, in sending hours, each
 * Charity user linked to a charity with fundraisers gets one email listing them, with their
 * targets, what they have raised and how they stand. One per user and month, even with several
 * workers; a refused one is tried again on the next run. Each is in the history.
 */
export class CharitySummary {
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
    const month = today.slice(0, 7);
    const recipients = await this.db
      .select({
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        charityId: users.charityId,
        charity: charities.name,
      })
      .from(users)
      .innerJoin(charities, eq(charities.id, users.charityId))
      .where(
        and(
          eq(users.userRoleId, ROLES.charity),
          isNotNull(users.charityId),
          sql`not exists (select 1 from ${charitySummaries} cs where cs.user_id = ${users.id} and cs.month = ${month} and cs.outcome = 'sent')`,
        ),
      )
      .orderBy(asc(users.id));
    const lists = new Map<number, CharityFundraisers>();
    for (const r of recipients) {
      const charityId = r.charityId!;
      if (!lists.has(charityId)) lists.set(charityId, await this.fundraising.ofCharity(charityId));
      const list = lists.get(charityId)!;
      if (list.totals.fundraisers === 0) continue;
      counts[await this.send({ ...r, charityId }, list, month, today)] += 1;
    }
    return counts;
  }

  private async send(
    r: { id: number; firstName: string; lastName: string; email: string; charityId: number; charity: string },
    list: CharityFundraisers,
    month: string,
    today: string,
  ): Promise<Outcome> {
    return sendOnce(this.db, this.mailer, {
      template: 'fundraising_summary',
      context: summaryContext(r, r.charity, list, today, this.operator),
      to: { name: `${r.firstName} ${r.lastName}`, address: r.email },
      about: { subject: { type: 'charity', id: r.charityId } },
      named: () => `the fundraising summary of ${r.charity} for ${month} to ${r.email}`,
      details: { month },
      claim: async () => {
        const [claim] = await this.db
          .insert(charitySummaries)
          .values({ userId: r.id, charityId: r.charityId, month, outcome: 'sending', createdAt: nowOf(this.clock) })
          .onConflictDoUpdate({
            target: [charitySummaries.userId, charitySummaries.month],
            set: { outcome: 'sending', reason: null },
            setWhere: sql`${charitySummaries.outcome} = 'failed'`,
          })
          .returning({ id: charitySummaries.id });
        return claim?.id;
      },
      settle: async (tx, id, failure) => {
        await tx
          .update(charitySummaries)
          .set(failure === null ? { outcome: 'sent' } : { outcome: 'failed', reason: failure })
          .where(eq(charitySummaries.id, id));
      },
    });
  }
}
