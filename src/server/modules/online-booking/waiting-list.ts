import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { ukToday } from '../../../contract/dates.ts';
import {
  WAITING_LIST_JOINED,
  type joinWaitingListSchema,
  type WaitingEntry,
  type WaitingList,
} from '../../../contract/online-booking.ts';
import type { z } from 'zod';
import type { Db, Tx } from '../../../db/client.ts';
import { trips, waitingListEntries } from '../../../db/schema/index.ts';
import { asOnlineBooking, audit } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import type { Operator } from '../../common/operator.ts';
import type { Config } from '../../config.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';
import { emailDate, renderTemplate, templateOf } from '../../mail/templates.ts';
import { countHit } from '../../rate-limit-store.ts';
import { placesOf } from './places.ts';

type Entry = typeof waitingListEntries.$inferSelect;
const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const IN_LINE = ['waiting', 'offered'];

export type WaitingListDeps = {
  db: Db;
  clock: Pick<Clock, 'now'>;
  operator: Operator;
  mailer: Mailer;
  publicUrl: string;
  /** WAITING_LIST_OFFER_HOURS */
  offerHours: number;
  /** PUBLIC_BOOKINGS_PER_ADDRESS: also the joins one address may make in 10 minutes */
  perAddress: number;
};

/** The offer a link names, while it still holds places on that trip (locked in a transaction when asked). */
export async function findOffer(db: Db | Tx, tripId: number, token: string, now: Date, lock = false) {
  const q = db
    .select()
    .from(waitingListEntries)
    .where(
      and(
        eq(waitingListEntries.tripId, tripId),
        eq(waitingListEntries.offerTokenHash, digest(token)),
        eq(waitingListEntries.state, 'offered'),
        gt(waitingListEntries.offerExpiresAt, now),
      ),
    );
  const [entry] = lock ? await q.for('update') : await q;
  return entry && entry.placesBooked < entry.places ? entry : null;
}

/** A booking made with an offer: one of its places is taken; all of them, and it is done. */
export async function useOffer(tx: Tx, entry: Entry, bookingId: number, now: Date): Promise<void> {
  const booked = entry.placesBooked + 1;
  await tx
    .update(waitingListEntries)
    .set({ placesBooked: booked, bookingId, state: booked >= entry.places ? 'booked' : 'offered', updatedAt: now })
    .where(eq(waitingListEntries.id, entry.id));
}

/**
 * A full trip's waiting list: people join it from the trip's page; when places free (a
 * cancellation, a hold that ran out, the capacity raised), the first in line is offered them by
 * email, held for WAITING_LIST_OFFER_HOURS, and an offer not taken in time passes to the next.
 * Offers are made under the trip's row lock, so two workers never offer the same places.
 */
export class WaitingListService {
  constructor(private readonly d: WaitingListDeps) {}

  private now() {
    return nowOf(this.d.clock);
  }

  /** Someone joins a trip's line (a trip on sale online, whether or not it is full just now). */
  async join(slug: string, v: z.output<typeof joinWaitingListSchema>, ip: string | null): Promise<{ message: string }> {
    if (v.website) throw validationError({ website: ['Leave this field empty.'] });
    if (ip && (await countHit(this.d.db, `waiting-list:${ip}`, 600)).hits > this.d.perAddress)
      throw new HttpError(
        429,
        'Too many requests have been made from this address. Please try again in a few minutes.',
      );
    return asOnlineBooking(() =>
      this.d.db.transaction(async (tx) => {
        const [trip] = await tx
          .select({ id: trips.id, name: trips.name })
          .from(trips)
          .where(
            and(
              sql`lower(${trips.bookingSlug}) = ${slug.toLowerCase()}`,
              eq(trips.onlineBooking, true),
              sql`${trips.deletedAt} is null`,
            ),
          )
          .for('no key update');
        if (!trip) throw notFound('There is no such trip.');
        const [last] = await tx
          .select({ position: sql<number>`coalesce(max(${waitingListEntries.position}), 0)` })
          .from(waitingListEntries)
          .where(eq(waitingListEntries.tripId, trip.id));
        const now = this.now();
        const [entry] = await tx
          .insert(waitingListEntries)
          .values({
            tripId: trip.id,
            firstName: v.first_name,
            lastName: v.last_name,
            email: v.email,
            places: v.places,
            note: v.note,
            position: Number(last!.position) + 1,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        await audit(tx, {
          action: 'waiting_list.joined',
          subject: { type: 'waiting_list_entry', id: entry!.id },
          tripId: trip.id,
          actor: {
            type: 'anonymous',
            userId: null,
            name: `${v.first_name} ${v.last_name}`,
            tokenId: null,
            clientId: null,
          },
          summary: `joined the waiting list of ${trip.name} for ${v.places === 1 ? '1 place' : `${v.places} places`}`,
          details: { places: v.places },
        });
        return { message: WAITING_LIST_JOINED };
      }),
    );
  }

  /** The line in order (with each one's place in it), then those out of it, newest first. */
  async list(tripId: number): Promise<WaitingList> {
    const [trip] = await this.d.db.select({ id: trips.id }).from(trips).where(eq(trips.id, tripId));
    if (!trip) throw notFound('Trip not found');
    const rows = await this.d.db
      .select()
      .from(waitingListEntries)
      .where(eq(waitingListEntries.tripId, tripId))
      .orderBy(asc(waitingListEntries.position), asc(waitingListEntries.id));
    const line = rows.filter((r) => IN_LINE.includes(r.state));
    const out = rows.filter((r) => !IN_LINE.includes(r.state)).sort((a, b) => +b.updatedAt - +a.updatedAt);
    return {
      entries: [...line.map((r, i) => this.reply(r, i + 1)), ...out.map((r) => this.reply(r, null))],
      places: await placesOf(this.d.db, tripId, this.now()),
    };
  }

  private reply(r: Entry, position: number | null): WaitingEntry {
    return {
      id: r.id,
      position,
      first_name: r.firstName,
      last_name: r.lastName,
      email: r.email,
      places: r.places,
      note: r.note,
      state: r.state as WaitingEntry['state'],
      joined_at: r.createdAt.toISOString(),
      offered_at: r.offeredAt?.toISOString() ?? null,
      offer_expires_at: r.offerExpiresAt?.toISOString() ?? null,
      offers_made: r.offersMade,
      places_booked: r.placesBooked,
    };
  }

  private async entry(tx: Tx, tripId: number, entryId: number): Promise<Entry> {
    const [entry] = await tx
      .select()
      .from(waitingListEntries)
      .where(and(eq(waitingListEntries.id, entryId), eq(waitingListEntries.tripId, tripId)))
      .for('update');
    if (!entry) throw notFound('This person is not on the trip’s waiting list.');
    return entry;
  }

  /** Staff move someone one place up or down the line (they swap with their neighbour). */
  async move(tripId: number, entryId: number, move: 'up' | 'down'): Promise<WaitingList> {
    await this.d.db.transaction(async (tx) => {
      await tx.select({ id: trips.id }).from(trips).where(eq(trips.id, tripId)).for('no key update');
      const entry = await this.entry(tx, tripId, entryId);
      if (!IN_LINE.includes(entry.state)) throw new HttpError(422, 'Only someone still in line can be moved.');
      const [neighbour] = await tx
        .select()
        .from(waitingListEntries)
        .where(
          and(
            eq(waitingListEntries.tripId, tripId),
            inArray(waitingListEntries.state, IN_LINE),
            move === 'up'
              ? lt(waitingListEntries.position, entry.position)
              : gt(waitingListEntries.position, entry.position),
          ),
        )
        .orderBy(move === 'up' ? desc(waitingListEntries.position) : asc(waitingListEntries.position))
        .limit(1);
      if (!neighbour)
        throw new HttpError(422, move === 'up' ? 'They are already first in line.' : 'They are already last in line.');
      const now = this.now();
      await tx
        .update(waitingListEntries)
        .set({ position: neighbour.position, updatedAt: now })
        .where(eq(waitingListEntries.id, entry.id));
      await tx
        .update(waitingListEntries)
        .set({ position: entry.position, updatedAt: now })
        .where(eq(waitingListEntries.id, neighbour.id));
      await audit(tx, {
        action: 'waiting_list.moved',
        subject: { type: 'waiting_list_entry', id: entry.id },
        tripId,
        summary: `moved ${entry.firstName} ${entry.lastName} ${move} the waiting list, past ${neighbour.firstName} ${neighbour.lastName}`,
        details: { move },
      });
    });
    return this.list(tripId);
  }

  /** Staff take someone off the line; an offer they held is withdrawn, its places free for the next. */
  async remove(tripId: number, entryId: number): Promise<WaitingList> {
    await this.d.db.transaction(async (tx) => {
      const entry = await this.entry(tx, tripId, entryId);
      if (!IN_LINE.includes(entry.state)) throw new HttpError(422, 'They are no longer in line.');
      await tx
        .update(waitingListEntries)
        .set({ state: 'removed', offerTokenHash: null, updatedAt: this.now() })
        .where(eq(waitingListEntries.id, entry.id));
      await audit(tx, {
        action: 'waiting_list.removed',
        subject: { type: 'waiting_list_entry', id: entry.id },
        tripId,
        changes: { state: [entry.state, 'removed'] },
        summary: `took ${entry.firstName} ${entry.lastName} off the waiting list${entry.state === 'offered' ? ', withdrawing their offer' : ''}`,
      });
    });
    return this.list(tripId);
  }

  /** Staff offer places to someone in line now, ahead of the line, when enough places are free. */
  async offerByHand(tripId: number, entryId: number): Promise<WaitingEntry> {
    const made = await this.d.db.transaction(async (tx) => {
      const [trip] = await tx.select().from(trips).where(eq(trips.id, tripId)).for('no key update');
      if (!trip) throw notFound('Trip not found');
      const entry = await this.entry(tx, tripId, entryId);
      if (entry.state !== 'waiting')
        throw new HttpError(
          422,
          entry.state === 'offered' ? 'They already hold an offer.' : 'They are no longer in line.',
        );
      if (!trip.onlineBooking || !trip.bookingSlug)
        throw new HttpError(409, 'Turn online booking on first: an offer is booked on the trip’s page.');
      const places = await placesOf(tx, tripId, this.now());
      if (places.left !== null && places.left < entry.places)
        throw new HttpError(
          409,
          `Not enough places are free for this offer (${places.left} left, ${entry.places} wanted): raise the trip’s capacity first.`,
        );
      const made = await this.offer(tx, trip, entry, 'by hand');
      if (!made) throw new HttpError(422, 'They are no longer in line.');
      return made;
    });
    if (!(await this.sendOrWithdraw(made)))
      throw new HttpError(502, 'The offer email could not be sent, so no offer was made: they are still in line.');
    const [row] = await this.d.db.select().from(waitingListEntries).where(eq(waitingListEntries.id, entryId));
    return this.reply(row!, null);
  }

  /** Offers an entry still waiting its places (null when staff took it off meanwhile). */
  private async offer(tx: Tx, trip: typeof trips.$inferSelect, entry: Entry, how: string) {
    const token = randomBytes(24).toString('base64url');
    const now = this.now();
    const expires = new Date(now.getTime() + this.d.offerHours * 3_600_000);
    const [still] = await tx
      .update(waitingListEntries)
      .set({
        state: 'offered',
        offeredAt: now,
        offerExpiresAt: expires,
        offerTokenHash: digest(token),
        offersMade: entry.offersMade + 1,
        updatedAt: now,
      })
      .where(and(eq(waitingListEntries.id, entry.id), eq(waitingListEntries.state, 'waiting')))
      .returning({ id: waitingListEntries.id });
    if (!still) return null;
    // the link is a credential: the History says an offer was made, never what its link was
    await audit(tx, {
      action: 'waiting_list.offered',
      subject: { type: 'waiting_list_entry', id: entry.id },
      tripId: trip.id,
      changes: { state: [entry.state, 'offered'] },
      summary: `offered ${entry.places === 1 ? 'a place' : `${entry.places} places`} on ${trip.name} to ${entry.firstName} ${entry.lastName} from the waiting list (${how}), held until ${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      details: { places: entry.places, expires_at: expires.toISOString() },
    });
    return { entry, trip, token, expires };
  }

  /**
   * Sends an offer; when the email cannot go, the offer is withdrawn (its link was never seen) and
   * they are back in line, waiting, for the next run or staff to try again. False then.
   */
  private async sendOrWithdraw(o: { entry: Entry; trip: typeof trips.$inferSelect; token: string; expires: Date }) {
    try {
      await this.sendOffer(o);
      return true;
    } catch {
      await this.d.db.transaction(async (tx) => {
        const [back] = await tx
          .update(waitingListEntries)
          .set({ state: 'waiting', offerTokenHash: null, offerExpiresAt: null, updatedAt: this.now() })
          .where(and(eq(waitingListEntries.id, o.entry.id), eq(waitingListEntries.state, 'offered')))
          .returning({ id: waitingListEntries.id });
        if (back)
          await audit(tx, {
            action: 'waiting_list.offer_withdrawn',
            subject: { type: 'waiting_list_entry', id: o.entry.id },
            tripId: o.trip.id,
            changes: { state: ['offered', 'waiting'] },
            summary: `withdrew the offer to ${o.entry.firstName} ${o.entry.lastName}: its email could not be sent, so they are back in line`,
          });
      });
      return false;
    }
  }

  private async sendOffer(o: {
    entry: Entry;
    trip: typeof trips.$inferSelect;
    token: string;
    expires: Date;
  }): Promise<void> {
    const template = await templateOf(this.d.db, 'waiting_list_offer');
    const mail = await renderTemplate(template, {
      traveller: { title: null, first_name: o.entry.firstName, last_name: o.entry.lastName, preferred_name: null },
      trip: { name: o.trip.name, departure: emailDate(o.trip.departureDate) },
      offer: {
        url: `${this.d.publicUrl}/book/${o.trip.bookingSlug}?offer=${o.token}`,
        places: o.entry.places,
        until: `${emailDate(ukToday(o.expires))} ${o.expires.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' })}`,
      },
      operator: { name: this.d.operator.name },
    });
    await this.d.mailer.send({
      to: { name: `${o.entry.firstName} ${o.entry.lastName}`, address: o.entry.email },
      ...mail,
    });
  }

  /**
   * The job: offers that ran out leave the line; then, trip by trip, the first in line is offered
   * what is free, in order (the first waits when fewer places are free than they asked for).
   */
  async run(): Promise<{ expired: number; offered: number }> {
    const now = this.now();
    const ran = await this.d.db
      .update(waitingListEntries)
      .set({ state: 'expired', offerTokenHash: null, updatedAt: now })
      .where(and(eq(waitingListEntries.state, 'offered'), lt(waitingListEntries.offerExpiresAt, now)))
      .returning();
    for (const e of ran)
      await audit(this.d.db, {
        action: 'waiting_list.offer_expired',
        subject: { type: 'waiting_list_entry', id: e.id },
        tripId: e.tripId,
        changes: { state: ['offered', 'expired'] },
        summary: `let the offer to ${e.firstName} ${e.lastName} lapse: it was not taken in time, so it passes to the next in line`,
      });
    const waitingTrips = await this.d.db
      .selectDistinct({ tripId: waitingListEntries.tripId })
      .from(waitingListEntries)
      .where(eq(waitingListEntries.state, 'waiting'));
    let offered = 0;
    for (const { tripId } of waitingTrips) {
      const made = await this.d.db.transaction(async (tx) => {
        const [trip] = await tx.select().from(trips).where(eq(trips.id, tripId)).for('no key update');
        const today = ukToday(now);
        if (!trip || !trip.onlineBooking || !trip.bookingSlug || trip.status !== 'open' || trip.deletedAt) return [];
        if (today >= trip.departureDate || (trip.bookingClosesOn && today > trip.bookingClosesOn)) return [];
        const places = await placesOf(tx, tripId, now);
        // no capacity: nothing is on sale to offer
        if (places.left === null) return [];
        let left = places.left;
        const line = await tx
          .select()
          .from(waitingListEntries)
          .where(and(eq(waitingListEntries.tripId, tripId), eq(waitingListEntries.state, 'waiting')))
          .orderBy(asc(waitingListEntries.position), asc(waitingListEntries.id));
        const out = [];
        for (const entry of line) {
          if (entry.places > left) break;
          const o = await this.offer(tx, trip, entry, 'a place freed');
          if (!o) continue;
          out.push(o);
          left -= entry.places;
        }
        return out;
      });
      for (const o of made) if (await this.sendOrWithdraw(o)) offered += 1;
    }
    return { expired: ran.length, offered };
  }
}

/** The service as the configuration sets it up. */
export function waitingListFrom(d: {
  db: Db;
  config: Config;
  operator: Operator;
  mailer: Mailer;
  clock: Pick<Clock, 'now'>;
}): WaitingListService {
  return new WaitingListService({
    db: d.db,
    clock: d.clock,
    operator: d.operator,
    mailer: d.mailer,
    publicUrl: d.config.publicUrl,
    offerHours: d.config.waitingListOfferHours,
    perAddress: d.config.publicBookingsPerAddress,
  });
}
