import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AskChangeValues,
  ChangeRequest,
  ChangeRequests,
  changeRequestsQuery,
  closeChangeRequestSchema,
} from '../../../contract/changes.ts';
import type { Tx } from '../../../db/client.ts';
import { bookings, changeRequests, trips } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf } from '../../clock.ts';
import { HttpError, notFound } from '../../errors.ts';
import { pgError } from '../../sql.ts';
import type { ChangesDeps } from './service.ts';

const KIND_WORDS = { cancel: 'to cancel', change: 'to change' } as const;

/**
 * A traveller's Ask to cancel / Ask to change (issue 35): nothing is done by it; it waits in the
 * office's queue (the dashboard's attention card, the booking page) until staff complete it with
 * one of the actions, or decline it. One open ask of each kind per booking.
 */
export class Requests {
  constructor(private readonly d: ChangesDeps) {}

  private query() {
    return this.d.db
      .select({
        r: changeRequests,
        ref: bookings.ref,
        firstName: bookings.firstName,
        lastName: bookings.lastName,
        tripName: trips.name,
      })
      .from(changeRequests)
      .innerJoin(bookings, eq(bookings.id, changeRequests.bookingId))
      .innerJoin(trips, eq(trips.id, bookings.tripId));
  }

  private reply(row: Awaited<ReturnType<Requests['query']>>[number]): ChangeRequest {
    const { r } = row;
    return {
      id: r.id,
      booking_id: r.bookingId,
      booking_ref: row.ref,
      traveller: `${row.firstName} ${row.lastName}`,
      trip_name: row.tripName,
      kind: r.kind as ChangeRequest['kind'],
      message: r.message,
      state: r.state as ChangeRequest['state'],
      created_at: r.createdAt.toISOString(),
      closed_at: r.closedAt?.toISOString() ?? null,
      closed_note: r.closedNote,
    };
  }

  /** The booking's asks, the newest first. */
  async ofBooking(bookingId: number): Promise<ChangeRequest[]> {
    const rows = await this.query()
      .where(eq(changeRequests.bookingId, bookingId))
      .orderBy(desc(changeRequests.createdAt), desc(changeRequests.id));
    return rows.map((row) => this.reply(row));
  }

  /** The office's queue: the open ones, oldest first (or by state, or one booking's). */
  async list(q: z.output<typeof changeRequestsQuery>): Promise<ChangeRequests> {
    const rows = await this.query()
      .where(
        and(
          q.state ? eq(changeRequests.state, q.state) : undefined,
          q.booking_id ? eq(changeRequests.bookingId, q.booking_id) : undefined,
        ),
      )
      .orderBy(sql`${changeRequests.state} <> 'open'`, asc(changeRequests.createdAt), asc(changeRequests.id))
      .limit(500);
    const [open] = await this.d.db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(changeRequests)
      .where(eq(changeRequests.state, 'open'));
    return { data: rows.map((row) => this.reply(row)), open: open?.n ?? 0 };
  }

  /** The traveller asks; the caller has checked the booking is theirs and may still change. */
  async ask(bookingId: number, v: AskChangeValues, userId: number): Promise<ChangeRequest> {
    const id = await this.d.db
      .transaction(async (tx) => {
        const [row] = await tx
          .insert(changeRequests)
          .values({ bookingId, kind: v.kind, message: v.message, createdBy: userId, createdAt: nowOf(this.d.clock) })
          .returning({ id: changeRequests.id });
        const [b] = await tx
          .select({ ref: bookings.ref, tripId: bookings.tripId })
          .from(bookings)
          .where(eq(bookings.id, bookingId));
        await audit(tx, {
          action: 'booking.change_requested',
          subject: { type: 'booking', id: bookingId },
          bookingId,
          tripId: b!.tripId,
          summary: `asked ${KIND_WORDS[v.kind]} booking ${b!.ref}, from their own pages`,
          details: { request_id: row!.id, kind: v.kind, message: v.message },
        });
        return row!.id;
      })
      .catch((error: unknown) => {
        const cause = pgError(error);
        if (cause.code === '23505' && cause.constraint === 'change_requests_one_open_unique')
          throw new HttpError(
            409,
            `You have already asked ${KIND_WORDS[v.kind]} this booking: the office will reply to you.`,
          );
        throw error;
      });
    const [row] = await this.query().where(eq(changeRequests.id, id));
    return this.reply(row!);
  }

  /** Staff complete (done) or decline an open ask, with a note. */
  async close(id: number, v: z.output<typeof closeChangeRequestSchema>, userId: number): Promise<ChangeRequest> {
    await this.d.db.transaction(async (tx) => {
      const [r] = await tx.select().from(changeRequests).where(eq(changeRequests.id, id)).for('update');
      if (!r) throw notFound('Request not found');
      if (r.state !== 'open') throw new HttpError(409, `This request is ${r.state} already.`);
      await this.closeIn(tx, r.id, v.outcome, v.note, userId);
    });
    const [row] = await this.query().where(eq(changeRequests.id, id));
    return this.reply(row!);
  }

  /** Closes the booking's open asks of these kinds, in the caller's transaction (a cancellation completes an ask to cancel). */
  async closeOpenOf(tx: Tx, bookingId: number, outcome: 'done' | 'declined', note: string, userId: number | null) {
    const open = await tx
      .select({ id: changeRequests.id })
      .from(changeRequests)
      .where(and(eq(changeRequests.bookingId, bookingId), eq(changeRequests.state, 'open')))
      .for('update');
    for (const r of open) await this.closeIn(tx, r.id, outcome, note, userId);
  }

  private async closeIn(tx: Tx, id: number, outcome: 'done' | 'declined', note: string | null, userId: number | null) {
    const [r] = await tx
      .update(changeRequests)
      .set({ state: outcome, closedAt: nowOf(this.d.clock), closedBy: userId, closedNote: note })
      .where(eq(changeRequests.id, id))
      .returning();
    const [b] = await tx
      .select({ ref: bookings.ref, tripId: bookings.tripId })
      .from(bookings)
      .where(eq(bookings.id, r!.bookingId));
    await audit(tx, {
      action: 'booking.change_request_closed',
      subject: { type: 'booking', id: r!.bookingId },
      bookingId: r!.bookingId,
      tripId: b!.tripId,
      summary: `${outcome === 'done' ? 'completed' : 'declined'} the traveller's ask ${KIND_WORDS[r!.kind as 'cancel' | 'change']} booking ${b!.ref}${note ? `: ${note}` : ''}`,
      details: { request_id: id, outcome, note },
      changes: { state: ['open', outcome] },
    });
  }
}
