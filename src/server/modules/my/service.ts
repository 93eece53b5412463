import { createHash, randomBytes } from 'node:crypto';
import { stillPayable } from '../../../contract/invoice-constants.ts';
import { and, asc, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { formatPounds, penceToPounds } from '../../../contract/money.ts';
import { ScheduleService } from '../schedules/service.ts';
import { loadInvoices } from '../invoices/load.ts';
import { invoicePdf } from '../invoices/pdf.ts';
import { ROLES } from '../../../contract/constants.ts';
import { PASSPORT_MONTHS_DEFAULT } from '../../../contract/country-constants.ts';
import { ukToday } from '../../../contract/dates.ts';
import {
  SIGN_IN_LINK_LIMITED,
  SIGN_IN_LINK_MINUTES,
  SIGN_IN_LINK_SPENT,
  SIGN_IN_LINK_WINDOW_MINUTES,
  SIGN_IN_LINKS_PER_ADDRESS,
  SIGN_IN_LINKS_PER_EMAIL,
  type MyBooking,
  type MyBookingDetail,
  type MyBookings,
  type MyToDo,
  NO_CONSENT_ASKED,
  TRIP_DEPARTED,
  type TravellerForm,
  type Answers,
} from '../../../contract/my.ts';
import type { ReadinessCheck } from '../../../contract/readiness-constants.ts';
import { DEFAULT_CONSENT_TEXT, type CheckResult } from '../../../contract/readiness.ts';
import { queryRows, type Db, type Tx } from '../../../db/client.ts';
import { countHit } from '../../rate-limit-store.ts';
import {
  bookings,
  countries,
  invoices,
  sessions,
  signInLinks,
  transactions,
  trips,
  users,
} from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import type { Operator } from '../../common/operator.ts';
import { payLinkOf } from '../../common/pay-links.ts';
import { readPortalLink } from '../../common/portal-links.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';
import { renderTemplate, templateOf } from '../../mail/templates.ts';
import { mailRefusal } from '../../mail/transport.ts';
import type { FastifyRequest } from 'fastify';
import type { FileStore } from '../../../shared/storage/index.ts';
import { readPassportPhoto, saveAnswers, savePassportImage, saveTravellerForm } from '../bookings/traveller-form.ts';
import { InvoiceService } from '../invoices/service.ts';
import { FundraisingService, type FundraisingDefaults } from '../fundraising/service.ts';
import type { AskChangeValues, MyChanges } from '../../../contract/changes.ts';
import type { ChangesService } from '../changes/service.ts';
import { DocumentService } from '../documents/service.ts';
import { NO_PASSPORT_IMAGE, underAgeOnDeparture } from '../readiness/rules.ts';
import { emailOffice } from '../../mail/office.ts';
import { ReadinessService } from '../readiness/service.ts';

export type MyDeps = {
  db: Db;
  files: FileStore;
  /** the server's secret (SESSION_SECRET): the documents' signed links are made with a key from it */
  secret: string;
  mailer: Mailer;
  operator: Operator;
  clock: Pick<Clock, 'now'>;
  fundraisingDefaults: FundraisingDefaults;
  /** the address travellers reach Tripdesk at (PUBLIC_URL) */
  publicUrl: string;
  /** the fee scale's preview and the office's queue of asks to cancel or change */
  changes: ChangesService;
  /** where the office is told of what needs it at once (a parent's consent withdrawn) */
  officeEmail?: string | undefined;
};

const LONG_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const longDay = (iso: string) => LONG_DAY.format(new Date(`${iso}T00:00:00Z`));

/** The destination's rule in words, as the traveller reads it before giving their passport. */
function passportRule(country: string | null, months: number, returnDate: string): string {
  const where = country ?? 'The destination';
  if (months <= 0) return `${where} asks for a passport valid until your return on ${longDay(returnDate)}.`;
  return `${where} asks for a passport valid ${months === 1 ? '1 month' : `${months} months`} after your return on ${longDay(returnDate)}.`;
}

const HOW: Record<string, string> = { STRIPE: 'Card', BACS: 'Bank transfer', CHEQUE: 'Cheque', OTHER: 'Other' };

/** How long after it was made a portal link may still ask for a fresh one (a year of chasers and reminders). */
const RENEWABLE_DAYS = 365;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Whether the passport the traveller gave passes the destination's rule, in their words: the
 * readiness board's own passport check (one rule), said to them. Null when none is given or needed.
 */
function passportAnswer(
  row: { requirePassport: boolean; passportNumber: string | null; passportExpiryDate: string | null },
  check: CheckResult | null,
): { ok: boolean; message: string } | null {
  if (!row.requirePassport || !row.passportNumber || !row.passportExpiryDate || !check) return null;
  if (check.state === 'green' || check.reason === NO_PASSPORT_IMAGE)
    return { ok: true, message: `Your passport passes: it is valid until ${longDay(row.passportExpiryDate)}.` };
  return { ok: false, message: `Your passport does not pass. ${check.reason}` };
}

/** The checks a traveller answers for, in their words; the room and the documents are the office's. */
const TO_DO: Partial<Record<ReadinessCheck, string>> = {
  passport: 'Your passport details',
  forms: 'Your booking form',
  money: 'Your payments',
  medical: 'Your medical details',
  next_of_kin: 'Your next of kin',
  fundraising: 'Your fundraising',
  consent: 'A parent’s consent',
};

/** A booking and its trip as a consent reads them, the booking locked for the change. */
async function lockedForConsent(tx: Tx, bookingId: number) {
  const [b] = await tx
    .select({
      status: bookings.status,
      ref: bookings.ref,
      tripId: bookings.tripId,
      type: trips.type,
      firstName: bookings.firstName,
      lastName: bookings.lastName,
      tripName: trips.name,
      departure: trips.departureDate,
      givenAt: bookings.consentGivenAt,
      withdrawnAt: bookings.consentWithdrawnAt,
    })
    .from(bookings)
    .innerJoin(trips, eq(trips.id, bookings.tripId))
    .where(eq(bookings.id, bookingId))
    .for('update', { of: bookings });
  if (!b) throw notFound('Booking not found');
  return b;
}

/** A traveller's own pages: signing in by an emailed link, and their bookings as they see them. */
export class MyService {
  private readonly readiness: ReadinessService;
  private readonly invoices: InvoiceService;
  private readonly schedules: ScheduleService;
  private readonly documents: DocumentService;
  private readonly fundraising: FundraisingService;

  constructor(private readonly d: MyDeps) {
    this.readiness = new ReadinessService(d.db, d.fundraisingDefaults, d.clock);
    this.invoices = new InvoiceService(d.db, d.operator, d.mailer);
    this.schedules = new ScheduleService(d.db, d.clock);
    this.documents = new DocumentService(d.db, d.files, d.secret);
    this.fundraising = new FundraisingService(d.db, d.fundraisingDefaults, d.clock);
  }

  /**
   * Emails a single-use sign-in link to the End User with this address, if there is one. Counted
   * per address and per email whether or not it has an account, so neither the answer nor the
   * limit tells who has one.
   */
  async requestLink(email: string, ip: string, bookingId: number | null = null): Promise<void> {
    const address = email.trim().toLowerCase();
    const window = SIGN_IN_LINK_WINDOW_MINUTES * 60;
    const [byEmail, byAddress] = [
      await this.hit(`sign-in-link email ${address}`, window),
      await this.hit(`sign-in-link ip ${ip}`, window),
    ];
    if (byEmail > SIGN_IN_LINKS_PER_EMAIL || byAddress > SIGN_IN_LINKS_PER_ADDRESS) {
      throw new HttpError(429, SIGN_IN_LINK_LIMITED, undefined, { 'retry-after': String(window) });
    }
    const [user] = await this.d.db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${address}`, eq(users.userRoleId, ROLES.endUser)));
    if (!user) return;
    // sent after the answer, so that its time says nothing of whether the address has an account
    void this.sendLink(user, bookingId).catch((error: unknown) => {
      const { code, responseCode } = mailRefusal(error);
      console.error(
        `A sign-in link could not be sent (${code ?? 'no code'}${responseCode ? `, ${responseCode}` : ''}).`,
      );
    });
  }

  /** Staff's "Email a sign-in link" on a booking: to its traveller, opening that booking. Null when there is no such booking. */
  async sendLinkForBooking(bookingId: number): Promise<string | null> {
    const [row] = await this.d.db
      .select({
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        roleId: users.userRoleId,
      })
      .from(bookings)
      .innerJoin(users, eq(users.id, bookings.userId))
      .where(eq(bookings.id, bookingId));
    if (!row) return null;
    if (row.roleId !== ROLES.endUser) {
      throw validationError({
        booking: ["This booking's traveller account is not a traveller's (End User): it has no pages of its own."],
      });
    }
    try {
      await this.sendLink(row, bookingId, 'office');
    } catch (error) {
      throw new HttpError(502, `The sign-in link could not be sent: ${mailRefusal(error).why}`);
    }
    return row.email;
  }

  private async sendLink(
    user: { id: number; firstName: string; lastName: string; email: string },
    bookingId: number | null,
    askedBy: 'traveller' | 'office' = 'traveller',
  ) {
    const token = randomBytes(32).toString('base64url');
    const now = nowOf(this.d.clock);
    await this.d.db.insert(signInLinks).values({
      tokenHash: digest(token),
      userId: user.id,
      bookingId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SIGN_IN_LINK_MINUTES * 60_000),
    });
    const template = await templateOf(this.d.db, 'sign_in_link');
    const mail = await renderTemplate(template, {
      traveller: { title: null, first_name: user.firstName, last_name: user.lastName, preferred_name: null },
      sign_in: { url: `${this.d.publicUrl}/my/sign-in/${token}`, minutes: SIGN_IN_LINK_MINUTES },
      operator: { name: this.d.operator.name },
    });
    await this.d.mailer.send({ to: { name: `${user.firstName} ${user.lastName}`, address: user.email }, ...mail });
    // the link is a credential: the History says it was sent, never what it was
    await audit(this.d.db, {
      action: 'user.sign_in_link_sent',
      subject: { type: 'user', id: user.id },
      bookingId,
      summary: `emailed a sign-in link to ${user.email}`,
      // asked for on the sign-in page: no one is signed in, the system sends it; from a booking page, the staff member
      ...(askedBy === 'traveller'
        ? { actor: { type: 'system', userId: null, name: 'System', tokenId: null, clientId: null } }
        : {}),
    });
  }

  /**
   * Spends a link: the End User it was for, and the page it opens at. A spent or stale link signs
   * no one in — unless the traveller it was for is already signed in here, who is simply taken to
   * its page (a link clicked twice is no dead end). A portal link (from a chaser, reminder,
   * invoice or documents email) is spent by recording its digest, whose uniqueness refuses a
   * second use.
   */
  async spendLink(token: string, signedInAs: number | null = null): Promise<{ userId: number; redirect: string }> {
    const now = nowOf(this.d.clock);
    const link = await this.claim(token, signedInAs, now);
    if (!link) throw new HttpError(410, SIGN_IN_LINK_SPENT);
    const redirect = link.bookingId ? `/my/bookings/${link.bookingId}` : '/my';
    if (link.already) return { userId: link.userId, redirect };
    await audit(this.d.db, {
      action: 'user.signed_in',
      subject: { type: 'user', id: link.userId },
      bookingId: link.bookingId,
      summary: `signed in to their own pages with ${link.portal ? 'the link in an email' : 'an emailed sign-in link'}`,
      actor: { type: 'user', userId: link.userId, name: link.email, tokenId: null, clientId: null },
    });
    return { userId: link.userId, redirect };
  }

  private async claim(token: string, signedInAs: number | null, now: Date) {
    const owner = await this.ownerOf(token);
    if (!owner) return null;
    const [user] = await this.d.db
      .select({ id: users.id, email: users.email, sessionsEndedAt: users.sessionsEndedAt })
      .from(users)
      .where(and(eq(users.id, owner.userId), eq(users.userRoleId, ROLES.endUser)));
    if (!user) return null;
    const found = { userId: user.id, email: user.email, bookingId: owner.bookingId, portal: owner.portal };
    if (signedInAs === user.id) return { ...found, already: true };
    if (owner.expiresAt <= now || (user.sessionsEndedAt && owner.createdAt < user.sessionsEndedAt)) return null;
    const spent = owner.portal
      ? await this.d.db
          .insert(signInLinks)
          .values({
            tokenHash: digest(token),
            userId: user.id,
            bookingId: owner.bookingId,
            createdAt: owner.createdAt,
            expiresAt: owner.expiresAt,
            usedAt: now,
          })
          .onConflictDoNothing()
          .returning({ id: signInLinks.id })
      : await this.d.db
          .update(signInLinks)
          .set({ usedAt: now })
          .where(
            and(eq(signInLinks.tokenHash, digest(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)),
          )
          .returning({ id: signInLinks.id });
    return spent.length ? { ...found, already: false } : null;
  }

  /**
   * Whose a link is, spent or not, expired or not: a sign-in email's (while its row is kept, a
   * day past its expiry) or a portal link (its signature, for RENEWABLE_DAYS after it was made,
   * and only while the booking is still that traveller's).
   */
  private async ownerOf(token: string) {
    if (token.includes('.')) {
      const reading = this.d.operator.portalLinks ? readPortalLink(token, this.d.operator.portalLinks.secret) : null;
      const now = nowOf(this.d.clock);
      if (!reading || reading.issuedAt.getTime() > now.getTime() + 300_000) return null;
      if (now.getTime() - reading.issuedAt.getTime() > RENEWABLE_DAYS * 86_400_000) return null;
      // the email went to the booking's address: it signs in only while that is the account's own
      // (staff may have changed one and not the other), and only while the booking is theirs
      const [booking] = await this.d.db
        .select({ id: bookings.id })
        .from(bookings)
        .innerJoin(users, eq(users.id, bookings.userId))
        .where(
          and(
            eq(bookings.id, reading.bookingId),
            eq(bookings.userId, reading.userId),
            sql`lower(${bookings.email}) = lower(${users.email})`,
          ),
        );
      if (!booking) return null;
      return {
        userId: reading.userId,
        bookingId: reading.bookingId,
        createdAt: reading.issuedAt,
        expiresAt: reading.expiresAt,
        portal: true,
      };
    }
    const [row] = await this.d.db
      .select({
        userId: signInLinks.userId,
        bookingId: signInLinks.bookingId,
        createdAt: signInLinks.createdAt,
        expiresAt: signInLinks.expiresAt,
      })
      .from(signInLinks)
      .where(eq(signInLinks.tokenHash, digest(token)));
    return row ? { ...row, portal: false } : null;
  }

  /**
   * "Email me a new link" from a link that has expired or been used: a fresh one goes to the
   * address of the traveller the old one was for, never to whoever holds the old one, so a
   * forwarded email gives nobody else a way in. The answer is the same whatever the link was.
   */
  async renewLink(token: string, ip: string): Promise<void> {
    const window = SIGN_IN_LINK_WINDOW_MINUTES * 60;
    if ((await this.hit(`sign-in-link ip ${ip}`, window)) > SIGN_IN_LINKS_PER_ADDRESS) {
      throw new HttpError(429, SIGN_IN_LINK_LIMITED, undefined, { 'retry-after': String(window) });
    }
    const owner = await this.ownerOf(token);
    if (!owner) return;
    const [user] = await this.d.db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(and(eq(users.id, owner.userId), eq(users.userRoleId, ROLES.endUser)));
    if (!user) return;
    // counted with the links asked for by email, so neither way sends more than the limit
    if ((await this.hit(`sign-in-link email ${user.email.toLowerCase()}`, window)) > SIGN_IN_LINKS_PER_EMAIL) return;
    void this.sendLink(user, owner.bookingId).catch((error: unknown) => {
      const { code, responseCode } = mailRefusal(error);
      console.error(
        `A sign-in link could not be sent (${code ?? 'no code'}${responseCode ? `, ${responseCode}` : ''}).`,
      );
    });
  }

  /**
   * Signs a traveller out everywhere: every session ends, and every emailed link made before now
   * (sign-in emails and the links in chasers and reminders alike) stops working. By the traveller
   * from their pages, or by staff from the traveller's user page. False when there is no such End User.
   */
  async endSessions(userId: number, by: 'traveller' | 'office'): Promise<boolean> {
    const now = nowOf(this.d.clock);
    return this.d.db.transaction(async (tx) => {
      const [user] = await tx
        .update(users)
        .set({ sessionsEndedAt: now })
        .where(and(eq(users.id, userId), eq(users.userRoleId, ROLES.endUser)))
        .returning({ id: users.id, email: users.email });
      if (!user) return false;
      const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
      await tx.delete(signInLinks).where(and(eq(signInLinks.userId, userId), isNull(signInLinks.usedAt)));
      await audit(tx, {
        action: 'user.sessions_ended',
        subject: { type: 'user', id: userId },
        summary:
          by === 'traveller'
            ? `signed out everywhere (${ended.length} session${ended.length === 1 ? '' : 's'} ended, emailed links before now refused)`
            : `ended every session of ${user.email} (${ended.length}) and refused the emailed links made before now`,
        details: { sessions: ended.length },
      });
      return true;
    });
  }

  /** One hit on a counter of the rate_limits table: the hits in its window so far. */
  private async hit(key: string, windowSeconds: number): Promise<number> {
    return (await countHit(this.d.db, key, windowSeconds)).hits;
  }

  async bookings(userId: number): Promise<MyBookings> {
    const [user] = await this.d.db
      .select({ first_name: users.firstName, last_name: users.lastName, email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) throw notFound('Traveller not found');
    const rows = await this.rows(userId);
    return {
      traveller: user,
      bookings: await Promise.all(rows.map(async (row) => (await this.summary(row)).booking)),
    };
  }

  async booking(userId: number, bookingId: number): Promise<MyBookingDetail> {
    const [row] = await this.rows(userId, bookingId);
    // another traveller's booking is not found, as one that does not exist
    if (!row) throw notFound('Booking not found');
    const { booking: summary, checks } = await this.summary(row);
    const now = nowOf(this.d.clock);
    const payLinks = this.d.operator.payLinks;
    // a school group's share is the school's to pay, on its group invoice: not the parents' (issue 37)
    const own = (await loadInvoices(this.d.db, and(eq(invoices.bookingId, bookingId), isNull(invoices.groupId))!))
      .map((l) => l.reply)
      .map((i) => ({
        id: i.id,
        ref: i.invoice_ref,
        type: i.type,
        description: i.description,
        total: i.total,
        outstanding: i.outstanding,
        due_date: i.due_date,
        status: i.status,
        pay_url:
          payLinks && i.outstanding > 0 && stillPayable(row.status, i.type) ? payLinkOf(i.id, payLinks, now).url : null,
        pdf_url: `/api/my/bookings/${bookingId}/invoices/${i.id}/pdf`,
      }));
    const owing = own.some((i) => i.outstanding > 0 && stillPayable(row.status, i.type));
    return {
      ...summary,
      invoices: own,
      schedule: await this.schedule(bookingId),
      payments: await this.payments(bookingId),
      bank_transfer:
        !payLinks && this.d.operator.bankDetails && owing
          ? { details: this.d.operator.bankDetails, reference: row.ref }
          : null,
      form: {
        title: row.title,
        first_name: row.firstName,
        last_name: row.lastName,
        date_of_birth: row.dateOfBirth,
        mobile: row.mobile,
        address_1: row.address1,
        address_2: row.address2,
        address_3: row.address3,
        address_4: row.address4,
        post_code: row.postCode,
        room_type: row.roomType,
        share_with: row.shareWith,
        passport_number: row.passportNumber,
        passport_issue: row.passportIssueDate,
        passport_expiry: row.passportExpiryDate,
        nationality: row.nationality,
        insurance_company: row.insuranceCompany,
        insurance_policy_number: row.insurancePolicyNumber,
        insurance_telephone: row.insuranceTelephone,
        nok_name: row.nokName,
        nok_relationship: row.nokRelationship,
        nok_telephone: row.nokTelephone,
        dietary: row.dietary,
        medical_conditions: row.medicalConditions,
        medication: row.medication,
        medical_detail: row.medicalDetail,
      },
      form_complete: row.formComplete,
      passport_rule: row.requirePassport
        ? passportRule(row.country, row.passportMonths ?? PASSPORT_MONTHS_DEFAULT, row.returnDate)
        : null,
      passport_check: passportAnswer(row, checks?.passport ?? null),
      passport_photo: {
        uploaded_at: row.passportImageFile ? (row.passportImageUploadedAt?.toISOString() ?? null) : null,
        checked: row.passportImageFile !== null && row.passportImageCheckedAt !== null,
      },
      personal_data_erased: row.personalDataErasedAt !== null,
      documents: row.status === 'cancelled' ? [] : await this.documentsOf(row.tripId),
      fundraising: await this.fundraisingOf(bookingId),
      questions: await this.questions(bookingId),
      consent:
        row.tripType === 'school'
          ? {
              needed: underAgeOnDeparture(row.dateOfBirth, row.departure),
              text: row.consentText?.trim() || DEFAULT_CONSENT_TEXT,
              given_by: row.consentGivenAt ? row.consentName : null,
              given_at: row.consentGivenAt?.toISOString() ?? null,
              withdrawn_at: row.consentWithdrawnAt?.toISOString() ?? null,
            }
          : null,
    };
  }

  /**
   * A parent's consent for their child on a school trip (issue 37): agreed by typing their full
   * name; the name, the time and the address it came from are kept on the booking and in its
   * History. Given again after a withdrawal, it stands again.
   */
  async giveConsent(userId: number, bookingId: number, fullName: string, ip: string): Promise<MyBookingDetail> {
    const mayChange = await this.mayChange(userId, bookingId);
    await this.d.db.transaction(async (tx) => {
      const b = await lockedForConsent(tx, bookingId);
      mayChange(b);
      if (b.type !== 'school') throw new HttpError(409, NO_CONSENT_ASKED);
      const at = nowOf(this.d.clock);
      await tx
        .update(bookings)
        .set({ consentName: fullName, consentGivenAt: at, consentIp: ip, consentWithdrawnAt: null })
        .where(eq(bookings.id, bookingId));
      await audit(tx, {
        action: 'booking.consent_given',
        subject: { type: 'booking', id: bookingId },
        bookingId,
        tripId: b.tripId,
        summary: `gave a parent's consent for ${b.ref}, signed “${fullName}”`,
        details: { full_name: fullName, at: at.toISOString(), ip_address: ip },
      });
    });
    return this.booking(userId, bookingId);
  }

  /** A parent takes their consent back: the pupil is not ready again, and the office is told at once. */
  async withdrawConsent(userId: number, bookingId: number): Promise<MyBookingDetail> {
    const mayChange = await this.mayChange(userId, bookingId);
    const withdrawn = await this.d.db.transaction(async (tx) => {
      const b = await lockedForConsent(tx, bookingId);
      mayChange(b);
      if (!b.givenAt || b.withdrawnAt) throw new HttpError(409, 'There is no consent to withdraw.');
      await tx
        .update(bookings)
        .set({ consentWithdrawnAt: nowOf(this.d.clock) })
        .where(eq(bookings.id, bookingId));
      await audit(tx, {
        action: 'booking.consent_withdrawn',
        subject: { type: 'booking', id: bookingId },
        bookingId,
        tripId: b.tripId,
        summary: `withdrew the parent's consent for ${b.ref}`,
      });
      return b;
    });
    await emailOffice(this.d.db, this.d.mailer, this.d.officeEmail, {
      subject: `Consent withdrawn: ${withdrawn.firstName} ${withdrawn.lastName}, ${withdrawn.tripName}`,
      text: `A parent has withdrawn their consent for ${withdrawn.firstName} ${withdrawn.lastName} (booking ${withdrawn.ref}) on ${withdrawn.tripName}, departing on ${longDay(withdrawn.departure)}. The pupil is not ready to travel until a parent consents again.\n\nTripdesk`,
      about: `that a parent withdrew their consent for ${withdrawn.ref}`,
      event: { subject: { type: 'booking', id: bookingId }, bookingId, tripId: withdrawn.tripId },
    });
    return this.booking(userId, bookingId);
  }

  /** The trip's documents that have a file, each through its signed link (none when the trip has been deleted). */
  private async documentsOf(tripId: number): Promise<MyBookingDetail['documents']> {
    const list = await this.documents.list(tripId).catch((error: unknown) => {
      if (error instanceof HttpError && error.statusCode === 404) return [];
      throw error;
    });
    return list.flatMap((d) => (d.signed_url ? [{ name: d.name, size: d.size, url: d.signed_url }] : []));
  }

  private async fundraisingOf(bookingId: number): Promise<MyBookingDetail['fundraising']> {
    const f = await this.fundraising.forBooking(bookingId);
    if (!f.fundraises) return null;
    const dated = (m: { percent: number; amount: number; due: string }) => ({
      percent: m.percent,
      amount: m.amount,
      due: m.due,
    });
    return {
      charity: f.charity?.name ?? null,
      target: f.target,
      raised: f.raised,
      state: f.state,
      shortfall: f.shortfall,
      page_url: f.page_url,
      milestones: f.milestones.map(dated),
      next: f.next ? dated(f.next) : null,
    };
  }

  /**
   * "Update my total": the traveller's fundraising page now shows this much. What it adds to the
   * total we know is recorded as a page-total entry by the traveller (staff and the charity see it);
   * a total that is not more than we know is refused, with what we know.
   */
  async updateFundraisingTotal(userId: number, bookingId: number, totalPence: number): Promise<MyBookingDetail> {
    const mayChange = await this.mayChange(userId, bookingId);
    const f = await this.fundraising.forBooking(bookingId);
    if (!f.fundraises) throw validationError({ total: ['This booking does not fundraise.'] });
    const raisedPence = Math.round(f.raised * 100);
    if (totalPence <= raisedPence)
      throw validationError({
        total: [
          `We already have ${formatPounds(f.raised)} raised: give the total your page shows now, if it is more. If it is less, reply to any of our emails.`,
        ],
      });
    await this.fundraising.addEntry(
      bookingId,
      {
        amount: totalPence - raisedPence,
        date: ukToday(nowOf(this.d.clock)),
        source: 'page_total',
        note: `The traveller's page total is now ${formatPounds(totalPence / 100)}.`,
      },
      userId,
      async (tx) => {
        // under the booking's lock: a second tap (or tab) meanwhile must not add the difference twice
        const [b] = await tx
          .select({ status: bookings.status })
          .from(bookings)
          .where(eq(bookings.id, bookingId))
          .for('update');
        if (b) mayChange(b);
        const [now] = await queryRows<{ pence: string | number }>(
          tx,
          sql`select coalesce(sum(amount_pence), 0) as pence from fundraising_entries where booking_id = ${bookingId} and struck_at is null`,
        );
        if (Number(now!.pence) !== raisedPence)
          throw new HttpError(409, 'Your total has just changed: reload the page and try again.');
      },
    );
    return this.booking(userId, bookingId);
  }

  /** The booking's instalments, in the traveller's words: paid, due, overdue or waived. */
  private async schedule(bookingId: number): Promise<MyBookingDetail['schedule']> {
    const { rows } = await this.schedules.forBooking(bookingId);
    return rows.map((r) => ({
      label: r.label,
      due_date: r.due_date,
      amount: r.amount,
      outstanding: r.state === 'paid' || r.state === 'waived' ? 0 : r.outstanding,
      state: r.state === 'paid' || r.state === 'overdue' || r.state === 'waived' ? r.state : 'due',
    }));
  }

  /** The money received on the booking (and any refunded), newest first; struck-out entries are not theirs to see. */
  private async payments(bookingId: number): Promise<MyBookingDetail['payments']> {
    const rows = await this.d.db
      .select({
        date: transactions.date,
        pence: transactions.amountPence,
        type: transactions.type,
        processor: transactions.processor,
        ref: invoices.invoiceRef,
      })
      .from(transactions)
      .innerJoin(invoices, eq(invoices.id, transactions.invoiceId))
      .where(and(eq(transactions.bookingId, bookingId), isNull(transactions.deletedAt), isNull(invoices.groupId)))
      .orderBy(desc(transactions.date), desc(transactions.id));
    return rows.map((r) => ({
      date: r.date,
      amount: penceToPounds(r.pence),
      type: r.type as 'payment' | 'refund',
      how: HOW[r.processor] ?? 'Other',
      invoice_ref: r.ref,
    }));
  }

  /** One of the traveller's invoices as a PDF; another's, or one of another booking, is not found. */
  async invoicePdf(userId: number, bookingId: number, invoiceId: number): Promise<{ pdf: Buffer; ref: string }> {
    const [row] = await this.rows(userId, bookingId);
    if (!row) throw notFound('Invoice not found.');
    const doc = await this.invoices.document(invoiceId).catch(() => null);
    const [own] = await this.d.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.id, invoiceId), isNull(invoices.groupId)));
    if (!doc || !own || doc.booking.id !== bookingId) throw notFound('Invoice not found.');
    return { pdf: await invoicePdf(doc), ref: doc.invoice.invoice_ref };
  }

  private async questions(bookingId: number) {
    return queryRows<{ id: number; label: string; note: string | null; answer: string }>(
      this.d.db,
      sql`select f.id, f.label, f.note, coalesce(a.answer, '') as answer
        from bookings b join trip_custom_fields f on f.trip_id = b.trip_id
        left join booking_custom_field_answers a on a.booking_id = b.id and a.custom_field_id = f.id
        where b.id = ${bookingId} order by f.sort_order, f.id`,
    );
  }

  /** The traveller's own form for one of their bookings; refused once the trip has left or the booking is cancelled. */
  async saveDetails(userId: number, bookingId: number, form: TravellerForm): Promise<MyBookingDetail> {
    await saveTravellerForm(this.d.db, bookingId, form, await this.mayChange(userId, bookingId));
    return this.booking(userId, bookingId);
  }

  /** The traveller's answers to their trip's questions. */
  async saveAnswers(userId: number, bookingId: number, answers: Answers): Promise<MyBookingDetail> {
    await saveAnswers(this.d.db, bookingId, answers, await this.mayChange(userId, bookingId));
    return this.booking(userId, bookingId);
  }

  /** The passport's photo page from the traveller's phone: kept, and "to check" for the office. */
  async savePassportPhoto(userId: number, bookingId: number, request: FastifyRequest): Promise<MyBookingDetail> {
    const mayChange = await this.mayChange(userId, bookingId);
    const file = await readPassportPhoto(request, this.d.files);
    await savePassportImage(this.d.db, this.d.files, bookingId, file, 'traveller', mayChange);
    return this.booking(userId, bookingId);
  }

  /** What cancelling would cost today, and the traveller's asks to cancel or change. */
  async changes(userId: number, bookingId: number): Promise<MyChanges> {
    const [row] = await this.rows(userId, bookingId);
    if (!row) throw notFound('Booking not found');
    const mayAsk = row.status !== 'cancelled' && row.departure > ukToday(nowOf(this.d.clock));
    return this.d.changes.forTraveller(bookingId, mayAsk);
  }

  /** Asks the office to cancel or to change the booking: nothing is done without staff. */
  async askChange(userId: number, bookingId: number, v: AskChangeValues): Promise<MyChanges> {
    await this.mayChange(userId, bookingId);
    await this.d.changes.requests.ask(bookingId, v, userId);
    return this.changes(userId, bookingId);
  }

  /** Another traveller's booking is not found; a trip that has left, or a cancelled booking, changes no more (checked again in the write's transaction). */
  private async mayChange(userId: number, bookingId: number) {
    const [row] = await this.rows(userId, bookingId);
    if (!row) throw notFound('Booking not found');
    const today = ukToday(nowOf(this.d.clock));
    const check = (booking: { status: string }) => {
      if (row.departure <= today) throw new HttpError(409, TRIP_DEPARTED);
      if (booking.status === 'cancelled')
        throw new HttpError(409, 'This booking is cancelled: its details can no longer be changed here.');
    };
    check(row);
    return check;
  }

  private rows(userId: number, bookingId?: number) {
    return this.d.db
      .select({
        id: bookings.id,
        ref: bookings.ref,
        status: bookings.status,
        title: bookings.title,
        firstName: bookings.firstName,
        lastName: bookings.lastName,
        dateOfBirth: bookings.dateOfBirth,
        mobile: bookings.mobile,
        address1: bookings.address1,
        address2: bookings.address2,
        address3: bookings.address3,
        address4: bookings.address4,
        postCode: bookings.postCode,
        roomType: bookings.roomType,
        shareWith: bookings.shareWith,
        passportNumber: bookings.passportNumber,
        passportIssueDate: bookings.passportIssueDate,
        passportExpiryDate: bookings.passportExpiryDate,
        passportImageFile: bookings.passportImageFile,
        passportImageUploadedAt: bookings.passportImageUploadedAt,
        passportImageCheckedAt: bookings.passportImageCheckedAt,
        nationality: bookings.nationality,
        personalDataErasedAt: bookings.personalDataErasedAt,
        insuranceCompany: bookings.insuranceCompany,
        insurancePolicyNumber: bookings.insurancePolicyNumber,
        insuranceTelephone: bookings.insuranceTelephone,
        nokName: bookings.nokName,
        nokRelationship: bookings.nokRelationship,
        nokTelephone: bookings.nokTelephone,
        dietary: bookings.dietary,
        medicalConditions: bookings.medicalConditions,
        medication: bookings.medication,
        medicalDetail: bookings.medicalDetail,
        formComplete: bookings.formComplete,
        consentName: bookings.consentName,
        consentGivenAt: bookings.consentGivenAt,
        consentWithdrawnAt: bookings.consentWithdrawnAt,
        tripType: trips.type,
        consentText: trips.consentText,
        requirePassport: trips.requirePassport,
        passportMonths: countries.passportMonths,
        tripName: trips.name,
        tripId: trips.id,
        departure: trips.departureDate,
        returnDate: trips.returnDate,
        country: countries.name,
      })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .leftJoin(countries, eq(countries.id, trips.countryId))
      .where(and(eq(bookings.userId, userId), bookingId === undefined ? undefined : eq(bookings.id, bookingId)))
      .orderBy(asc(trips.departureDate), asc(bookings.id));
  }

  private async summary(
    row: Awaited<ReturnType<MyService['rows']>>[number],
  ): Promise<{ booking: MyBooking; checks: Record<ReadinessCheck, CheckResult> | null }> {
    const today = ukToday(nowOf(this.d.clock));
    const departed = row.departure <= today;
    let toDo: MyToDo[] = [];
    let checks: Record<ReadinessCheck, CheckResult> | null = null;
    if (row.status !== 'cancelled' && !departed) {
      const { row: readiness } = await this.readiness.ofBooking(row.id);
      checks = readiness.checks;
      toDo = Object.entries(readiness.checks).flatMap(([check, result]) => {
        const label = TO_DO[check as ReadinessCheck];
        if (!label || result.state === 'green') return [];
        return [{ check: check as MyToDo['check'], label, detail: result.reason, state: result.state }];
      });
    }
    return {
      booking: {
        id: row.id,
        ref: row.ref,
        status: row.status as MyBooking['status'],
        trip: { name: row.tripName, departure: row.departure, return: row.returnDate, country: row.country },
        departed,
        to_do: toDo,
      },
      checks,
    };
  }
}

/** Sign-in links expired over a day ago are of no further use: removed by the hourly housekeeping. */
export async function purgeSignInLinks(db: Db, now = new Date()): Promise<void> {
  await db.delete(signInLinks).where(lt(signInLinks.expiresAt, new Date(now.getTime() - 86_400_000)));
}
