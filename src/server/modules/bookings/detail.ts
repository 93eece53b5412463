import { asc, eq, sql } from 'drizzle-orm';
import type { BookingDetail } from '../../../contract/bookings.ts';
import { penceToPounds } from '../../../contract/money.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import {
  bookingAddons,
  bookingCustomFieldAnswers,
  bookings,
  charities,
  countries,
  tripAddons,
  tripCustomFields,
  trips,
} from '../../../db/schema/index.ts';
import { audit, type Changes as FieldChanges, describeChanges, diff } from '../../audit/audit.ts';
import { notFound } from '../../errors.ts';
import { ageOnDeparture, passportState } from './list.ts';

/** Every field of a booking, with its trip, charity, add-ons and answers to the trip's questions. */
export async function getBooking(db: Db, id: number): Promise<BookingDetail> {
  const [row] = await db
    .select({
      b: bookings,
      trip: {
        id: trips.id,
        name: trips.name,
        departure: trips.departureDate,
        return: trips.returnDate,
        status: trips.status,
        deletedAt: trips.deletedAt,
        type: trips.type,
      },
      country: countries.name,
      charity: { id: charities.id, name: charities.name },
      passport: passportState,
      age: ageOnDeparture,
    })
    .from(bookings)
    .innerJoin(trips, eq(trips.id, bookings.tripId))
    // the trip's country: its name, and its passport rule (passportState)
    .innerJoin(countries, eq(countries.id, trips.countryId))
    .leftJoin(charities, eq(charities.id, bookings.charityId))
    .where(eq(bookings.id, id));
  if (!row) throw notFound('Booking not found.');
  const { b } = row;
  const [addons, fields, signedIn] = await Promise.all([
    db
      .select({
        id: tripAddons.id,
        name: tripAddons.name,
        price: bookingAddons.pricePence,
        invoiced: bookingAddons.invoiced,
      })
      .from(bookingAddons)
      .innerJoin(tripAddons, eq(tripAddons.id, bookingAddons.addonId))
      .where(eq(bookingAddons.bookingId, id))
      .orderBy(asc(tripAddons.id)),
    db
      .select({
        id: tripCustomFields.id,
        label: tripCustomFields.label,
        note: tripCustomFields.note,
        answer: bookingCustomFieldAnswers.answer,
      })
      .from(tripCustomFields)
      .leftJoin(
        bookingCustomFieldAnswers,
        sql`${bookingCustomFieldAnswers.customFieldId} = ${tripCustomFields.id} and ${bookingCustomFieldAnswers.bookingId} = ${id}`,
      )
      .where(eq(tripCustomFields.tripId, b.tripId))
      .orderBy(asc(tripCustomFields.sortOrder), asc(tripCustomFields.id)),
    b.userId === null
      ? Promise.resolve([])
      : queryRows<{ at: Date | string | null }>(
          db,
          sql`select max(at) as at from audit_events
            where subject_type = 'user' and subject_id = ${String(b.userId)} and action = 'user.signed_in'`,
        ),
  ]);
  const lastSignedIn = signedIn[0]?.at ?? null;
  return {
    id: b.id,
    ref: b.ref,
    created_at: b.createdAt.toISOString(),
    updated_at: b.updatedAt.toISOString(),
    status: b.status as BookingDetail['status'],
    source: b.source as BookingDetail['source'],
    hold_expires_at: b.holdExpiresAt?.toISOString() ?? null,
    ...ownFields(b),
    passport_valid: row.passport,
    trip: {
      id: row.trip.id,
      name: row.trip.name,
      departure: row.trip.departure,
      return: row.trip.return,
      status: row.trip.status,
      country: row.country,
      deleted: row.trip.deletedAt !== null,
      type: row.trip.type as BookingDetail['trip']['type'],
    },
    charity: row.charity?.id ? { id: row.charity.id, name: row.charity.name } : null,
    user_id: b.userId,
    user_url: b.userId ? `/users/${b.userId}/edit` : null,
    age: row.age === null ? null : Number(row.age),
    personal_data_erased_at: b.personalDataErasedAt ? b.personalDataErasedAt.toISOString() : null,
    traveller_last_signed_in_at: lastSignedIn === null ? null : new Date(lastSignedIn).toISOString(),
    keep_until: b.keepUntil,
    keep_reason: b.keepReason,
    addons: addons.map((a) => ({
      id: a.id,
      name: a.name,
      price: penceToPounds(a.price),
      pivot: { invoiced: a.invoiced },
    })),
    custom_fields: fields.map((f) => ({ id: f.id, label: f.label, note: f.note, answer: f.answer })),
  };
}

type BookingRow = typeof bookings.$inferSelect;

/** A booking's own columns in the API's names: one mapping for the booking page and the history. */
function ownFields(b: BookingRow) {
  return {
    travel_basis: b.travelBasis,
    travel_basis_discount: penceToPounds(b.travelBasisDiscountPence),
    funding_type: b.fundingType,
    form_complete: b.formComplete,
    deposit_payment_date: b.depositPaymentDate,
    title: b.title,
    first_name: b.firstName,
    last_name: b.lastName,
    preferred_name: b.preferredName,
    email: b.email,
    mobile: b.mobile,
    address_1: b.address1,
    address_2: b.address2,
    address_3: b.address3,
    address_4: b.address4,
    post_code: b.postCode,
    gender: b.gender,
    date_of_birth: b.dateOfBirth,
    share_with: b.shareWith,
    double_room: b.doubleRoom,
    room_type: b.roomType,
    room_ref: b.roomRef,
    passport_number: b.passportNumber,
    passport_issue: b.passportIssueDate,
    passport_expiry: b.passportExpiryDate,
    nationality: b.nationality,
    // only whether there is one: the file's name says nothing to a reader
    has_passport_image: b.passportImageFile !== null,
    insurance_company: b.insuranceCompany,
    insurance_policy_number: b.insurancePolicyNumber,
    insurance_telephone: b.insuranceTelephone,
    nok_name: b.nokName,
    nok_relationship: b.nokRelationship,
    nok_email: b.nokEmail,
    nok_telephone: b.nokTelephone,
    nok_address: b.nokAddress,
    medical_conditions: b.medicalConditions,
    dietary: b.dietary,
    medication: b.medication,
    medical_detail: b.medicalDetail,
    notes: b.notes,
    additional_info: b.additionalInfo,
    referred_by: b.referredBy,
    previous_trips: b.previousTrips,
    fitness_training: b.fitnessTraining,
  };
}

/**
 * A booking's own fields in the API's names, before and after a change, as the history records
 * them: every field, so a change to any of them is seen, and diff() masks the passport, insurance
 * and medical ones.
 */
export function bookingDiff(before: BookingRow, after: BookingRow): FieldChanges {
  const fields = (b: BookingRow) => ({
    status: b.status,
    trip_id: b.tripId,
    user_id: b.userId,
    charity_id: b.charityId,
    ...ownFields(b),
    as_on_passport: b.asOnPassport,
  });
  const a = fields(before);
  const b = fields(after);
  return diff(Object.fromEntries(Object.keys(b).map((k) => [k, [a[k as keyof typeof a], b[k as keyof typeof b]]])));
}

type Changes = {
  status: string;
  title: string | null;
  first_name: string;
  last_name: string;
  preferred_name: string | null;
  email: string;
  mobile: string | null;
  address_1: string | null;
  address_2: string | null;
  address_3: string | null;
  address_4: string | null;
  post_code: string | null;
  room_type: string | null;
  room_ref: string | null;
  share_with: string | null;
  double_room: boolean;
};

/**
 * Changes only the booking's own row: its invoices, payments and notes are not touched. The
 * history gets the field changes (booking.updated) and, apart, a change of status
 * (booking.status_changed), in the same transaction as the change.
 */
export async function updateBooking(db: Db, id: number, c: Changes): Promise<BookingDetail> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(bookings).where(eq(bookings.id, id)).for('update');
    if (!before) throw notFound('Booking not found.');
    const [after] = await tx
      .update(bookings)
      .set({
        status: c.status,
        title: c.title,
        firstName: c.first_name,
        lastName: c.last_name,
        preferredName: c.preferred_name,
        email: c.email,
        mobile: c.mobile,
        address1: c.address_1,
        address2: c.address_2,
        address3: c.address_3,
        address4: c.address_4,
        postCode: c.post_code,
        roomType: c.room_type,
        roomRef: c.room_ref,
        shareWith: c.share_with,
        doubleRoom: c.double_room,
        updatedAt: new Date(),
      })
      .where(eq(bookings.id, id))
      .returning();
    const { status, ...fields } = bookingDiff(before, after!);
    const about = { subject: { type: 'booking', id }, bookingId: id, tripId: after!.tripId };
    // a save that only changes the status is told by its own event; one that changes nothing is still a save
    if (Object.keys(fields).length || !status) {
      // (describeChanges says "saved of …" for no change at all)
      const summary = Object.keys(fields).length
        ? describeChanges(fields, `the booking ${after!.ref}`)
        : `saved the booking ${after!.ref} without changes`;
      await audit(tx, { action: 'booking.updated', ...about, changes: fields, summary });
    }
    if (status) {
      const changes = { status };
      await audit(tx, {
        action: 'booking.status_changed',
        ...about,
        changes,
        summary: describeChanges(changes),
        details: { ref: after!.ref },
      });
    }
  });
  return getBooking(db, id);
}

/** The fields of a booking's detail that are passport, insurance or medical data. */
const SENSITIVE: Array<{ field: keyof BookingDetail; kind: 'passport' | 'insurance' | 'medical' }> = [
  { field: 'passport_number', kind: 'passport' },
  { field: 'passport_issue', kind: 'passport' },
  { field: 'passport_expiry', kind: 'passport' },
  { field: 'has_passport_image', kind: 'passport' },
  { field: 'nationality', kind: 'passport' },
  { field: 'insurance_policy_number', kind: 'insurance' },
  { field: 'medical_conditions', kind: 'medical' },
  { field: 'medical_detail', kind: 'medical' },
  { field: 'medication', kind: 'medical' },
  { field: 'dietary', kind: 'medical' },
];

/**
 * One booking for the person reading it. A reply that shows passport or medical data is a
 * sensitive read: it is recorded (which fields, never their values) before the reply leaves,
 * so no such read goes unrecorded.
 */
export async function viewBooking(db: Db, id: number): Promise<BookingDetail> {
  const detail = await getBooking(db, id);
  const shown = SENSITIVE.filter(({ field }) => {
    const v = detail[field];
    return v !== null && v !== false && v !== '';
  });
  if (shown.length) {
    const kinds = [...new Set(shown.map((s) => s.kind))];
    const what = kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}` : kinds[0];
    await audit(db, {
      action: 'booking.sensitive_viewed',
      subject: { type: 'booking', id },
      bookingId: id,
      tripId: detail.trip.id,
      summary: `viewed the ${what} details of the booking ${detail.ref} (${detail.first_name} ${detail.last_name})`,
      details: { ref: detail.ref, fields: shown.map((s) => s.field) },
    });
  }
  return detail;
}
