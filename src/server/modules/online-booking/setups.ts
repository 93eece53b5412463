import { asc, eq, lte } from 'drizzle-orm';
import { formatPence, penceToPounds } from '../../../contract/money.ts';
import type { PublicBooked } from '../../../contract/online-booking.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { bookings, bookingSetups, scheduleRows, trips } from '../../../db/schema/index.ts';
import { asSystem, audit } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import type { Operator } from '../../common/operator.ts';
import { payLinkOf } from '../../common/pay-links.ts';
import { portalUrlOf } from '../../common/portal-links.ts';
import type { Config } from '../../config.ts';
import { renderTemplate, templateOf } from '../../mail/templates.ts';
import { travellerContext, travellerOf } from '../../mail/traveller.ts';
import { giveBackDiscount, InvoiceService, type ClaimedDiscount } from '../invoices/service.ts';
import { ScheduleService } from '../schedules/service.ts';

export type SetupDeps = {
  db: Db;
  clock: Pick<Clock, 'now'>;
  operator: Operator;
  mailer: Mailer;
  /** BOOKING_HOLD_MINUTES */
  holdMinutes: number;
  /** card payments are set up (STRIPE_SECRET_KEY) */
  cardPayments: boolean;
};

/**
 * What the traveller is told once a booking is made, the same whether its reply came at once or
 * after its schedule and deposit invoice were made.
 */
export function bookedReply(
  d: Pick<SetupDeps, 'holdMinutes' | 'cardPayments' | 'operator' | 'clock'>,
  b: {
    tripName: string;
    ref: string;
    held: boolean;
    holdExpiresAt: Date | null;
    depositPence: number;
    invoiceId: number | null;
  },
): PublicBooked {
  const now = nowOf(d.clock);
  const payUrl =
    b.held && b.invoiceId && d.operator.payLinks ? payLinkOf(b.invoiceId, d.operator.payLinks, now).url : null;
  const bankDetails = !d.cardPayments && b.depositPence > 0 ? (d.operator.bankDetails ?? null) : null;
  const status = b.held || (!d.cardPayments && b.depositPence > 0) ? 'provisional' : 'confirmed';
  const message =
    status === 'confirmed'
      ? `Your place on ${b.tripName} is booked: your booking reference is ${b.ref}. We have emailed you the details.`
      : b.held
        ? `Your place on ${b.tripName} is held for ${d.holdMinutes} minutes while you pay the ${formatPence(b.depositPence)} deposit by card. Your booking reference is ${b.ref}.`
        : `Your booking ${b.ref} is made. Please pay the ${formatPence(b.depositPence)} deposit by bank transfer, with your booking reference, to confirm your place.`;
  return {
    booking_ref: b.ref,
    status,
    pay_url: payUrl,
    deposit: penceToPounds(b.depositPence),
    hold_expires_at: b.held && b.holdExpiresAt ? b.holdExpiresAt.toISOString() : null,
    bank_details: bankDetails,
    message,
  };
}

/** The traveller's email: the reference, what happens next, the pay link and the link to their own pages. */
export async function sendReceived(d: SetupDeps, bookingId: number, reply: PublicBooked): Promise<void> {
  const b = await travellerOf(d.db, bookingId);
  if (!b) return;
  const template = await templateOf(d.db, 'booking_received');
  const mail = await renderTemplate(template, {
    ...travellerContext(b),
    booking: { ref: b.ref, status: reply.status, next: reply.message },
    deposit: {
      amount: formatPence(Math.round(reply.deposit * 100)),
      pay_url: reply.pay_url ?? '',
      bank_details: reply.bank_details ?? '',
    },
    portal: { url: portalUrlOf({ id: b.id, userId: b.userId }, d.operator.portalLinks, nowOf(d.clock)) },
    operator: { name: d.operator.name },
  });
  await d.mailer.send({ to: { name: `${b.firstName} ${b.lastName}`, address: b.email }, ...mail });
  await audit(d.db, {
    action: 'booking.received_email',
    subject: { type: 'booking', id: b.id },
    bookingId: b.id,
    summary: `emailed ${b.email} that booking ${b.ref} was received`,
    details: { ref: b.ref },
  });
}

/** A setup not to be made (its booking cancelled first): it goes, and the discount code's use taken for it is given back. */
export async function dropSetupIn(tx: Tx, bookingId: number): Promise<void> {
  const [gone] = await tx
    .delete(bookingSetups)
    .where(eq(bookingSetups.bookingId, bookingId))
    .returning({ discountId: bookingSetups.discountId });
  if (gone?.discountId) await giveBackDiscount(tx, gone.discountId);
}

/**
 * The second half of a booking that replied from its row alone (decision 030): its schedule and its
 * deposit invoice (under the id its pay link already names, with the discount code's use already
 * taken), then the traveller's email. Made straight after the burst by the server that took the
 * booking, by the minute's job should that server stop first, and at once when its pay link is opened.
 */
export class BookingSetups {
  private readonly schedules: ScheduleService;
  private readonly invoices: InvoiceService;

  constructor(private readonly d: SetupDeps) {
    this.schedules = new ScheduleService(d.db, d.clock);
    this.invoices = new InvoiceService(d.db, d.operator, d.mailer);
  }

  /**
   * Every setup still to make (or those older than `olderThanMs`), oldest first; how many were made.
   * One another server is making is left to it; one that fails does not stop the rest, and the
   * failures are reported together at the end.
   */
  async finishAll(olderThanMs = 0, limit = 500): Promise<number> {
    const due = await this.d.db
      .select({ bookingId: bookingSetups.bookingId })
      .from(bookingSetups)
      .where(lte(bookingSetups.createdAt, new Date(nowOf(this.d.clock).getTime() - olderThanMs)))
      .orderBy(asc(bookingSetups.createdAt))
      .limit(limit);
    let made = 0;
    const failed: Array<{ bookingId: number; error: unknown }> = [];
    for (const { bookingId } of due) {
      try {
        if (await this.finish(bookingId, { skipLocked: true })) made += 1;
      } catch (error) {
        failed.push({ bookingId, error });
      }
    }
    if (failed.length)
      throw new Error(
        `${failed.length} booking setups could not be made (bookings ${failed.map((f) => f.bookingId).join(', ')}): ${(failed[0]!.error as Error).message}`,
      );
    return made;
  }

  /** The setup of the booking whose deposit invoice will have this id, if it is still to make. */
  async finishForInvoice(invoiceId: number): Promise<void> {
    const [s] = await this.d.db
      .select({ bookingId: bookingSetups.bookingId })
      .from(bookingSetups)
      .where(eq(bookingSetups.invoiceId, invoiceId));
    if (s) await this.finish(s.bookingId);
  }

  /**
   * One booking's setup, once however many servers try at the same moment; then its email. Its
   * events are the system's, whichever request or job made it. `skipLocked`: a booking another
   * transaction holds is left for later.
   */
  finish(bookingId: number, o: { skipLocked?: boolean } = {}): Promise<boolean> {
    return asSystem('online-booking-setups', () => this.finishInSystem(bookingId, o.skipLocked ?? false));
  }

  private async finishInSystem(bookingId: number, skipLocked: boolean): Promise<boolean> {
    const made = await this.d.db.transaction(async (tx) => {
      // the booking first, as everything else that changes it locks it
      const [b] = await tx
        .select({
          id: bookings.id,
          ref: bookings.ref,
          status: bookings.status,
          fundingType: bookings.fundingType,
          holdExpiresAt: bookings.holdExpiresAt,
        })
        .from(bookings)
        .where(eq(bookings.id, bookingId))
        .for('update', skipLocked ? { skipLocked: true } : {});
      const [s] = b
        ? await tx.select().from(bookingSetups).where(eq(bookingSetups.bookingId, bookingId)).for('update')
        : [];
      if (!b || !s) return null;
      const [trip] = await tx
        .select({ id: trips.id, name: trips.name, deletedAt: trips.deletedAt })
        .from(trips)
        .innerJoin(bookings, eq(bookings.tripId, trips.id))
        .where(eq(bookings.id, bookingId));
      // cancelled first, or its trip deleted: nothing is made, and the discount code's use comes back
      if (b.status === 'cancelled' || !trip || trip.deletedAt) {
        await dropSetupIn(tx, bookingId);
        return null;
      }
      await tx.delete(bookingSetups).where(eq(bookingSetups.bookingId, bookingId));
      // a free place has no schedule; the deposit invoice is raised when something was due on booking
      if (b.fundingType !== 'free')
        await this.schedules.createFor(tx, { id: bookingId, tripId: trip.id, bookedOn: s.bookedOn });
      const [first] = await tx
        .select({ id: scheduleRows.id })
        .from(scheduleRows)
        .where(eq(scheduleRows.bookingId, bookingId))
        .orderBy(asc(scheduleRows.position))
        .limit(1);
      // the code as the traveller was told it, whatever the office changed of it since
      const discount: ClaimedDiscount | null =
        s.discountCode !== null && s.discountAmountPence !== null
          ? { id: s.discountId, code: s.discountCode, amountPence: s.discountAmountPence }
          : null;
      const invoiceId =
        first && s.invoiceId !== null
          ? await this.invoices.raiseScheduledIn(tx, first.id, s.bookedOn, discount, s.invoiceId)
          : null;
      // no invoice after all (the plan changed meanwhile): the code's use comes back
      if (invoiceId === null && s.discountId !== null) await giveBackDiscount(tx, s.discountId);
      return {
        reply: bookedReply(this.d, {
          tripName: trip.name,
          ref: b.ref,
          held: b.holdExpiresAt !== null && b.status === 'provisional',
          holdExpiresAt: b.holdExpiresAt,
          depositPence: s.depositPence,
          invoiceId,
        }),
      };
    });
    if (!made) return false;
    await sendReceived(this.d, bookingId, made.reply).catch(() => undefined);
    return true;
  }
}

/** What the setups (and the booking service, which makes them too) take of the configuration. */
export function setupDepsFrom(d: {
  db: Db;
  config: Config;
  operator: Operator;
  mailer: Mailer;
  clock: Pick<Clock, 'now'>;
}): SetupDeps {
  return {
    db: d.db,
    clock: d.clock,
    operator: d.operator,
    mailer: d.mailer,
    holdMinutes: d.config.bookingHoldMinutes,
    cardPayments: Boolean(d.config.stripe),
  };
}

/** The setups as the configuration sets them up. */
export function bookingSetupsFrom(d: Parameters<typeof setupDepsFrom>[0]): BookingSetups {
  return new BookingSetups(setupDepsFrom(d));
}
