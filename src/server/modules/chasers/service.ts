import { and, eq, sql } from 'drizzle-orm';
import { CHASER_CHECKS, type ChaserCheck, type ChaserResult } from '../../../contract/chasers.ts';
import { READINESS_CHECK_LABELS, type ReadinessRow, type TripReadiness } from '../../../contract/readiness.ts';
import type { TemplateKey } from '../../../contract/email-templates.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { bookings, chasers } from '../../../db/schema/index.ts';
import { audit, diff } from '../../audit/audit.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import { HttpError } from '../../errors.ts';
import { type Mailer } from '../../mail/transport.ts';
import { emailDate, type TemplateContext } from '../../mail/templates.ts';
import { ukToday } from '../../../contract/dates.ts';
import type { Operator } from '../../common/operator.ts';
import { ReadinessService } from '../readiness/service.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { inSendingHours } from '../../common/sending-hours.ts';
import { chaseDue, nextChaseOn } from './cadence.ts';
import { sendOnce } from '../../mail/send-once.ts';
import { portalUrlOf } from '../../common/portal-links.ts';

export const CHASER_TEMPLATES: Record<ChaserCheck, TemplateKey> = {
  passport: 'chaser_passport',
  forms: 'chaser_forms',
  consent: 'chaser_consent',
};
const label = (check: ChaserCheck) => READINESS_CHECK_LABELS[check].toLowerCase();

type Traveller = {
  id: number;
  ref: string;
  tripId: number;
  title: string | null;
  firstName: string;
  lastName: string;
  preferredName: string | null;
  email: string;
  userId: number | null;
  bookedOn: string;
  chasersOff: boolean;
  chasersOffReason: string | null;
};
type Outcome = 'sent' | 'failed' | 'skipped';

/** The values a chaser's template prints. */
export function chaserContext(
  b: Pick<Traveller, 'title' | 'firstName' | 'lastName' | 'preferredName' | 'ref'>,
  trip: TripReadiness['trip'],
  reason: string,
  operator: Operator,
  portalUrl: string,
): TemplateContext {
  return {
    traveller: { title: b.title, first_name: b.firstName, last_name: b.lastName, preferred_name: b.preferredName },
    booking: { ref: b.ref },
    trip: {
      name: trip.name,
      departure: emailDate(trip.departure),
      return: emailDate(trip.return),
      country: trip.country,
      passport_months: trip.passport_months,
    },
    chase: { reason },
    portal: { url: portalUrl },
    operator: { name: operator.name },
  };
}

/**
 * Passport and forms chasers. The job: for every live booking of a trip not yet
 * departed, each check that is not green gets an email on its cadence (cadence.ts) from its
 * template; a check that turns green stops them (the stop is recorded once), and a booking whose
 * chasers are off gets none (each skipped one recorded with why). Never two automatic chasers
 * to one traveller on one UK day; only in sending hours. Staff can send one now from the board.
 */
export class ChaserService {
  private readonly readiness: ReadinessService;

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly operator: Operator,
    fundraisingDefaults: FundraisingDefaults,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {
    this.readiness = new ReadinessService(db, fundraisingDefaults, clock);
  }

  private async travellers(tripId: number): Promise<Map<number, Traveller>> {
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
        userId: bookings.userId,
        createdAt: bookings.createdAt,
        chasersOff: bookings.chasersOff,
        chasersOffReason: bookings.chasersOffReason,
      })
      .from(bookings)
      .where(and(eq(bookings.tripId, tripId), sql`${bookings.status} in ('provisional', 'confirmed')`));
    return new Map(rows.map(({ createdAt, ...r }) => [r.id, { ...r, bookedOn: ukToday(createdAt) }]));
  }

  /** Each booking's last decision (sent or skipped) per check, on the trip. */
  private async lastDecisions(tripId: number): Promise<Map<string, { outcome: string; on: string }>> {
    const rows = await queryRows<{ booking_id: number; check: string; outcome: string; sent_on: string | Date }>(
      this.db,
      sql`select distinct on (c.booking_id, c.check) c.booking_id, c.check, c.outcome, c.sent_on
        from chasers c join bookings b on b.id = c.booking_id
        where b.trip_id = ${tripId} and c.outcome in ('sent', 'skipped')
        order by c.booking_id, c.check, c.created_at desc, c.id desc`,
    );
    const day = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
    return new Map(rows.map((r) => [`${Number(r.booking_id)}:${r.check}`, { outcome: r.outcome, on: day(r.sent_on) }]));
  }

  /** One run: every trip not yet departed with live bookings, in sending hours only. */
  async run(): Promise<Record<Outcome, number>> {
    const counts: Record<Outcome, number> = { sent: 0, failed: 0, skipped: 0 };
    const now = nowOf(this.clock);
    if (!inSendingHours(now)) return counts;
    const today = ukToday(now);
    const trips = await queryRows<{ id: number }>(
      this.db,
      sql`select t.id from trips t where t.deleted_at is null and t.departure_date > ${today}::date
        and exists (select 1 from bookings b where b.trip_id = t.id and b.status in ('provisional', 'confirmed'))
        order by t.departure_date, t.id`,
    );
    for (const trip of trips) {
      const done = await this.runTrip(Number(trip.id), today);
      for (const k of Object.keys(counts) as Outcome[]) counts[k] += done[k];
    }
    return counts;
  }

  async runTrip(tripId: number, today: string): Promise<Record<Outcome, number>> {
    const counts: Record<Outcome, number> = { sent: 0, failed: 0, skipped: 0 };
    const board = await this.readiness.forTrip(tripId);
    if (today >= board.trip.departure) return counts;
    const [travellers, last] = await Promise.all([this.travellers(tripId), this.lastDecisions(tripId)]);
    for (const row of board.rows) {
      const b = travellers.get(row.booking_id);
      if (!b) continue;
      for (const check of CHASER_CHECKS) {
        const result = row.checks[check];
        const before = last.get(`${b.id}:${check}`) ?? null;
        if (result.state === 'green') {
          // chasing stops as soon as the check is green: said once, in the booking's history
          if (
            before?.outcome === 'sent' &&
            (await this.skip(b, check, today, today, `the ${label(check)} check is now green (${result.reason})`))
          )
            counts.skipped += 1;
          continue;
        }
        if (!chaseDue(today, b.bookedOn, before?.on ?? null, board.trip.departure)) continue;
        const dueOn = nextChaseOn(b.bookedOn, before?.on ?? null, board.trip.departure);
        if (b.chasersOff) {
          if (
            await this.skip(
              b,
              check,
              dueOn,
              today,
              `automatic chasers are off for this booking${b.chasersOffReason ? ` (${b.chasersOffReason})` : ''}`,
            )
          )
            counts.skipped += 1;
          continue;
        }
        counts[await this.send(b, board.trip, check, result.reason, today, { dueOn, userId: null })] += 1;
      }
    }
    return counts;
  }

  /** A decision not to send, recorded once for its day with why; false when already recorded. */
  private async skip(b: Traveller, check: ChaserCheck, dueOn: string, today: string, why: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(chasers)
        .values({
          bookingId: b.id,
          check,
          dueOn,
          sentOn: today,
          outcome: 'skipped',
          reason: why,
          createdAt: nowOf(this.clock),
        })
        .onConflictDoNothing()
        .returning({ id: chasers.id });
      if (!row) return false;
      await audit(tx, {
        action: 'chaser.skipped',
        subject: { type: 'booking', id: b.id },
        bookingId: b.id,
        tripId: b.tripId,
        summary: `did not send the ${label(check)} chaser to ${b.email}: ${why}`,
        details: { check, due_on: dueOn, reason: why },
      });
      return true;
    });
  }

  /**
   * One chaser email. Automatic ones (dueOn set) are claimed first, so that of two workers one
   * sends; a traveller already chased today waits for tomorrow. Staff's own (dueOn null) go at once.
   */
  private async send(
    b: Traveller,
    trip: TripReadiness['trip'],
    check: ChaserCheck,
    reason: string,
    today: string,
    by: { dueOn: string | null; userId: number | null },
  ): Promise<Outcome> {
    return sendOnce(this.db, this.mailer, {
      template: CHASER_TEMPLATES[check],
      context: chaserContext(
        b,
        trip,
        reason,
        this.operator,
        portalUrlOf(b, this.operator.portalLinks, nowOf(this.clock)),
      ),
      to: { name: `${b.firstName} ${b.lastName}`, address: b.email },
      about: { subject: { type: 'booking', id: b.id }, bookingId: b.id, tripId: b.tripId },
      named: (subject) => `the ${label(check)} chaser "${subject}" to ${b.email}`,
      details: { check, due_on: by.dueOn },
      claim: async () => {
        const values = {
          bookingId: b.id,
          check,
          dueOn: by.dueOn,
          sentOn: today,
          outcome: 'sending',
          sentBy: by.userId,
          createdAt: nowOf(this.clock),
        };
        const [claim] =
          by.dueOn === null
            ? await this.db.insert(chasers).values(values).returning({ id: chasers.id })
            : await this.db
                .insert(chasers)
                .values(values)
                .onConflictDoUpdate({
                  target: [chasers.bookingId, chasers.check, chasers.dueOn],
                  targetWhere: sql`${chasers.dueOn} is not null`,
                  set: { outcome: 'sending', sentOn: today, reason: null },
                  setWhere: sql`${chasers.outcome} = 'failed'`,
                })
                .returning({ id: chasers.id });
        return claim?.id;
      },
      settle: async (tx, id, failure) => {
        await tx
          .update(chasers)
          .set(failure === null ? { outcome: 'sent' } : { outcome: 'failed', reason: failure })
          .where(eq(chasers.id, id));
      },
    });
  }

  /**
   * POST /api/trips/{id}/chasers: staff's "send chaser" for the ticked rows of the board. Each
   * chosen booking and check that is not green gets its chaser now; a green check, a booking not
   * live on this trip and a booking whose chasers are off are left alone, each with why.
   */
  async sendNow(
    tripId: number,
    bookingIds: number[],
    checks: ChaserCheck[],
    userId: number | null,
  ): Promise<ChaserResult> {
    const board = await this.readiness.forTrip(tripId);
    const travellers = await this.travellers(tripId);
    const rows = new Map<number, ReadinessRow>(board.rows.map((r) => [r.booking_id, r]));
    const today = ukToday(nowOf(this.clock));
    const result: ChaserResult = { message: '', sent: [], skipped: [], failed: [] };
    for (const id of [...new Set(bookingIds)]) {
      const row = rows.get(id);
      const b = travellers.get(id);
      for (const check of [...new Set(checks)]) {
        if (!row || !b)
          result.skipped.push({
            booking_id: id,
            check,
            reason: 'Not a provisional or confirmed booking of this trip.',
          });
        else if (row.checks[check].state === 'green')
          result.skipped.push({ booking_id: id, check, reason: `The ${label(check)} check is already green.` });
        else if (b.chasersOff)
          result.skipped.push({
            booking_id: id,
            check,
            reason: `Automatic chasers are off for this booking${b.chasersOffReason ? ` (${b.chasersOffReason})` : ''}.`,
          });
        else {
          const outcome = await this.send(b, board.trip, check, row.checks[check].reason, today, {
            dueOn: null,
            userId,
          });
          if (outcome === 'sent') result.sent.push({ booking_id: id, check });
          else result.failed.push({ booking_id: id, check, reason: 'The mail server did not take it.' });
        }
      }
    }
    const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
    const parts = [`${n(result.sent.length, 'chaser', 'chasers')} sent`];
    if (result.skipped.length) parts.push(`${n(result.skipped.length, 'was', 'were')} not needed or not wanted`);
    if (result.failed.length)
      parts.push(
        `${n(result.failed.length, 'could', 'could')} not be sent: the mail server did not take ${result.failed.length === 1 ? 'it' : 'them'}`,
      );
    result.message = `${parts.join('; ')}.`;
    return result;
  }

  /** "Send automatic chasers" on or off for one booking; the reason is recorded. */
  async setChasers(bookingId: number, v: { send: boolean; reason?: string | undefined }): Promise<{ message: string }> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          off: bookings.chasersOff,
          reason: bookings.chasersOffReason,
          ref: bookings.ref,
          tripId: bookings.tripId,
        })
        .from(bookings)
        .where(eq(bookings.id, bookingId))
        .for('update');
      if (!row) throw new HttpError(404, 'Booking not found');
      const next = { chasersOff: !v.send, chasersOffReason: v.send ? null : (v.reason ?? null) };
      const changes = diff({
        send_automatic_chasers: [!row.off, v.send],
        chasers_off_reason: [row.reason, next.chasersOffReason],
      });
      if (Object.keys(changes).length) {
        await tx.update(bookings).set(next).where(eq(bookings.id, bookingId));
        await audit(tx, {
          action: 'booking.chasers_changed',
          subject: { type: 'booking', id: bookingId },
          bookingId,
          tripId: row.tripId,
          changes,
          summary: `turned automatic passport and forms chasers ${v.send ? 'on' : 'off'} for the booking ${row.ref}${v.send ? '' : ` (${next.chasersOffReason})`}`,
        });
      }
      return { message: v.send ? 'Automatic chasers will be sent.' : 'Automatic chasers are off.' };
    });
  }
}
