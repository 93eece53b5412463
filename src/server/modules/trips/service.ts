import { and, asc, count, desc, eq, ilike, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Paged } from '../../../contract/common.ts';
import { penceToPounds } from '../../../contract/money.ts';
import { minimumDeadline } from '../../../contract/change-constants.ts';
import {
  type Addon,
  type Trip,
  TRIPS_PER_PAGE,
  type TRIP_FUNDING,
  type TRIP_STATUSES,
  type TRIP_TYPES,
} from '../../../contract/trips.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { bookingAddons, countries, invoiceAddons, tripAddons, trips } from '../../../db/schema/index.ts';
import { audit, describeChanges, diff, diffObjects } from '../../audit/audit.ts';
import { HttpError, isForeignKeyViolation, notFound, validationError } from '../../errors.ts';
import { escapeLike } from '../../sql.ts';
import { pageOf } from '../../common/paging.ts';

/** Nothing changed: "saved the trip … without changes" (describeChanges words this case "saved of …"). */

const today = () => new Date().toISOString().slice(0, 10);

// from the weekly counts the database keeps by trigger in the same transaction as every booking
// change (booking_weeks, migration 0025): exact, and a few rows a trip rather than every booking;
// qualified by hand: a bare "id" inside the subquery would be the counts' own
const bookingCount =
  sql<number>`(select coalesce(sum(bw.n), 0) from booking_weeks bw where bw.trip_id = ${trips}.id and bw.status <> 'cancelled')`.mapWith(
    Number,
  );

// places held for deposits (online bookings on hold, few at any time: a partial index), and by a waiting list's offers
const heldBookings =
  sql<number>`(select count(*) from bookings hb where hb.trip_id = ${trips}.id and hb.hold_expires_at is not null and hb.status <> 'cancelled')`.mapWith(
    Number,
  );
const offeredPlaces =
  sql<number>`(select coalesce(sum(w.places - w.places_booked), 0) from waiting_list_entries w where w.trip_id = ${trips}.id and w.state = 'offered' and w.offer_expires_at > now())`.mapWith(
    Number,
  );

const columns = {
  id: trips.id,
  name: trips.name,
  departureDate: trips.departureDate,
  returnDate: trips.returnDate,
  status: trips.status,
  countryId: trips.countryId,
  countryName: countries.name,
  type: trips.type,
  level: trips.level,
  depositPence: trips.depositPence,
  costPence: trips.costPence,
  requirePassport: trips.requirePassport,
  funding: trips.funding,
  capacity: trips.capacity,
  minimum: trips.minimum,
  consentText: trips.consentText,
  archivedAt: trips.archivedAt,
  deletedAt: trips.deletedAt,
  bookingCount,
  heldBookings,
  offeredPlaces,
};
type Row = {
  id: number;
  name: string;
  departureDate: string;
  returnDate: string;
  status: string;
  countryId: number;
  countryName: string;
  type: string;
  level: number;
  depositPence: number;
  costPence: number;
  requirePassport: boolean;
  funding: string;
  capacity: number | null;
  minimum: number | null;
  consentText: string | null;
  archivedAt: Date | null;
  deletedAt: Date | null;
  bookingCount: number;
  heldBookings: number;
  offeredPlaces: number;
};

/**
 * A trip can be changed until it departs; a deleted trip cannot be changed at all.
 * The one place this rule lives.
 */
export function editability(
  trip: { departureDate: string; deletedAt: Date | null },
  on = today(),
): { editable: boolean; reason: string | null } {
  if (trip.deletedAt) return { editable: false, reason: 'This trip has been deleted, so it can no longer be changed.' };
  if (trip.departureDate < on)
    return { editable: false, reason: 'This trip has departed, so it can no longer be changed.' };
  return { editable: true, reason: null };
}

/** Taken (booked and not on hold), held and left of the capacity: what online booking sells from. */
function placesFrom(r: Row): Trip['places'] {
  const taken = r.bookingCount - r.heldBookings;
  const held = r.heldBookings + r.offeredPlaces;
  return { taken, held, left: r.capacity === null ? null : Math.max(0, r.capacity - taken - held) };
}

function toTrip(r: Row): Trip {
  const { editable, reason } = editability(r);
  return {
    id: r.id,
    name: r.name,
    departure: r.departureDate,
    return: r.returnDate,
    booking_count: r.bookingCount,
    places: placesFrom(r),
    status: r.status as (typeof TRIP_STATUSES)[number],
    editable,
    editable_reason: reason,
    country_id: r.countryId,
    country: { id: r.countryId, name: r.countryName },
    type: r.type as (typeof TRIP_TYPES)[number],
    level: r.level,
    deposit: penceToPounds(r.depositPence),
    cost: penceToPounds(r.costPence),
    require_passport: r.requirePassport,
    funding: r.funding as (typeof TRIP_FUNDING)[number],
    capacity: r.capacity,
    minimum: r.minimum,
    minimum_deadline: r.minimum === null ? null : minimumDeadline(r.departureDate, r.returnDate),
    consent_text: r.consentText,
    archived: r.archivedAt !== null,
    deleted: r.deletedAt !== null,
  };
}

/** A trip's own fields as the API gives them: money in pounds, dates as ISO days. */
function tripFields(r: typeof trips.$inferSelect): Record<string, unknown> {
  return {
    name: r.name,
    country_id: r.countryId,
    departure: r.departureDate,
    return: r.returnDate,
    type: r.type,
    level: r.level,
    status: r.status,
    deposit: penceToPounds(r.depositPence),
    cost: penceToPounds(r.costPence),
    require_passport: r.requirePassport,
    funding: r.funding,
    capacity: r.capacity,
    minimum: r.minimum,
    consent_text: r.consentText,
  };
}

type TripValues = {
  name: string;
  country_id: number;
  departure: string;
  return: string;
  type: string;
  level: number;
};

/** The columns the trip form sets, named as the table names them: the same on create and update. */
function tripColumns(v: TripValues) {
  return {
    name: v.name,
    countryId: v.country_id,
    departureDate: v.departure,
    returnDate: v.return,
    type: v.type,
    level: v.level,
  };
}

export class TripService {
  constructor(private readonly db: Db) {}

  private base() {
    return this.db.select(columns).from(trips).innerJoin(countries, eq(countries.id, trips.countryId));
  }

  async list(q: {
    paged: boolean;
    page: number;
    sort_by: string;
    name_search?: string | undefined;
    archived: boolean;
  }): Promise<Paged<Trip>> {
    const where = and(
      isNull(trips.deletedAt),
      q.archived ? isNotNull(trips.archivedAt) : isNull(trips.archivedAt),
      q.name_search ? ilike(trips.name, `%${escapeLike(q.name_search)}%`) : undefined,
    );
    const order =
      q.sort_by === 'name'
        ? [asc(sql`lower(${trips.name})`), asc(trips.id)]
        : q.sort_by === 'date-d'
          ? [desc(trips.departureDate), desc(trips.id)]
          : [asc(trips.departureDate), asc(trips.id)];
    const [total] = await this.db.select({ n: count() }).from(trips).where(where);
    const n = Number(total?.n ?? 0);
    const perPage = q.paged ? TRIPS_PER_PAGE : Math.max(n, 1);
    const page = q.paged ? q.page : 1;
    const rows = await this.base()
      .where(where)
      .orderBy(...order)
      .limit(perPage)
      .offset((page - 1) * perPage);
    return pageOf(rows.map(toTrip), n, page, perPage);
  }

  async get(id: number): Promise<Trip> {
    const [row] = await this.base().where(eq(trips.id, id));
    if (!row) throw notFound('Trip not found.');
    return toTrip(row);
  }

  private async assertCountry(db: Db | Tx, id: number) {
    const [c] = await db.select({ id: countries.id }).from(countries).where(eq(countries.id, id));
    if (!c) throw validationError({ country_id: ['The selected country is invalid.'] });
  }

  /** The spec's fixed values: a new trip is open, with no deposit or cost, passports required, any funding. */
  async create(v: TripValues): Promise<Trip> {
    const id = await this.db.transaction(async (tx) => {
      await this.assertCountry(tx, v.country_id);
      const [row] = await tx
        .insert(trips)
        .values({
          ...tripColumns(v),
          status: 'open',
          depositPence: 0,
          costPence: 0,
          requirePassport: true,
          funding: 'both',
        })
        .returning();
      await audit(tx, {
        action: 'trip.created',
        subject: { type: 'trip', id: row!.id },
        tripId: row!.id,
        summary: `added the trip ${row!.name}`,
        details: tripFields(row!),
      });
      return row!.id;
    });
    return this.get(id);
  }

  /** The trip, refused when it cannot be changed; locked when `lock` (its own fields are about to change). */
  private async editableRow(db: Db | Tx, id: number, lock = false) {
    const query = db.select().from(trips).where(eq(trips.id, id));
    // not FOR UPDATE: a booking being made holds its trip's key share, then asks for this (decision 030)
    const [row] = await (lock ? query.for('no key update') : query);
    if (!row) throw notFound('Trip not found.');
    const { editable, reason } = editability(row);
    if (!editable) throw new HttpError(422, reason!);
    return row;
  }

  async update(
    id: number,
    v: TripValues & {
      status: string;
      deposit: number;
      cost: number;
      require_passport: boolean;
      funding: string;
      capacity?: number | null | undefined;
      minimum?: number | null | undefined;
      consent_text?: string | null | undefined;
    },
  ): Promise<Trip> {
    await this.db.transaction(async (tx) => {
      const before = await this.editableRow(tx, id, true);
      await this.assertCountry(tx, v.country_id);
      const [after] = await tx
        .update(trips)
        .set({
          ...tripColumns(v),
          status: v.status,
          depositPence: v.deposit,
          costPence: v.cost,
          requirePassport: v.require_passport,
          funding: v.funding,
          ...(v.capacity === undefined ? {} : { capacity: v.capacity }),
          ...(v.minimum === undefined ? {} : { minimum: v.minimum }),
          ...(v.consent_text === undefined ? {} : { consentText: v.consent_text }),
          updatedAt: new Date(),
        })
        .where(eq(trips.id, id))
        .returning();
      const changes = diffObjects(tripFields(before), tripFields(after!));
      await audit(tx, {
        action: 'trip.updated',
        subject: { type: 'trip', id },
        tripId: id,
        changes,
        summary: describeChanges(changes, `the trip ${after!.name}`),
      });
    });
    return this.get(id);
  }

  /** Archiving an archived trip changes nothing, so it records nothing. */
  async archive(id: number): Promise<Trip> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(trips).where(eq(trips.id, id)).for('no key update');
      if (!row || row.deletedAt) throw notFound('Trip not found.');
      if (row.archivedAt) return;
      await tx.update(trips).set({ archivedAt: new Date(), updatedAt: new Date() }).where(eq(trips.id, id));
      await audit(tx, {
        action: 'trip.archived',
        subject: { type: 'trip', id },
        tripId: id,
        summary: `archived the trip ${row.name}`,
      });
    });
    return this.get(id);
  }

  /** Soft: the trip leaves every list, its bookings stay where they are. */
  async delete(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(trips).where(eq(trips.id, id)).for('no key update');
      if (!row || row.deletedAt) throw notFound('Trip not found.');
      await tx.update(trips).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(trips.id, id));
      await audit(tx, {
        action: 'trip.deleted',
        subject: { type: 'trip', id },
        tripId: id,
        summary: `deleted the trip ${row.name}`,
      });
    });
  }

  // ---- add-ons ----

  async addons(tripId: number): Promise<Addon[]> {
    await this.get(tripId);
    const rows = await this.db
      .select({
        id: tripAddons.id,
        tripId: tripAddons.tripId,
        name: tripAddons.name,
        pricePence: tripAddons.pricePence,
        bookings: sql<number>`(select count(*) from booking_addons ba where ba.addon_id = ${tripAddons}.id)`.mapWith(
          Number,
        ),
        invoiced: sql<boolean>`exists (select 1 from invoice_addons ia where ia.addon_id = ${tripAddons}.id)
          or exists (select 1 from booking_addons ba where ba.addon_id = ${tripAddons}.id and ba.invoiced)`,
      })
      .from(tripAddons)
      .where(eq(tripAddons.tripId, tripId))
      .orderBy(asc(tripAddons.id));
    return rows.map((r) => ({
      id: r.id,
      trip_id: r.tripId,
      name: r.name,
      price: penceToPounds(r.pricePence),
      bookings_count: r.bookings,
      invoiced: Boolean(r.invoiced),
    }));
  }

  private async addon(tx: Tx, id: number) {
    const [row] = await tx.select().from(tripAddons).where(eq(tripAddons.id, id)).for('update');
    if (!row) throw notFound('Add-on not found.');
    return row;
  }

  private async addonInvoiced(tx: Tx, id: number) {
    const [a] = await tx.select({ n: count() }).from(invoiceAddons).where(eq(invoiceAddons.addonId, id));
    const [b] = await tx
      .select({ n: count() })
      .from(bookingAddons)
      .where(and(eq(bookingAddons.addonId, id), eq(bookingAddons.invoiced, true)));
    return Number(a?.n ?? 0) + Number(b?.n ?? 0) > 0;
  }

  async addAddon(tripId: number, v: { name: string; price: number }): Promise<Addon> {
    const id = await this.db.transaction(async (tx) => {
      const trip = await this.editableRow(tx, tripId);
      const [row] = await tx.insert(tripAddons).values({ tripId, name: v.name, pricePence: v.price }).returning();
      await audit(tx, {
        action: 'addon.created',
        subject: { type: 'addon', id: row!.id },
        tripId,
        summary: `added the add-on ${row!.name} to the trip ${trip.name}`,
        details: { name: row!.name, price: penceToPounds(row!.pricePence) },
      });
      return row!.id;
    });
    return (await this.addons(tripId)).find((a) => a.id === id)!;
  }

  /** An add-on already billed keeps its price: the invoices that carry it must stay true. */
  async updateAddon(id: number, v: { name: string; price: number }): Promise<Addon> {
    const tripId = await this.db.transaction(async (tx) => {
      const addon = await this.addon(tx, id);
      const trip = await this.editableRow(tx, addon.tripId);
      if (v.price !== addon.pricePence && (await this.addonInvoiced(tx, id))) {
        throw validationError({ price: ['This add-on has been invoiced, so its price can no longer change.'] });
      }
      await tx.update(tripAddons).set({ name: v.name, pricePence: v.price }).where(eq(tripAddons.id, id));
      const changes = diff({
        name: [addon.name, v.name],
        price: [penceToPounds(addon.pricePence), penceToPounds(v.price)],
      });
      await audit(tx, {
        action: 'addon.updated',
        subject: { type: 'addon', id },
        tripId: addon.tripId,
        changes,
        summary: describeChanges(changes, `the add-on ${v.name} of the trip ${trip.name}`),
      });
      return addon.tripId;
    });
    return (await this.addons(tripId)).find((a) => a.id === id)!;
  }

  async removeAddon(id: number): Promise<void> {
    await this.db
      .transaction(async (tx) => {
        const addon = await this.addon(tx, id);
        const trip = await this.editableRow(tx, addon.tripId);
        if (await this.addonInvoiced(tx, id))
          throw new HttpError(422, 'This add-on has been invoiced, so it cannot be removed.');
        const [chosen] = await tx.select({ n: count() }).from(bookingAddons).where(eq(bookingAddons.addonId, id));
        const n = Number(chosen?.n ?? 0);
        if (n)
          throw new HttpError(
            422,
            `This add-on cannot be removed because ${n} booking${n === 1 ? ' has' : 's have'} chosen it.`,
          );
        await tx.delete(tripAddons).where(eq(tripAddons.id, id));
        await audit(tx, {
          action: 'addon.deleted',
          subject: { type: 'addon', id },
          tripId: addon.tripId,
          summary: `deleted the add-on ${addon.name} of the trip ${trip.name}`,
          details: { name: addon.name, price: penceToPounds(addon.pricePence) },
        });
      })
      .catch((error: unknown) => {
        if (isForeignKeyViolation(error))
          throw new HttpError(422, 'This add-on cannot be removed because a booking has chosen it.');
        throw error;
      });
  }
}
