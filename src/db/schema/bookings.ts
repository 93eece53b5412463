import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { charities } from './charities.ts';
import { tripAddons, tripCustomFields, trips } from './trips.ts';
import { users } from './users.ts';
import { schoolGroups } from './groups.ts';

export const BOOKING_STATUSES = ['provisional', 'confirmed', 'cancelled'] as const;
// 'landonly' is the spec's value; 'flights' is the other basis (flights included)
export const TRAVEL_BASES = ['flights', 'landonly'] as const;
export const FUNDING_TYPES = ['free', 'flexi', 'self', 'fundraise'] as const;
export const GENDERS = ['female', 'male', 'other'] as const;

export const bookings = pgTable(
  'bookings',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    ref: text().notNull().unique(),
    tripId: integer('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'restrict' }),
    // a deleted user leaves the booking and its traveller details in place
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    charityId: integer('charity_id').references(() => charities.id, { onDelete: 'restrict' }),
    status: text().notNull().default('provisional'),
    travelBasis: text('travel_basis').notNull().default('flights'),
    travelBasisDiscountPence: integer('travel_basis_discount_pence').notNull().default(0),
    fundingType: text('funding_type').notNull().default('self'),
    formComplete: boolean('form_complete').notNull().default(false),
    depositPaymentDate: date('deposit_payment_date'),
    // the trip's departure, copied by database triggers, so that the list's timing filter and
    // sort are one index range on this table (migration 0004, which also makes it NOT NULL in
    // the database; it stays optional here because the trigger, not the caller, fills it)
    tripDeparture: date('trip_departure'),

    title: text(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    preferredName: text('preferred_name'),
    email: text().notNull(),
    mobile: text(),
    address1: text('address_1'),
    address2: text('address_2'),
    address3: text('address_3'),
    address4: text('address_4'),
    postCode: text('post_code'),
    gender: text(),
    dateOfBirth: date('date_of_birth'),

    shareWith: text('share_with'),
    doubleRoom: boolean('double_room').notNull().default(false),
    roomType: text('room_type'),
    roomRef: text('room_ref'),

    passportNumber: text('passport_number'),
    passportIssueDate: date('passport_issue_date'),
    passportExpiryDate: date('passport_expiry_date'),
    // server-made file name under DATA_DIR/files/passports
    passportImageFile: text('passport_image_file'),
    /** the photo page as last uploaded, and whether staff have looked at it since (the board's "to check") */
    passportImageUploadedAt: timestamp('passport_image_uploaded_at', { withTimezone: true }),
    passportImageCheckedAt: timestamp('passport_image_checked_at', { withTimezone: true }),
    nationality: text(),
    asOnPassport: boolean('as_on_passport').notNull().default(false),

    insuranceCompany: text('insurance_company'),
    insurancePolicyNumber: text('insurance_policy_number'),
    insuranceTelephone: text('insurance_telephone'),

    nokName: text('nok_name'),
    nokRelationship: text('nok_relationship'),
    nokEmail: text('nok_email'),
    nokTelephone: text('nok_telephone'),
    nokAddress: text('nok_address'),

    medicalConditions: boolean('medical_conditions').notNull().default(false),
    dietary: text(),
    medication: text(),
    medicalDetail: text('medical_detail'),

    notes: text(),
    additionalInfo: text('additional_info'),
    referredBy: text('referred_by'),
    previousTrips: text('previous_trips'),
    fitnessTraining: text('fitness_training'),

    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    /** "Send automatic reminders"; when off, why */
    remindersOff: boolean('reminders_off').notNull().default(false),
    remindersOffReason: text('reminders_off_reason'),
    /** erasure after return: held until this day (a claim, an incident), and why */
    keepUntil: date('keep_until'),
    keepReason: text('keep_reason'),
    /** when the passport, medical, insurance-number and next-of-kin details were erased */
    personalDataErasedAt: timestamp('personal_data_erased_at', { withTimezone: true }),
    /** "Send automatic chasers" (passport and forms); when off, why */
    chasersOff: boolean('chasers_off').notNull().default(false),
    chasersOffReason: text('chasers_off_reason'),
    /** when the trip's documents were last emailed to the traveller (the readiness board's documents check) */
    documentsSentAt: timestamp('documents_sent_at', { withTimezone: true }),
    // a parent's consent for a pupil on a school trip (issue 37): the name typed, when and from where;
    // withdrawn keeps when it was given, so the board can say it was and is no more
    // a pupil of a school's group (issue 37); null for every other booking
    groupId: integer('group_id').references(() => schoolGroups.id, { onDelete: 'set null' }),
    /** a pupil added by their group leader: when the email inviting their parent went (null: still owed) */
    parentInvitedAt: timestamp('parent_invited_at', { withTimezone: true }),
    /** and when it last failed (the hourly job tries again a day later) */
    parentInviteFailedAt: timestamp('parent_invite_failed_at', { withTimezone: true }),
    consentName: text('consent_name'),
    consentGivenAt: timestamp('consent_given_at', { withTimezone: true }),
    consentIp: text('consent_ip'),
    consentWithdrawnAt: timestamp('consent_withdrawn_at', { withTimezone: true }),
    /** fundraising: the target when not the trip's minimum, and why it was changed */
    fundraisingTargetPence: integer('fundraising_target_pence'),
    // the sum of the booking's fundraising entries not struck out, kept by a trigger on the entries (migration 0023)
    fundraisingRaisedPence: bigint('fundraising_raised_pence', { mode: 'number' }).notNull().default(0),
    fundraisingTargetReason: text('fundraising_target_reason'),
    // the booking's fundraising standing, kept by a trigger from its funding, target, raised
    // total, trip, departure and rule (migration 0035), so that the list's Fundraising filter
    // reads three columns: the target in force (null when not fundraising), whether it is met,
    // and the first day the booking is behind (the day after the first milestone it falls short
    // of; null when never). Behind on a day is `behind_from <= that day`: no nightly job.
    fundraisingGoalPence: bigint('fundraising_goal_pence', { mode: 'number' }),
    fundraisingMet: boolean('fundraising_met').notNull().default(false),
    fundraisingBehindFrom: date('fundraising_behind_from'),
    /** the traveller's page on JustGiving, Enthuse and the like */
    fundraisingPageUrl: text('fundraising_page_url'),
    /** the charity has acknowledged this fundraiser: when, and which of its users */
    charityAcknowledgedAt: timestamp('charity_acknowledged_at', { withTimezone: true }),
    charityAcknowledgedBy: integer('charity_acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    /** made by the office, or by the traveller on the trip's booking page */
    source: text().notNull().default('office'),
    /** an online booking's place is held until then for its deposit; cleared once paid */
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('bookings_source_check', sql`${t.source} in ('office', 'online', 'group')`),
    // the job that frees the places of holds that ran out finds them here
    index('bookings_hold_idx')
      .on(t.holdExpiresAt)
      .where(sql`${t.holdExpiresAt} is not null`),
    check('bookings_status_check', sql`${t.status} in ('provisional', 'confirmed', 'cancelled')`),
    check('bookings_travel_basis_check', sql`${t.travelBasis} in ('flights', 'landonly')`),
    check('bookings_funding_type_check', sql`${t.fundingType} in ('free', 'flexi', 'self', 'fundraise')`),
    check('bookings_gender_check', sql`${t.gender} is null or ${t.gender} in ('female', 'male', 'other')`),
    check('bookings_travel_basis_discount_check', sql`${t.travelBasisDiscountPence} >= 0`),
    // the booking list: default sort, sorts by header, and the filters of spec §7.
    // Sort keys are plain ascending (ASC NULLS LAST): read backwards that is DESC NULLS FIRST,
    // which is what `order by … desc` asks for, so one index serves both directions. (An index
    // built DESC NULLS LAST serves neither, and the planner then sorts every match.)
    // The newest-first walk also carries the columns of the usual filters (timing, trips,
    // status), so that those filters and deep pages are answered from the index alone.
    index('bookings_created_idx').on(t.createdAt, t.id, t.tripDeparture, t.tripId, t.status),
    index('bookings_trip_departure_created_idx').on(t.tripDeparture, t.createdAt.desc()),
    index('bookings_trip_created_idx').on(t.tripId, t.createdAt, t.id),
    // the Fundraising = target met filter: the few met, newest first (issue 33: with none met, it read every booking)
    index('bookings_fundraising_met_idx')
      .on(t.createdAt, t.id, t.tripDeparture)
      .where(sql`${t.fundraisingMet} and ${t.status} <> 'cancelled'`),
    index('bookings_group_idx')
      .on(t.groupId)
      .where(sql`group_id is not null`),
    index('bookings_user_idx').on(t.userId),
    index('bookings_charity_idx').on(t.charityId),
    // a charity's fundraisers (provisional and confirmed bookings that fundraise), in the order
    // its list shows them, with what the list's filters and totals read: a page is a walk of the
    // index, and the totals of the charity's every fundraiser are read from the index alone
    index('bookings_charity_fundraisers_idx')
      .on(
        t.charityId,
        t.tripDeparture,
        sql`lower(${t.lastName})`,
        sql`lower(${t.firstName})`,
        t.id,
        t.tripId,
        t.fundingType,
        t.fundraisingGoalPence,
        t.fundraisingRaisedPence,
        t.fundraisingMet,
        t.fundraisingBehindFrom,
        // the names themselves as well, so that a deep page's walk in name order is read from the
        // index alone (PostgreSQL works out lower(name) from the column, not the expression)
        t.lastName,
        t.firstName,
      )
      .where(
        sql`${t.charityId} is not null and ${t.status} in ('provisional', 'confirmed') and ${t.fundingType} in ('fundraise', 'flexi')`,
      ),
    // with the trip, the dashboard counts a season's provisional bookings made in the last days from the index alone
    index('bookings_status_idx').on(t.status, t.createdAt, t.id, t.tripId),
    // the list sorts these with empty values last both ways ("x asc nulls last, id asc" and
    // "x desc nulls last, id desc"): one index for each direction, in exactly that order
    index('bookings_deposit_paid_idx').on(t.depositPaymentDate, t.id),
    index('bookings_deposit_paid_desc_idx').on(t.depositPaymentDate.desc().nullsLast(), t.id.desc().nullsFirst()),
    index('bookings_room_ref_idx').on(t.roomRef, t.id),
    index('bookings_room_ref_desc_idx').on(t.roomRef.desc().nullsLast(), t.id.desc().nullsFirst()),
    index('bookings_traveller_name_idx').on(t.lastName, t.firstName),
    index('bookings_dob_idx').on(t.dateOfBirth),
    // the list's age filter: age on departure (the booking's copy of the date) as the filter writes
    // it, with the columns of the timing and medical filters, so its count is read from the index alone
    index('bookings_age_idx').on(
      sql`(date_part('year', age(${t.tripDeparture}::timestamp, ${t.dateOfBirth}::timestamp))::int)`,
      t.tripDeparture,
      t.medicalConditions,
      t.dateOfBirth,
    ),
    index('bookings_name_trgm_idx').using(
      'gin',
      sql`(${t.firstName} || ' ' || ${t.lastName} || ' ' || coalesce(${t.preferredName}, '')) gin_trgm_ops`,
    ),
    index('bookings_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    index('bookings_ref_trgm_idx').using('gin', sql`${t.ref} gin_trgm_ops`),
    // the list's address and telephone searches, by the very expressions they search (list.ts)
    index('bookings_address_trgm_idx').using(
      'gin',
      sql`booking_address(${t.address1}, ${t.address2}, ${t.address3}, ${t.address4}, ${t.postCode}) gin_trgm_ops`,
    ),
    index('bookings_mobile_digits_trgm_idx').using(
      'gin',
      sql`regexp_replace(coalesce(${t.mobile}, ''), '\\D', '', 'g') gin_trgm_ops`,
    ),
  ],
);

export const bookingAddons = pgTable(
  'booking_addons',
  {
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    addonId: integer('addon_id')
      .notNull()
      .references(() => tripAddons.id, { onDelete: 'restrict' }),
    // the price agreed when it was added, so a later reprice never changes an old booking
    pricePence: integer('price_pence').notNull(),
    invoiced: boolean().notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.addonId] }),
    index('booking_addons_addon_idx').on(t.addonId),
    check('booking_addons_price_check', sql`${t.pricePence} >= 0`),
  ],
);

/** Each booking's answers to its trip's custom fields. */
export const bookingCustomFieldAnswers = pgTable(
  'booking_custom_field_answers',
  {
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    customFieldId: integer('custom_field_id')
      .notNull()
      .references(() => tripCustomFields.id, { onDelete: 'cascade' }),
    answer: text().notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.customFieldId] }),
    index('booking_answers_field_idx').on(t.customFieldId),
  ],
);

export const bookingNotes = pgTable(
  'booking_notes',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    // sanitised HTML
    noteText: text('note_text').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    ipAddress: text('ip_address'),
    // set once, when the note is written, by where it was written: a charity's user writing
    // through the portal. Never worked out later from the author's role, which may change.
    visibleToCharity: boolean('visible_to_charity').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('booking_notes_booking_idx').on(t.bookingId, t.createdAt.desc())],
);
