import { asc, eq, sql } from 'drizzle-orm';
import type { BookingDetail } from '../../../contract/bookings.ts';
import { penceToPounds } from '../../../contract/money.ts';
import type { Db } from '../../../db/client.ts';
import { bookingAddons, bookingCustomFieldAnswers, bookings, charities, countries, tripAddons, tripCustomFields, trips } from '../../../db/schema/index.ts';
import { notFound } from '../../errors.ts';
import { ageOnDeparture, passportState } from './list.ts';

/** Every field of a booking, with its trip, charity, add-ons and answers to the trip's questions. */
export async function getBooking(db: Db, id: number): Promise<BookingDetail> {
  const [row] = await db
    .select({
      b: bookings,
      trip: { id: trips.id, name: trips.name, departure: trips.departureDate, return: trips.returnDate, status: trips.status, deletedAt: trips.deletedAt },
      country: countries.name,
      charity: { id: charities.id, name: charities.name },
      passport: passportState,
      age: ageOnDeparture,
    })
    .from(bookings)
    .innerJoin(trips, eq(trips.id, bookings.tripId))
    .innerJoin(countries, eq(countries.id, trips.countryId))
    .leftJoin(charities, eq(charities.id, bookings.charityId))
    .where(eq(bookings.id, id));
  if (!row) throw notFound('Booking not found.');
  const { b } = row;
  const [addons, fields] = await Promise.all([
    db
      .select({ id: tripAddons.id, name: tripAddons.name, price: bookingAddons.pricePence, invoiced: bookingAddons.invoiced })
      .from(bookingAddons)
      .innerJoin(tripAddons, eq(tripAddons.id, bookingAddons.addonId))
      .where(eq(bookingAddons.bookingId, id))
      .orderBy(asc(tripAddons.id)),
    db
      .select({ id: tripCustomFields.id, label: tripCustomFields.label, note: tripCustomFields.note, answer: bookingCustomFieldAnswers.answer })
      .from(tripCustomFields)
      .leftJoin(bookingCustomFieldAnswers, sql`${bookingCustomFieldAnswers.customFieldId} = ${tripCustomFields.id} and ${bookingCustomFieldAnswers.bookingId} = ${id}`)
      .where(eq(tripCustomFields.tripId, b.tripId))
      .orderBy(asc(tripCustomFields.sortOrder), asc(tripCustomFields.id)),
  ]);
  return {
    id: b.id,
    ref: b.ref,
    created_at: b.createdAt.toISOString(),
    updated_at: b.updatedAt.toISOString(),
    deposit_payment_date: b.depositPaymentDate,
    status: b.status as BookingDetail['status'],
    travel_basis: b.travelBasis,
    travel_basis_discount: penceToPounds(b.travelBasisDiscountPence),
    funding_type: b.fundingType,
    form_complete: b.formComplete,
    passport_valid: row.passport,
    medical_conditions: b.medicalConditions,
    trip: { id: row.trip.id, name: row.trip.name, departure: row.trip.departure, return: row.trip.return, status: row.trip.status, country: row.country, deleted: row.trip.deletedAt !== null },
    charity: row.charity?.id ? { id: row.charity.id, name: row.charity.name } : null,
    user_id: b.userId,
    user_url: b.userId ? `/users/${b.userId}/edit` : null,
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
    age: row.age === null ? null : Number(row.age),
    share_with: b.shareWith,
    double_room: b.doubleRoom,
    room_type: b.roomType,
    room_ref: b.roomRef,
    passport_number: b.passportNumber,
    passport_issue: b.passportIssueDate,
    passport_expiry: b.passportExpiryDate,
    has_passport_image: b.passportImageFile !== null,
    insurance_company: b.insuranceCompany,
    insurance_policy_number: b.insurancePolicyNumber,
    insurance_telephone: b.insuranceTelephone,
    nok_name: b.nokName,
    nok_relationship: b.nokRelationship,
    nok_email: b.nokEmail,
    nok_telephone: b.nokTelephone,
    nok_address: b.nokAddress,
    dietary: b.dietary,
    medication: b.medication,
    medical_detail: b.medicalDetail,
    notes: b.notes,
    additional_info: b.additionalInfo,
    referred_by: b.referredBy,
    previous_trips: b.previousTrips,
    fitness_training: b.fitnessTraining,
    addons: addons.map((a) => ({ id: a.id, name: a.name, price: penceToPounds(a.price), pivot: { invoiced: a.invoiced } })),
    custom_fields: fields.map((f) => ({ id: f.id, label: f.label, note: f.note, answer: f.answer })),
  };
}

type Changes = {
  status: string; title: string | null; first_name: string; last_name: string; preferred_name: string | null; email: string;
  mobile: string | null; address_1: string | null; address_2: string | null; address_3: string | null; address_4: string | null;
  post_code: string | null; room_type: string | null; room_ref: string | null; share_with: string | null; double_room: boolean;
};

/** Changes only the booking's own row: its invoices, payments and notes are not touched. */
export async function updateBooking(db: Db, id: number, c: Changes): Promise<BookingDetail> {
  const updated = await db
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
    .returning({ id: bookings.id });
  if (!updated.length) throw notFound('Booking not found.');
  return getBooking(db, id);
}
