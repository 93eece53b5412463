import { and, desc, eq, sql } from 'drizzle-orm';
import type { ChaserCheck } from '../../../contract/chasers.ts';
import { ukToday } from '../../../contract/dates.ts';
import type { GroupReminders } from '../../../contract/groups.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { auditEvents } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import type { Operator } from '../../common/operator.ts';
import { HttpError } from '../../errors.ts';
import { ChaserService } from '../chasers/service.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { ReadinessService } from '../readiness/service.ts';
import { ReminderService } from '../schedules/reminders.ts';
import { sendReminderNow } from '../schedules/send-now.ts';
import type { LeaderService } from './leader.ts';
import type { PupilService } from './pupils.ts';

export type GroupReminderDeps = {
  db: Db;
  mailer: Mailer;
  operator: Operator;
  clock: Pick<Clock, 'now'>;
  fundraisingDefaults: FundraisingDefaults;
  reminderDays: number[];
  leader: LeaderService;
  pupils: PupilService;
};

/** A pupil's parent is chased for the first of these not done: consent, then the form, then the passport. */
const CHASE_FIRST: readonly ChaserCheck[] = ['consent', 'forms', 'passport'];

const HOURS = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' });

/**
 * A group leader's one click (issue 37): the parents of each pupil who is behind or not ready get
 * what the office would send them, through the same reminders and chasers (a payment reminder
 * for money overdue; one chaser for the first of consent, form and passport still missing), and an
 * invitation to any parent not yet sent one. A parent whose reminders or chasers are off is left
 * alone. Once a day for a group, so parents are not emailed twice in a day by a leader's clicks.
 */
export class GroupReminderService {
  private readonly chasers: ChaserService;
  private readonly reminders: ReminderService;
  private readonly readiness: ReadinessService;

  constructor(private readonly d: GroupReminderDeps) {
    this.chasers = new ChaserService(d.db, d.mailer, d.operator, d.fundraisingDefaults, d.clock);
    this.reminders = new ReminderService(d.db, d.mailer, d.operator, d.clock, d.reminderDays);
    this.readiness = new ReadinessService(d.db, d.fundraisingDefaults, d.clock);
  }

  async send(leaderId: number, groupId: number): Promise<GroupReminders> {
    const group = await this.d.leader.group(leaderId, groupId);
    const now = nowOf(this.d.clock);
    const today = ukToday(now);
    const [last] = await this.d.db
      .select({ at: auditEvents.at })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.subjectType, 'group'),
          eq(auditEvents.subjectId, String(groupId)),
          eq(auditEvents.action, 'group.reminders_sent'),
        ),
      )
      .orderBy(desc(auditEvents.at))
      .limit(1);
    if (last && ukToday(last.at) === today)
      throw new HttpError(
        422,
        `This group’s reminders went today at ${HOURS.format(last.at)}: the next can be sent tomorrow.`,
      );
    const optOuts = new Map(
      (
        await queryRows<{ id: number; reminders_off: boolean; chasers_off: boolean }>(
          this.d.db,
          sql`select b.id, b.reminders_off or t.reminders_off as reminders_off, b.chasers_off
            from bookings b join trips t on t.id = b.trip_id where b.group_id = ${groupId}`,
        )
      ).map((r) => [Number(r.id), r]),
    );
    const result: GroupReminders = {
      message: '',
      reminders: 0,
      chasers: 0,
      invitations: 0,
      opted_out: 0,
      failed: 0,
    };
    const optedOut = new Set<number>();
    const toChase: number[] = [];
    for (const p of group.pupils) {
      const off = optOuts.get(p.booking_id);
      if (!p.parent_invited) {
        const sent = await this.d.pupils.invite([p.booking_id]);
        result.invitations += sent.sent;
        result.failed += sent.failed;
      }
      if (p.overdue > 0) {
        if (off?.reminders_off) optedOut.add(p.booking_id);
        else {
          try {
            await sendReminderNow(this.d.db, this.reminders, p.booking_id, this.d.clock);
            result.reminders += 1;
          } catch (error) {
            if (!(error instanceof HttpError)) throw error;
            if (error.statusCode === 502) result.failed += 1;
          }
        }
      }
      if (!p.ready) {
        if (off?.chasers_off) optedOut.add(p.booking_id);
        else toChase.push(p.booking_id);
      }
    }
    // one chaser to a parent, for what is most pressing (their child's page asks for the rest)
    if (toChase.length) {
      const board = new Map(
        (await this.readiness.forTrip(group.trip.id)).rows.map((r) => [r.booking_id, r.checks] as const),
      );
      const byCheck = new Map<ChaserCheck, number[]>();
      for (const id of toChase) {
        const check = CHASE_FIRST.find((c) => board.get(id)?.[c].state !== 'green');
        if (check) byCheck.set(check, [...(byCheck.get(check) ?? []), id]);
      }
      for (const [check, ids] of byCheck) {
        const chased = await this.chasers.sendNow(group.trip.id, ids, [check], leaderId);
        result.chasers += chased.sent.length;
        result.failed += chased.failed.length;
      }
    }
    result.opted_out = optedOut.size;
    const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
    const parts = [
      result.reminders && `${n(result.reminders, 'payment reminder')}`,
      result.chasers && `${n(result.chasers, 'chaser')}`,
      result.invitations && `${n(result.invitations, 'invitation')}`,
    ].filter(Boolean);
    result.message = [
      parts.length ? `Sent ${parts.join(', ')} to parents.` : 'Nothing needed sending: every parent is up to date.',
      result.opted_out
        ? `${n(result.opted_out, 'pupil’s parent was', 'pupils’ parents were')} left out: the office has turned their reminders off.`
        : '',
      result.failed ? `${n(result.failed, 'email')} could not be sent: the office will see why.` : '',
    ]
      .filter(Boolean)
      .join(' ');
    await audit(this.d.db, {
      action: 'group.reminders_sent',
      subject: { type: 'group', id: groupId },
      tripId: group.trip.id,
      summary: `sent the group of ${group.school} its reminders: ${result.message}`,
      details: { ...result },
    });
    return result;
  }
}
