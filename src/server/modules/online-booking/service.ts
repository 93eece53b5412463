import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { BALANCE_DUE_DAYS_BEFORE_DEPARTURE } from '../../../contract/invoice-constants.ts';
import { formatPence, penceToPounds } from '../../../contract/money.ts';
import {
  BOOKING_CLOSED,
  FUNDING_ALLOWED,
  OFFER_GONE,
  ONLINE_FUNDING_LABELS,
  PLACES_LEFT_SHOWN_BELOW,
  publicTripSchema,
  slugOf,
  TRIP_FULL,
  type OnlineBooking,
  type OnlineFundingType,
  type Places,
  type PublicBooked,
  type PublicTrip,
} from '../../../contract/online-booking.ts';
import type { z } from 'zod';
import type { publicBookingSchema, saveOnlineBookingSchema } from '../../../contract/online-booking.ts';
import { queryRows, type Db, type Tx } from '../../../db/client.ts';
import {
  bookingAddons,
  bookings,
  bookingSetups,
  cardCheckouts,
  charities,
  countries,
  invoices,
  scheduleRows,
  transactions,
  tripAddons,
  trips,
} from '../../../db/schema/index.ts';
import { makeBookingRef } from '../../../shared/booking-ref.ts';
import {
  asOnlineBooking,
  audit,
  auditOfNewBooking,
  auditOfNewBookings,
  newBookingEventRow,
  diffObjects,
  describeChanges,
  type Actor,
} from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import type { Operator } from '../../common/operator.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';
import { placesFrom, placesOf } from './places.ts';
import { BookingSetups, bookedReply, dropSetupIn, sendReceived, setupDepsFrom } from './setups.ts';
import { findOffer, useOffer } from './waiting-list.ts';
import { countHit } from '../../rate-limit-store.ts';
import { pgError } from '../../sql.ts';
import { appliedDiscount } from '../invoices/money.ts';
import { claimDiscount, InvoiceService } from '../invoices/service.ts';
import { ScheduleService } from '../schedules/service.ts';
import type { ScheduledInstalment } from '../schedules/rules.ts';
import { endUserFor, endUsersFor, isNewBookingClash } from '../users/end-user.ts';

export type OnlineBookingDeps = {
  db: Db;
  clock: Pick<Clock, 'now'>;
  operator: Operator;
  mailer: Mailer;
  /** BOOKING_HOLD_MINUTES */
  holdMinutes: number;
  /** OPERATOR_TERMS_URL */
  termsUrl: string | undefined;
  publicUrl: string;
  /** card payments are set up (STRIPE_SECRET_KEY) */
  cardPayments: boolean;
  /** PUBLIC_BOOKINGS_PER_ADDRESS: bookings one address may make in ADDRESS_WINDOW_SECONDS */
  perAddress: number;
  /** how long a server keeps a public page it has read (0: not at all) */
  pageCacheMs: number;
  /** BOOKING_BURST: bookings in flight on this server (this one among them) from which the reply is made from the booking's row alone */
  burst: number;
  /** whether this server makes those bookings' setups once the burst is over (not in tests of what happens before) */
  finishAfterBurst: boolean;
};

/** The window of PUBLIC_BOOKINGS_PER_ADDRESS. */
export const ADDRESS_WINDOW_SECONDS = 600;
/**
 * Stripe's payment page for a held place closes this long after the minute it opens in (Stripe's
 * shortest session): a hold whose page is open waits for it, opened only while the hold lasts.
 */
export const CHECKOUT_SESSION_HELD_SECONDS = 30 * 60;
/** A page open longer than this is Stripe's to have closed; the hourly reconciliation settles it. */
const CHECKOUT_ASKED_ABOUT_MS = 2 * 86_400_000;

type TripRow = typeof trips.$inferSelect;

const longDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const inWords = (iso: string) => longDay.format(new Date(`${iso}T00:00:00Z`));

/** "£250.00 now, then £450.00 on 1 March 2027 and £1,200.00 on 1 June 2027": the first instalment is paid on booking. */
export function planInWords(rows: Array<{ amountPence: number; dueDate: string }>): string {
  if (!rows.length) return 'Nothing to pay.';
  // the first instalment is the deposit, paid on booking
  const parts = rows.map((r, i) =>
    i === 0 ? `${formatPence(r.amountPence)} now` : `${formatPence(r.amountPence)} on ${inWords(r.dueDate)}`,
  );
  if (parts.length === 1) return parts[0]!;
  const [first, ...rest] = parts;
  const later = rest.length === 1 ? rest[0]! : `${rest.slice(0, -1).join(', ')} and ${rest.at(-1)!}`;
  return `${first}, then ${later}`;
}

/** More bookings in a batch than places left: `by` too many. */
class Overflow {
  constructor(readonly by: number) {}
}

/** A clash of random references, two requests making one new account, or a deadlock PostgreSQL broke: each passes on a retry. */
const isRetried = (error: unknown) => isNewBookingClash(error) || pgError(error).code === '40P01';

const isSlugTaken = (error: unknown) => pgError(error).constraint === 'trips_booking_slug_unique';

/** What a trip offers a booking made today (OnlineBookingService.offer). */
type TripOffer = {
  trip: TripRow;
  charities: Array<{ id: number; name: string }>;
  addons: Array<{ id: number; name: string; pricePence: number }>;
  plan: ScheduledInstalment[];
};

/** A booking checked against what its trip offers (OnlineBookingService.check). */
type Checked = {
  trip: TripRow;
  charityId: number | null;
  addons: Array<{ id: number; name: string; pricePence: number }>;
  plan: ScheduledInstalment[];
  /** the plan's first instalment, paid on booking */
  dueNow: number;
  free: boolean;
  /** held for its deposit, paid by card now */
  hold: boolean;
  status: 'provisional' | 'confirmed';
  holdExpiresAt: Date | null;
  /** the deposit as its invoice will bill it, before any discount: the first instalment, with the add-ons when it is the only one */
  subtotal: number;
};

/** The columns of an online booking's row (OnlineBookingService.bookingRow). */
const BOOKING_COLUMNS = sql.raw(`ref, trip_id, user_id, charity_id, status, funding_type, title, first_name, last_name,
  preferred_name, email, mobile, date_of_birth, address_1, address_2, address_3, address_4, post_code, as_on_passport,
  terms_accepted_at, source, hold_expires_at, created_at, updated_at`);

/** A booking waiting for the next batch of its trip on this server (OnlineBookingService.batched). */
type Waiting = {
  v: z.output<typeof publicBookingSchema>;
  c: Checked;
  /** runs a function in the request's own context, so its History event has the request's address */
  inContext: <R>(fn: () => R) => R;
  resolve: (reply: PublicBooked) => void;
  reject: (error: unknown) => void;
};

/** The most bookings one batch makes (a statement's parameters stay well under PostgreSQL's 65,535). */
export const BATCH_MAX = 100;

/** A public page as it is sent: its JSON's bytes, and their ETag. */
export type PublicPage = { body: Buffer; etag: string };
/** A page as this server keeps it: when it was last read, that read, and the page before it meanwhile. */
type KeptPage = { at: number; reading: Promise<PublicPage>; last: PublicPage | undefined };

/**
 * Online booking: what the office sets for a trip's public page, the page itself, and the
 * bookings it makes. A booking takes its place under a lock on the trip's row, so the places
 * confirmed, provisional and held never exceed the capacity however many travellers press Book
 * at once; a place held for a deposit is let go by the hold job when the deposit is not paid in time.
 */
export class OnlineBookingService {
  private readonly schedules: ScheduleService;
  private readonly invoices: InvoiceService;
  private readonly pages = new Map<string, KeptPage>();
  private readonly offers = new Map<string, { at: number; today: string; offer: Promise<TripOffer> }>();
  readonly setups: BookingSetups;
  /** bookings being made on this server now */
  private inFlight = 0;
  private finishing: Promise<void> | null = null;
  /** the bookings of each trip (by its address) waiting for their batch on this server */
  private readonly lines = new Map<string, Waiting[]>();
  private again = false;

  constructor(private readonly d: OnlineBookingDeps) {
    this.schedules = new ScheduleService(d.db, d.clock);
    this.invoices = new InvoiceService(d.db, d.operator, d.mailer);
    this.setups = new BookingSetups(d);
  }

  private now() {
    return nowOf(this.d.clock);
  }

  /** The places of a trip: taken, held (for deposits and by offers) and left of its capacity. */
  async places(tripId: number, db: Db | Tx = this.d.db, exceptOffer: number | null = null): Promise<Places> {
    return placesOf(db, tripId, this.now(), exceptOffer);
  }

  private closesOnDefault(trip: Pick<TripRow, 'departureDate'>) {
    return addDays(trip.departureDate, -BALANCE_DUE_DAYS_BEFORE_DEPARTURE);
  }

  private offered(trip: TripRow): OnlineFundingType[] {
    const allowed = FUNDING_ALLOWED[trip.funding as keyof typeof FUNDING_ALLOWED] ?? FUNDING_ALLOWED.both;
    // by default every funding type the trip allows but a free place, which the office gives by hand
    const chosen = (trip.bookingFundingTypes as OnlineFundingType[] | null) ?? allowed.filter((f) => f !== 'free');
    return allowed.filter((f) => chosen.includes(f));
  }

  /** Whether the page takes bookings today: off, open, closed (by status, date or closing day) or full. */
  private stateOf(trip: TripRow, places: Places, today: string): OnlineBooking['state'] {
    if (!trip.onlineBooking || !trip.bookingSlug) return 'off';
    const closesOn = trip.bookingClosesOn ?? this.closesOnDefault(trip);
    // no capacity: no places on sale (one cleared after the page was opened)
    if (
      trip.status !== 'open' ||
      trip.archivedAt ||
      trip.deletedAt ||
      trip.capacity === null ||
      today > closesOn ||
      today >= trip.departureDate
    )
      return 'closed';
    if (places.left !== null && places.left <= 0) return 'full';
    return 'open';
  }

  private async trip(tripId: number, db: Db | Tx = this.d.db, lock = false): Promise<TripRow> {
    const q = db.select().from(trips).where(eq(trips.id, tripId));
    const [trip] = lock ? await q.for('no key update') : await q;
    if (!trip || trip.deletedAt) throw notFound('Trip not found');
    return trip;
  }

  async settings(tripId: number): Promise<OnlineBooking> {
    const trip = await this.trip(tripId);
    const places = await this.places(tripId);
    const allowed = FUNDING_ALLOWED[trip.funding as keyof typeof FUNDING_ALLOWED] ?? FUNDING_ALLOWED.both;
    return {
      enabled: trip.onlineBooking,
      slug: trip.bookingSlug,
      url: trip.bookingSlug ? `${this.d.publicUrl}/book/${trip.bookingSlug}` : null,
      closes_on: trip.bookingClosesOn,
      closes_on_default: this.closesOnDefault(trip),
      funding_types: this.offered(trip),
      funding_types_allowed: [...allowed],
      charity_ids: trip.bookingCharityIds,
      discount_codes_allowed: trip.bookingDiscountCodes,
      description: trip.description,
      terms_url: this.d.termsUrl ?? null,
      places,
      state: this.stateOf(trip, places, ukToday(this.now())),
    };
  }

  /** The office turns online booking on or off and sets the page; the History has what changed. */
  async save(tripId: number, v: z.output<typeof saveOnlineBookingSchema>): Promise<OnlineBooking> {
    try {
      await this.d.db.transaction(async (tx) => {
        const before = await this.trip(tripId, tx, true);
        const allowed = FUNDING_ALLOWED[before.funding as keyof typeof FUNDING_ALLOWED] ?? FUNDING_ALLOWED.both;
        const errors: Record<string, string[]> = {};
        const refused = v.funding_types.filter((f) => !allowed.includes(f));
        if (refused.length)
          errors.funding_types = [
            `This trip does not allow ${refused.map((f) => ONLINE_FUNDING_LABELS[f]).join(' or ')}: its funding is set on the trip.`,
          ];
        if (v.closes_on && v.closes_on >= before.departureDate)
          errors.closes_on = ['The closing day must be before the trip departs.'];
        if (v.charity_ids) {
          if (before.type !== 'charity') errors.charity_ids = ['Only a charity trip offers charities.'];
          else {
            const found = await tx
              .select({ id: charities.id })
              .from(charities)
              .where(inArray(charities.id, v.charity_ids));
            if (found.length !== v.charity_ids.length) errors.charity_ids = ['A charity chosen does not exist.'];
          }
        }
        if (v.enabled && before.capacity === null)
          errors.enabled = ['Set the trip’s capacity first: it is the number of places on sale.'];
        if (Object.keys(errors).length) throw validationError(errors);
        const slug = v.slug ?? before.bookingSlug ?? slugOf(before.name);
        const sameFunding =
          before.bookingFundingTypes === null && v.funding_types.join() === this.offered(before).join()
            ? null
            : v.funding_types;
        const [after] = await tx
          .update(trips)
          .set({
            onlineBooking: v.enabled,
            bookingSlug: slug,
            bookingClosesOn: v.closes_on,
            bookingFundingTypes: sameFunding,
            bookingCharityIds: v.charity_ids,
            bookingDiscountCodes: v.discount_codes_allowed,
            description: v.description,
            updatedAt: this.now(),
          })
          .where(eq(trips.id, tripId))
          .returning();
        const shown = (t: TripRow) => ({
          online_booking: t.onlineBooking,
          booking_slug: t.bookingSlug,
          booking_closes_on: t.bookingClosesOn,
          booking_funding_types: t.bookingFundingTypes?.join(', ') ?? null,
          booking_charity_ids: t.bookingCharityIds?.join(', ') ?? null,
          booking_discount_codes: t.bookingDiscountCodes,
          description: t.description,
        });
        const changes = diffObjects(shown(before), shown(after!));
        await audit(tx, {
          action: 'trip.online_booking',
          subject: { type: 'trip', id: tripId },
          tripId,
          changes,
          summary: Object.keys(changes).length
            ? describeChanges(changes, `the online booking of ${before.name}`)
            : `saved the online booking of ${before.name} without changes`,
          details: { enabled: v.enabled, slug },
        });
      });
    } catch (error) {
      if (isSlugTaken(error)) throw validationError({ slug: ['Another trip already has this address.'] });
      throw error;
    }
    this.pages.clear();
    this.offers.clear();
    return this.settings(tripId);
  }

  private async bySlug(slug: string, db: Db | Tx = this.d.db): Promise<TripRow> {
    const [trip] = await db
      .select()
      .from(trips)
      .where(and(sql`lower(${trips.bookingSlug}) = ${slug.toLowerCase()}`, eq(trips.onlineBooking, true)));
    if (!trip || trip.deletedAt) throw notFound('There is no such trip.');
    return trip;
  }

  /**
   * The public page with its ETag, as this server last read it within PUBLIC_PAGE_CACHE_MS: a launch day's
   * thousands of readers a second cost a few reads of the database a second, and what they see of
   * the places left is at most that old. A page out of date is read again once, however many ask
   * for it; until it is read they are given the page before it. A booking made here drops the page,
   * so that the next readers wait for its places left. A page opened with an offer is read afresh.
   */
  async publicPage(slug: string, offerToken?: string): Promise<PublicPage> {
    if (offerToken || this.d.pageCacheMs <= 0) return this.readPage(slug, offerToken);
    const key = slug.toLowerCase();
    const now = Date.now();
    const kept = this.pages.get(key);
    if (kept && now - kept.at < this.d.pageCacheMs) return kept.last ?? kept.reading;
    // a bounded map: the trips on sale are few; anything else read once is dropped first
    if (!kept && this.pages.size >= 500) this.pages.delete(this.pages.keys().next().value!);
    const entry: KeptPage = { at: now, reading: this.readPage(slug), last: kept?.last };
    this.pages.set(key, entry);
    entry.reading.then(
      (page) => {
        entry.last = page;
      },
      // a trip gone or closed since: the next reader reads it again and is told so
      () => {
        if (this.pages.get(key) === entry) this.pages.delete(key);
      },
    );
    return entry.last ?? entry.reading;
  }

  private async readPage(slug: string, offerToken?: string): Promise<PublicPage> {
    // checked against the reply's contract once as it is read, then sent as it is as often as it is asked for
    const body = Buffer.from(JSON.stringify(publicTripSchema.parse(await this.publicTrip(slug, offerToken))));
    return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
  }

  /** What the public page shows: the trip, its price and plan, the choices, and places left when few are. */
  async publicTrip(slug: string, offerToken?: string): Promise<PublicTrip> {
    const trip = await this.bySlug(slug);
    const today = ukToday(this.now());
    const offer = offerToken ? await findOffer(this.d.db, trip.id, offerToken, this.now()) : null;
    const [places, plan, addons, country, offered] = await Promise.all([
      // an offer's holder sees the places it holds for them as theirs
      this.places(trip.id, this.d.db, offer?.id ?? null),
      this.schedules.preview(trip.id, today),
      this.d.db
        .select({ id: tripAddons.id, name: tripAddons.name, price: tripAddons.pricePence })
        .from(tripAddons)
        .where(eq(tripAddons.tripId, trip.id))
        .orderBy(asc(tripAddons.id)),
      this.d.db.select({ name: countries.name }).from(countries).where(eq(countries.id, trip.countryId)),
      this.charitiesOffered(trip),
    ]);
    const found = this.stateOf(trip, places, today);
    // an offer's holder books the places it holds, full or not
    const state = offer && found === 'full' ? 'open' : found;
    return {
      slug: trip.bookingSlug!,
      operator: this.d.operator.name,
      name: trip.name,
      type: trip.type as PublicTrip['type'],
      country: country[0]?.name ?? '',
      departure: trip.departureDate,
      return: trip.returnDate,
      description: trip.description,
      price: penceToPounds(trip.costPence),
      deposit: penceToPounds(plan[0]?.amountPence ?? 0),
      plan: plan.map((r, i) => ({
        label: r.label,
        amount: penceToPounds(r.amountPence),
        due: i === 0 ? today : r.dueDate,
        now: i === 0,
      })),
      plan_text: planInWords(plan),
      places_left: places.left !== null && places.left < PLACES_LEFT_SHOWN_BELOW ? places.left : null,
      state: state === 'off' ? 'closed' : state,
      closes_on: trip.bookingClosesOn ?? this.closesOnDefault(trip),
      funding_types: this.offered(trip).map((value) => ({ value, label: ONLINE_FUNDING_LABELS[value] })),
      charities: offered,
      addons: addons.map((a) => ({ id: a.id, name: a.name, price: penceToPounds(a.price) })),
      discount_codes: trip.bookingDiscountCodes,
      terms_url: this.d.termsUrl ?? null,
      card_payments: this.d.cardPayments,
      bank_details: this.d.cardPayments ? null : (this.d.operator.bankDetails ?? null),
      hold_minutes: this.d.holdMinutes,
      waiting_list: state === 'full',
      offer: offer
        ? {
            places: offer.places - offer.placesBooked,
            expires_at: offer.offerExpiresAt!.toISOString(),
            first_name: offer.firstName,
          }
        : null,
    };
  }

  private async charitiesOffered(trip: TripRow, db: Db | Tx = this.d.db) {
    if (trip.type !== 'charity') return [];
    const q = db.select({ id: charities.id, name: charities.name }).from(charities);
    return trip.bookingCharityIds
      ? q.where(inArray(charities.id, trip.bookingCharityIds)).orderBy(asc(charities.name))
      : q.orderBy(asc(charities.name));
  }

  /**
   * A traveller books: checked against the page (open, funding type, charity, add-ons, discount
   * code), then, under the trip's row lock, a place is taken if one is left. The booking is made
   * provisional at once with its schedule, and its first instalment invoiced: held for the
   * deposit when it is paid by card, confirmed when nothing is due now.
   */
  async book(slug: string, v: z.output<typeof publicBookingSchema>, ip: string | null): Promise<PublicBooked> {
    // a bot that fills the hidden field is told nothing useful and nothing is made
    if (v.website) throw validationError({ website: ['Leave this field empty.'] });
    if (ip && (await countHit(this.d.db, `online-booking:${ip}`, ADDRESS_WINDOW_SECONDS)).hits > this.d.perAddress)
      throw new HttpError(
        429,
        'Too many bookings have been made from this address. Please try again in a few minutes.',
      );
    return asOnlineBooking(() => this.bookInTransaction(slug, v));
  }

  private async bookInTransaction(slug: string, v: z.output<typeof publicBookingSchema>): Promise<PublicBooked> {
    this.inFlight += 1;
    // with others being made on this server at the same moment, the reply is made from the booking's
    // row alone, its schedule, deposit invoice and email straight after the burst (decision 030)
    const burst = this.inFlight >= this.d.burst;
    try {
      // and one with no discount code or offer is made in a batch with the others of its trip (decision 031)
      if (burst && !v.discount_code && !v.offer) {
        const now = this.now();
        const c = this.check(await this.offer(slug, this.d.db, ukToday(now), true), v, now);
        return await this.batched(slug, v, c);
      }
      return await this.bookAlone(slug, v, burst);
    } finally {
      this.inFlight -= 1;
    }
  }

  /** One booking in its own transaction (`burst`: its reply from its row alone). */
  private async bookAlone(
    slug: string,
    v: z.output<typeof publicBookingSchema>,
    burst: boolean,
  ): Promise<PublicBooked> {
    for (let attempt = 0; ; attempt++) {
      try {
        const made = await this.d.db.transaction((tx) => this.makeBooking(tx, slug, v, burst));
        // the places left on this server's copy of the page are stale now
        this.pages.delete(slug.toLowerCase());
        if (made.setUp) await sendReceived(this.d, made.bookingId, made.reply).catch(() => undefined);
        else this.finishSoon();
        return made.reply;
      } catch (error) {
        // a clash of random references, two bookings making the same new account at once, or a
        // deadlock PostgreSQL broke (with the office changing the trip as it is booked): all pass on a retry
        if (attempt < 4 && isRetried(error)) continue;
        // an add-on taken off the trip since the page (or this server's copy of it) was read
        if (pgError(error).code === '23503' && pgError(error).constraint?.startsWith('booking_addons_addon_id'))
          throw validationError({ addon_ids: ['An add-on chosen is not one of this trip’s.'] });
        throw error;
      }
    }
  }

  /**
   * A launch day's group commit (decision 031): a booking joins its trip's line on this server. The
   * first starts a batch at once (with those that arrive in the same turn of the event loop); those
   * that arrive while a batch is made wait for the next, up to BATCH_MAX at a time. A batch is one
   * transaction of six statements, whatever its size (batchIn).
   */
  private batched(slug: string, v: z.output<typeof publicBookingSchema>, c: Checked): Promise<PublicBooked> {
    const key = slug.toLowerCase();
    return new Promise<PublicBooked>((resolve, reject) => {
      const waiting: Waiting = { v, c, inContext: AsyncLocalStorage.snapshot(), resolve, reject };
      const line = this.lines.get(key);
      if (line) return void line.push(waiting);
      this.lines.set(key, [waiting]);
      setImmediate(() => void this.drain(key, slug));
    });
  }

  private async drain(key: string, slug: string): Promise<void> {
    const line = this.lines.get(key)!;
    while (line.length) await this.makeBatch(slug, line.splice(0, BATCH_MAX));
    this.lines.delete(key);
  }

  /** Makes a batch and answers each of its bookings; never throws. */
  private async makeBatch(slug: string, batch: Waiting[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const outcomes = await this.d.db.transaction((tx) => this.batchIn(tx, slug, batch));
        this.pages.delete(slug.toLowerCase());
        outcomes.forEach((outcome, i) =>
          outcome instanceof HttpError ? batch[i]!.reject(outcome) : batch[i]!.resolve(outcome),
        );
        if (outcomes.some((outcome) => !(outcome instanceof HttpError))) this.finishSoon();
        return;
      } catch (error) {
        // the page was turned off or the trip deleted meanwhile: the same answer for each
        if (error instanceof HttpError) return batch.forEach((w) => w.reject(error));
        if (attempt < 4 && isRetried(error)) continue;
        // whatever the database refused of one booking refuses none of the others: each is made on its own
        await Promise.all(
          batch.map((w) => w.inContext(() => this.bookAlone(slug, w.v, true)).then(w.resolve, w.reject)),
        );
        return;
      }
    }
  }

  /**
   * A batch's transaction, in the same order as a booking made alone (its rows, then the trip's
   * lock around the count), so that the two never wait on each other in a circle: the accounts and
   * the bookings with their add-ons, setups and History events are made, then the trip is locked and
   * its places counted, these among them. When they are more than the places left, all is rolled
   * back to before them and the first as many as there are places are made again, the rest told the
   * trip is full. Six statements when they fit: begin, a savepoint, the accounts, the bookings with
   * all that goes with them, the lock with the count, and commit.
   */
  private async batchIn(tx: Tx, slug: string, batch: Waiting[]): Promise<Array<PublicBooked | HttpError>> {
    const now = this.now();
    const today = ukToday(now);
    const trip = batch[0]!.c.trip;
    // its page copied before the office moved this address to another trip
    const outcomes = new Map<Waiting, PublicBooked | HttpError>(
      batch.filter((w) => w.c.trip.id !== trip.id).map((w) => [w, new HttpError(409, BOOKING_CLOSED)]),
    );
    let taking = batch.filter((w) => !outcomes.has(w));
    while (taking.length) {
      try {
        const replies = await tx.transaction(async (sp) => {
          const made = await this.insertBatch(sp, taking, now, today);
          const { locked, counted } = await this.lockForPlaces(sp, trip, slug, now);
          const places = placesFrom(counted);
          // these among those counted
          const before =
            places.capacity === null
              ? places
              : { ...places, left: places.capacity - places.taken - places.held + taking.length };
          const state = this.stateOf(locked, before, today);
          if (state === 'closed' || state === 'off') throw new HttpError(409, BOOKING_CLOSED);
          if (state === 'full') throw new Overflow(taking.length);
          const over = places.capacity === null ? 0 : places.taken + places.held - places.capacity;
          if (over > 0) throw new Overflow(Math.min(over, taking.length));
          return made;
        });
        taking.forEach((w, i) => outcomes.set(w, replies[i]!));
        break;
      } catch (error) {
        if (!(error instanceof Overflow)) throw error;
        // the last of the batch are the ones the places ran out for
        for (const w of taking.slice(taking.length - error.by)) outcomes.set(w, new HttpError(409, TRIP_FULL));
        taking = taking.slice(0, taking.length - error.by);
      }
    }
    return batch.map((w) => outcomes.get(w)!);
  }

  /** A batch's accounts, then its bookings with their add-ons, setups and History events (two statements). */
  private async insertBatch(tx: Tx, taking: Waiting[], now: Date, today: string): Promise<PublicBooked[]> {
    const accounts = await endUsersFor(
      tx,
      taking.map((w) => w.v),
    );
    const made = taking.map((w, i) => ({ ...w, account: accounts[i]!, ref: makeBookingRef() }));
    const list = (rows: SQL[]) => sql.join(rows, sql`, `);
    const addons = made.flatMap((m) =>
      m.c.addons.map((a) => sql`(${m.ref}::text, ${a.id}::int, ${a.pricePence}::int)`),
    );
    // each event in its own request's context (its address), naming its booking by its reference
    const events = made.map((m) =>
      m.inContext(() =>
        newBookingEventRow(
          this.createdEvent(m.c, m.v, m.account, m.ref, null),
          sql`(select id from b where b.ref = ${m.ref}::text)`,
        ),
      ),
    );
    const rows = await queryRows<{ ref: string; invoice_id: string | null }>(
      tx,
      sql`with b as (insert into ${bookings} (${BOOKING_COLUMNS})
          values ${list(made.map((m) => this.bookingRow(m.c, m.v, m.account.id, m.ref, now)))}
          returning id, ref),
        ${
          addons.length
            ? sql`a as (insert into ${bookingAddons} (booking_id, addon_id, price_pence, created_at)
                select b.id, x.addon_id, x.price_pence, ${now}::timestamptz
                from b join (values ${list(addons)}) as x(ref, addon_id, price_pence) on x.ref = b.ref),`
            : sql``
        }
        s as (insert into ${bookingSetups} (booking_id, invoice_id, deposit_pence, booked_on, created_at)
          select b.id, case when x.due then nextval(pg_get_serial_sequence('invoices', 'id')) end, x.deposit,
            ${today}::date, ${now}::timestamptz
          from b join (values ${list(made.map((m) => sql`(${m.ref}::text, ${m.c.dueNow > 0}::boolean, ${m.c.subtotal}::int)`))})
            as x(ref, due, deposit) on x.ref = b.ref
          returning booking_id, invoice_id),
        e as (${auditOfNewBookings(events)})
      select b.ref, s.invoice_id from b join s on s.booking_id = b.id`,
    );
    const byRef = new Map(rows.map((r) => [r.ref, r]));
    return made.map((m) => {
      const row = byRef.get(m.ref)!;
      return bookedReply(this.d, {
        tripName: m.c.trip.name,
        ref: m.ref,
        held: m.c.hold,
        holdExpiresAt: m.c.holdExpiresAt,
        depositPence: m.c.subtotal,
        invoiceId: row.invoice_id === null ? null : Number(row.invoice_id),
      });
    });
  }

  /**
   * The setups of the bookings that replied from their rows alone, once no booking is in flight on
   * this server: the bookings still coming are answered first. The minute's job makes any left.
   */
  private finishSoon(): void {
    if (!this.d.finishAfterBurst) return;
    if (this.finishing) {
      this.again = true;
      return;
    }
    this.finishing = (async () => {
      do {
        this.again = false;
        while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        await this.setups.finishAll().catch(() => undefined);
      } while (this.again);
    })().finally(() => {
      this.finishing = null;
    });
  }

  /**
   * What a booking is checked against and priced by: the trip, the charities and add-ons it offers,
   * and the plan a booking made today gets. In a burst, each server's copy for PUBLIC_PAGE_CACHE_MS,
   * as the page the travellers booked from (the trip's lock reads again whatever decides a place).
   */
  private async offer(slug: string, tx: Db | Tx, today: string, burst: boolean): Promise<TripOffer> {
    const key = slug.toLowerCase();
    const kept = burst ? this.offers.get(key) : undefined;
    if (kept && kept.today === today && Date.now() - kept.at < this.d.pageCacheMs) return kept.offer;
    const offer = this.readOffer(slug, tx, today);
    if (burst && this.d.pageCacheMs > 0) {
      // kept as it is being read: the hundreds of a burst that ask at once wait for one read
      if (this.offers.size >= 500) this.offers.delete(this.offers.keys().next().value!);
      const entry = { at: Date.now(), today, offer };
      this.offers.set(key, entry);
      offer.catch(() => {
        if (this.offers.get(key) === entry) this.offers.delete(key);
      });
    }
    return offer;
  }

  private async readOffer(slug: string, tx: Db | Tx, today: string): Promise<TripOffer> {
    const trip = await this.bySlug(slug, tx);
    return {
      trip,
      charities: await this.charitiesOffered(trip, tx),
      addons: await tx
        .select({ id: tripAddons.id, name: tripAddons.name, pricePence: tripAddons.pricePence })
        .from(tripAddons)
        .where(eq(tripAddons.tripId, trip.id)),
      plan: await this.schedules.preview(trip.id, today, tx, {
        costPence: trip.costPence,
        depositPence: trip.depositPence,
        departure: trip.departureDate,
      }),
    };
  }

  /**
   * A booking checked against what the trip offers: its funding type, charity, add-ons, discount
   * code and date of birth (422 with each field that is wrong), and what it will be billed now.
   */
  private check(offer: TripOffer, v: z.output<typeof publicBookingSchema>, now: Date): Checked {
    const { trip, charities: list, addons: tripAddonsAll, plan: tripPlan } = offer;
    const errors: Record<string, string[]> = {};
    const offered = this.offered(trip);
    if (!offered.includes(v.funding_type))
      errors.funding_type = [`Choose one of: ${offered.map((f) => ONLINE_FUNDING_LABELS[f]).join(', ')}.`];
    let charityId = trip.charityId;
    if (trip.type === 'charity') {
      if (v.charity_id === null) {
        if (list.length) errors.charity_id = ['Choose the charity you will raise money for.'];
      } else if (!list.some((c) => c.id === v.charity_id)) errors.charity_id = ['Choose one of the charities listed.'];
      else charityId = v.charity_id;
    }
    const addons = tripAddonsAll.filter((a) => v.addon_ids.includes(a.id));
    if (addons.length !== v.addon_ids.length) errors.addon_ids = ['An add-on chosen is not one of this trip’s.'];
    if (v.discount_code && !trip.bookingDiscountCodes)
      errors.discount_code = ['Discount codes cannot be used when booking this trip online.'];
    if (v.date_of_birth && v.date_of_birth >= trip.departureDate)
      errors.date_of_birth = ['The date of birth must be before the trip departs.'];

    const free = v.funding_type === 'free';
    const plan = free ? [] : tripPlan;
    // the first instalment of the plan is the deposit, paid on booking whenever the plan has it due
    const dueNow = plan[0]?.amountPence ?? 0;
    if (v.discount_code && !errors.discount_code && dueNow <= 0)
      errors.discount_code = [
        free
          ? 'A free place needs no discount code.'
          : 'Nothing is paid when booking this trip, so no discount code applies.',
      ];
    if (Object.keys(errors).length) throw validationError(errors);
    // held for its deposit when it is paid by card now; with nothing due now, or paid by bank transfer, the place is simply taken
    const hold = dueNow > 0 && this.d.cardPayments;
    return {
      trip,
      charityId,
      addons,
      plan,
      dueNow,
      free,
      hold,
      status: dueNow > 0 ? 'provisional' : 'confirmed',
      holdExpiresAt: hold ? new Date(now.getTime() + this.d.holdMinutes * 60_000) : null,
      subtotal:
        Math.min(dueNow, trip.costPence) + (plan.length === 1 ? addons.reduce((a, x) => a + x.pricePence, 0) : 0),
    };
  }

  /**
   * A booking's row, in the order of BOOKING_COLUMNS: plain SQL with the columns it sets, for the
   * query builder's insert of every column of a booking cost more than the database did, on launch
   * day's hottest route (decision 030).
   */
  private bookingRow(c: Checked, v: z.output<typeof publicBookingSchema>, userId: number, ref: string, now: Date) {
    return sql`(${ref}, ${c.trip.id}, ${userId}, ${c.charityId}, ${c.status}, ${v.funding_type},
        ${v.title}, ${v.first_name}, ${v.last_name}, ${v.preferred_name ?? v.first_name}, ${v.email}, ${v.mobile},
        ${v.date_of_birth}, ${v.address_1}, ${v.address_2}, ${v.address_3}, ${v.address_4}, ${v.post_code},
        true, ${now}, 'online', ${c.holdExpiresAt}, ${now}, ${now})`;
  }

  /** The History event of a booking made online, in the traveller's name. */
  private createdEvent(
    c: Checked,
    v: z.output<typeof publicBookingSchema>,
    account: { id: number; created: boolean },
    ref: string,
    offerId: number | null,
  ) {
    const actor: Actor = {
      type: 'user',
      userId: account.id,
      name: `${v.first_name} ${v.last_name}`,
      tokenId: null,
      clientId: null,
    };
    return {
      action: 'booking.created',
      tripId: c.trip.id,
      actor,
      summary: `booked ${c.trip.name} online (${ref})${c.hold ? `, the place held for the deposit until ${c.holdExpiresAt!.toISOString().slice(11, 16)} UTC` : ''}`,
      details: {
        ref,
        status: c.status,
        source: 'online',
        new_user: account.created,
        funding_type: v.funding_type,
        charity_id: c.charityId,
        addons: c.addons.map((a) => ({ id: a.id, name: a.name, price: penceToPounds(a.pricePence) })),
        discount_code: v.discount_code,
        hold_expires_at: c.holdExpiresAt?.toISOString() ?? null,
        waiting_list_offer: offerId,
      },
    };
  }

  /**
   * The trip's row locked, with what decides whether it takes bookings and its places counted once
   * the lock is held, in one statement (launch day's hottest). 409 when the page is off or gone.
   */
  private async lockForPlaces(tx: Tx, trip: TripRow, slug: string, now: Date) {
    const [row] = await queryRows<
      Pick<TripRow, 'status' | 'capacity' | 'onlineBooking' | 'bookingSlug'> & {
        booking_closes_on: string | null;
        archived: boolean;
        departure_date: string;
        taken: number;
        held: number;
        offered: number;
      }
    >(
      tx,
      sql`select l.*, p.taken, p.held, p.offered
        from (select id, status, capacity, online_booking as "onlineBooking", booking_slug as "bookingSlug",
            to_char(booking_closes_on, 'YYYY-MM-DD') as booking_closes_on, archived_at is not null as archived,
            to_char(departure_date, 'YYYY-MM-DD') as departure_date
          from ${trips} where id = ${trip.id} and deleted_at is null and online_booking
            and lower(booking_slug) = ${slug.toLowerCase()}
          for no key update) l
        cross join lateral trip_places(l.id, ${now}::timestamptz, null) p`,
    );
    if (!row) throw new HttpError(409, BOOKING_CLOSED);
    const locked: TripRow = {
      ...trip,
      status: row.status,
      capacity: row.capacity === null ? null : Number(row.capacity),
      onlineBooking: row.onlineBooking,
      bookingSlug: row.bookingSlug,
      bookingClosesOn: row.booking_closes_on,
      archivedAt: row.archived ? (trip.archivedAt ?? new Date(0)) : null,
      departureDate: row.departure_date,
    };
    return { locked, counted: row };
  }

  private async makeBooking(
    tx: Tx,
    slug: string,
    v: z.output<typeof publicBookingSchema>,
    burst: boolean,
  ): Promise<{ bookingId: number; reply: PublicBooked; setUp: boolean }> {
    const now = this.now();
    const today = ukToday(now);
    // read without its lock first: what can be checked and made before counting is done outside it
    const c = this.check(await this.offer(slug, tx, today, burst), v, now);
    const { trip, addons, plan, dueNow, free, hold, holdExpiresAt, subtotal } = c;
    const first = plan[0];

    const account = await endUserFor(tx, v);
    const ref = makeBookingRef();
    const bookingInsert = sql`insert into ${bookings} (${BOOKING_COLUMNS})
      values ${this.bookingRow(c, v, account.id, ref, now)} returning id`;
    // the add-ons chosen, at their prices now, on the booking the same statement makes (`b`)
    const addonsInsert = sql`insert into ${bookingAddons} (booking_id, addon_id, price_pence, created_at)
      select b.id, x.addon_id, x.price_pence, ${now}::timestamptz
      from b, (values ${sql.join(
        addons.map((a) => sql`(${a.id}::int, ${a.pricePence}::int)`),
        sql`, `,
      )}) as x(addon_id, price_pence)`;
    const insertBooking = async () => {
      const [row] = await queryRows<{ id: string }>(
        tx,
        addons.length ? sql`with b as (${bookingInsert}), a as (${addonsInsert}) select id from b` : bookingInsert,
      );
      return { id: Number(row!.id), ref };
    };
    const created = (offerId: number | null) => this.createdEvent(c, v, account, ref, offerId);
    const recordCreated = (booking: { id: number }, offerId: number | null) =>
      audit(tx, { ...created(offerId), subject: { type: 'booking', id: booking.id }, bookingId: booking.id });
    // the place, once the booking's row is made: every booking of this trip waits here for the one
    // before it, so the count (this booking among it) is exact; the trip is read again under its
    // lock, as whatever the office changed meanwhile
    const takePlace = async () => {
      const { locked, counted } = await this.lockForPlaces(tx, trip, slug, now);
      // a waiting list's offer: its holder books one of the places it holds (which are then counted free)
      const offer = v.offer ? await findOffer(tx, trip.id, v.offer, now, true) : null;
      if (v.offer && !offer) throw new HttpError(409, OFFER_GONE);
      const places = offer ? await this.places(trip.id, tx, offer.id) : placesFrom(counted);
      // this booking is among those counted
      const before =
        places.capacity === null ? places : { ...places, left: places.capacity - places.taken - places.held + 1 };
      const state = this.stateOf(locked, before, today);
      if (state === 'closed' || state === 'off') throw new HttpError(409, BOOKING_CLOSED);
      if (state === 'full') throw new HttpError(409, TRIP_FULL);
      return offer;
    };

    if (burst) {
      // the booking row first, the trip's lock last, around the count alone; its schedule, deposit
      // invoice (its id taken now from the invoices' sequence, for the pay link) and email follow (decision 030)
      const invoiceIdNow = dueNow > 0 ? sql`nextval(pg_get_serial_sequence('invoices', 'id'))` : sql`null`;
      const idOf = (row: { invoice_id: string | null }) => (row.invoice_id === null ? null : Number(row.invoice_id));
      if (!v.discount_code && !v.offer) {
        // the booking, its add-ons, its setup and its History event in one statement (one round trip)
        const [made] = await queryRows<{ id: string; invoice_id: string | null }>(
          tx,
          sql`with b as (${bookingInsert}),
            ${addons.length ? sql`a as (${addonsInsert}),` : sql``}
            s as (insert into ${bookingSetups} (booking_id, invoice_id, deposit_pence, booked_on, created_at)
              select b.id, ${invoiceIdNow}, ${subtotal}::int, ${today}::date, ${now}::timestamptz from b
              returning invoice_id),
            e as (${auditOfNewBooking(created(null), sql`b.id`, sql`b`)})
          select b.id, s.invoice_id from b, s`,
        );
        await takePlace();
        return this.replied(trip, { id: Number(made!.id), ref }, hold, holdExpiresAt, subtotal, idOf(made!));
      }
      const booking = await insertBooking();
      const offer = await takePlace();
      if (offer) await useOffer(tx, offer, booking.id, now);
      // a code's row is locked after the trip's, as when the deposit invoice is raised at once
      const discount = v.discount_code
        ? await claimDiscount(tx, v.discount_code, { invoiceType: first!.invoiceType, tripId: trip.id, today })
        : null;
      const depositPence = subtotal - (discount ? appliedDiscount(discount.amountPence, subtotal) : 0);
      // a discount that leaves nothing to pay now: no hold, the place is taken
      if (hold && depositPence <= 0)
        await tx.update(bookings).set({ holdExpiresAt: null, status: 'confirmed' }).where(eq(bookings.id, booking.id));
      const [made] = await queryRows<{ invoice_id: string | null }>(
        tx,
        sql`insert into ${bookingSetups} (booking_id, invoice_id, discount_id, discount_code, discount_amount_pence,
            deposit_pence, booked_on, created_at)
          values (${booking.id}, ${invoiceIdNow}, ${discount?.id ?? null}, ${discount?.code ?? null},
            ${discount?.amountPence ?? null}, ${depositPence}, ${today}, ${now})
          returning invoice_id`,
      );
      await recordCreated(booking, offer?.id ?? null);
      return this.replied(trip, booking, hold && depositPence > 0, holdExpiresAt, depositPence, idOf(made!));
    }

    // the same order as in a burst (the booking, then the trip's lock), so that the two never wait on each other
    const booking = await insertBooking();
    const offer = await takePlace();
    if (offer) await useOffer(tx, offer, booking.id, now);
    await recordCreated(booking, offer?.id ?? null);

    let invoiceId: number | null = null;
    if (!free) {
      await this.schedules.createFor(tx, { id: booking.id, tripId: trip.id, bookedOn: today });
      if (dueNow > 0) {
        const [firstRow] = await tx
          .select({ id: scheduleRows.id })
          .from(scheduleRows)
          .where(eq(scheduleRows.bookingId, booking.id))
          .orderBy(asc(scheduleRows.position))
          .limit(1);
        invoiceId = firstRow ? await this.invoices.raiseScheduledIn(tx, firstRow.id, today, v.discount_code) : null;
      }
    }
    const [invoice] = invoiceId
      ? await queryRows<{ total: string }>(
          tx,
          sql`select (coalesce((select sum(amount_pence) from invoice_items where invoice_id = ${invoiceId}), 0)
              + coalesce((select sum(price_pence) from invoice_addons where invoice_id = ${invoiceId}), 0)
              - (select discount_pence from invoices where id = ${invoiceId}))::bigint as total`,
        )
      : [];
    const depositPence = invoice ? Number(invoice.total) : 0;
    // a discount that leaves nothing to pay now: no hold, the place is taken
    if (hold && depositPence <= 0)
      await tx.update(bookings).set({ holdExpiresAt: null, status: 'confirmed' }).where(eq(bookings.id, booking.id));
    const made = this.replied(trip, booking, hold && depositPence > 0, holdExpiresAt, depositPence, invoiceId);
    return { ...made, setUp: true };
  }

  private replied(
    trip: TripRow,
    booking: { id: number; ref: string },
    held: boolean,
    holdExpiresAt: Date | null,
    depositPence: number,
    invoiceId: number | null,
  ) {
    return {
      bookingId: booking.id,
      setUp: false,
      reply: bookedReply(this.d, {
        tripName: trip.name,
        ref: booking.ref,
        held,
        holdExpiresAt,
        depositPence,
        invoiceId,
      }),
    };
  }

  /**
   * The holds that ran out: each booking still provisional with nothing paid is cancelled, its
   * unpaid invoices deleted and its instalments waived, freeing its place. One being paid on
   * Stripe's page just now is left for its payment; one paid some other way keeps its place.
   */
  async expireHolds(limit = 200): Promise<{ looked: number; cancelled: number; kept: number }> {
    const now = this.now();
    // not those whose deposit is on Stripe's page: a payment may yet come in (its webhook, or the
    // hourly reconciliation, settles the page; the hold ends then)
    const due = await this.d.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(
        and(
          isNotNull(bookings.holdExpiresAt),
          lt(bookings.holdExpiresAt, now),
          sql`not exists (select 1 from card_checkouts c where c.booking_id = ${bookings.id} and c.status = 'open'
            and c.created_at > ${new Date(now.getTime() - CHECKOUT_ASKED_ABOUT_MS)})`,
        ),
      )
      .orderBy(asc(bookings.holdExpiresAt))
      .limit(limit);
    let cancelled = 0;
    let kept = 0;
    for (const { id } of due) {
      const outcome = await this.d.db.transaction((tx) => this.expireOne(tx, id, now));
      if (outcome === 'cancelled') cancelled += 1;
      if (outcome === 'kept') kept += 1;
    }
    return { looked: due.length, cancelled, kept };
  }

  private async expireOne(tx: Tx, bookingId: number, now: Date): Promise<'cancelled' | 'kept' | 'waiting' | 'none'> {
    const [b] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
    if (!b || !b.holdExpiresAt || b.holdExpiresAt >= now) return 'none';
    if (b.status !== 'provisional') {
      await tx.update(bookings).set({ holdExpiresAt: null }).where(eq(bookings.id, bookingId));
      return 'kept';
    }
    const [paying] = await tx
      .select({ id: cardCheckouts.id })
      .from(cardCheckouts)
      .where(
        and(
          eq(cardCheckouts.bookingId, bookingId),
          eq(cardCheckouts.status, 'open'),
          sql`${cardCheckouts.createdAt} > ${new Date(now.getTime() - CHECKOUT_ASKED_ABOUT_MS)}`,
        ),
      )
      .limit(1);
    if (paying) return 'waiting';
    // a setup not yet made is not made now
    await dropSetupIn(tx, bookingId);
    const bills = await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.bookingId, bookingId));
    const [paid] = bills.length
      ? await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(transactions)
          .where(
            inArray(
              transactions.invoiceId,
              bills.map((i) => i.id),
            ),
          )
      : [{ n: 0 }];
    if (paid!.n > 0) {
      // money came in some other way (staff typed a payment): the place stays, provisional for the office to look at
      await tx.update(bookings).set({ holdExpiresAt: null, updatedAt: now }).where(eq(bookings.id, bookingId));
      await audit(tx, {
        action: 'booking.hold_ended',
        subject: { type: 'booking', id: bookingId },
        bookingId,
        tripId: b.tripId,
        summary: `kept the place of ${b.ref}: its hold ran out, but a payment is recorded`,
        details: { ref: b.ref },
      });
      return 'kept';
    }
    for (const bill of bills) await this.invoices.deleteIn(tx, bill.id);
    await tx
      .update(scheduleRows)
      .set({ waived: true, waivedReason: 'The booking’s hold ran out unpaid.', updatedAt: now })
      .where(and(eq(scheduleRows.bookingId, bookingId), eq(scheduleRows.waived, false)));
    await tx
      .update(bookings)
      .set({ status: 'cancelled', holdExpiresAt: null, updatedAt: now })
      .where(eq(bookings.id, bookingId));
    await audit(tx, {
      action: 'booking.hold_expired',
      subject: { type: 'booking', id: bookingId },
      bookingId,
      tripId: b.tripId,
      changes: { status: ['provisional', 'cancelled'] },
      summary: `cancelled ${b.ref}: its deposit was not paid within the hold, so its place is free again`,
      details: { ref: b.ref, hold_expires_at: b.holdExpiresAt.toISOString() },
    });
    return 'cancelled';
  }
}

/**
 * A card payment recorded on a booking held for its deposit: the hold ends, the booking is
 * confirmed and its deposit dated paid (in the payment's transaction). False when it was not on hold.
 */
export async function confirmHeldBooking(tx: Tx, bookingId: number, paidOn: string): Promise<boolean> {
  const [b] = await tx
    .update(bookings)
    .set({
      status: 'confirmed',
      holdExpiresAt: null,
      depositPaymentDate: sql`coalesce(${bookings.depositPaymentDate}, ${paidOn}::date)`,
      updatedAt: new Date(),
    })
    .where(and(eq(bookings.id, bookingId), isNotNull(bookings.holdExpiresAt), eq(bookings.status, 'provisional')))
    .returning({ ref: bookings.ref, tripId: bookings.tripId });
  if (!b) return false;
  await audit(tx, {
    action: 'booking.confirmed',
    subject: { type: 'booking', id: bookingId },
    bookingId,
    tripId: b.tripId,
    changes: { status: ['provisional', 'confirmed'], deposit_payment_date: [null, paidOn] },
    summary: `confirmed ${b.ref}: its deposit is paid`,
    details: { ref: b.ref },
  });
  return true;
}

/** The service as the configuration sets it up. */
export function onlineBookingFrom(d: Parameters<typeof setupDepsFrom>[0]): OnlineBookingService {
  return new OnlineBookingService({
    ...setupDepsFrom(d),
    termsUrl: d.config.operatorTermsUrl,
    publicUrl: d.config.publicUrl,
    perAddress: d.config.publicBookingsPerAddress,
    pageCacheMs: d.config.publicPageCacheMs,
    burst: d.config.bookingBurst,
    finishAfterBurst: true,
  });
}
