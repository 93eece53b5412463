import { and, eq, inArray } from 'drizzle-orm';
import {
  NOT_THIS_TRIPS_QUESTION,
  PASSPORT_PHOTO_MAX_BYTES,
  PASSPORT_PHOTO_REFUSED,
  type Answers,
  type TravellerForm,
} from '../../../contract/my.ts';
import type { Db } from '../../../db/client.ts';
import { bookingCustomFieldAnswers, bookings, tripCustomFields } from '../../../db/schema/index.ts';
import type { FileStore } from '../../../shared/storage/index.ts';
import { audit, describeChanges, type Changes } from '../../audit/audit.ts';
import { notFound, validationError } from '../../errors.ts';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { readUpload, type Accepted, type StoredUpload } from '../../uploads.ts';
import { bookingDiff } from './detail.ts';

/**
 * Saves a booking's traveller form, from the traveller's own page or from staff helping them: the
 * booking's own fields (a form that passes its contract is complete), its changes in the History
 * with the passport, insurance and medical ones masked, in one transaction. `mayChange` refuses a
 * save before anything is written (a trip that has left, for a traveller).
 */
export async function saveTravellerForm(
  db: Db,
  bookingId: number,
  form: TravellerForm,
  mayChange: (booking: typeof bookings.$inferSelect) => void = () => {},
): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
    if (!before) throw notFound('Booking not found');
    mayChange(before);
    const [after] = await tx
      .update(bookings)
      .set({
        title: form.title,
        firstName: form.first_name,
        lastName: form.last_name,
        dateOfBirth: form.date_of_birth,
        mobile: form.mobile,
        address1: form.address_1,
        address2: form.address_2,
        address3: form.address_3,
        address4: form.address_4,
        postCode: form.post_code,
        roomType: form.room_type,
        shareWith: form.share_with,
        passportNumber: form.passport_number,
        passportIssueDate: form.passport_issue,
        passportExpiryDate: form.passport_expiry,
        nationality: form.nationality,
        insuranceCompany: form.insurance_company,
        insurancePolicyNumber: form.insurance_policy_number,
        insuranceTelephone: form.insurance_telephone,
        nokName: form.nok_name,
        nokRelationship: form.nok_relationship,
        nokTelephone: form.nok_telephone,
        dietary: form.dietary,
        medicalConditions: form.medical_conditions,
        medication: form.medication,
        medicalDetail: form.medical_detail,
        formComplete: true,
        updatedAt: new Date(),
      })
      .where(eq(bookings.id, bookingId))
      .returning();
    const changes = bookingDiff(before, after!);
    await audit(tx, {
      action: 'booking.traveller_form',
      subject: { type: 'booking', id: bookingId },
      bookingId,
      tripId: after!.tripId,
      changes,
      summary: Object.keys(changes).length
        ? describeChanges(changes, `the traveller form of ${after!.ref}`)
        : `saved the traveller form of ${after!.ref} without changes`,
      details: { ref: after!.ref, form_complete: true },
    });
  });
}

type MayChange = (booking: typeof bookings.$inferSelect) => void;

/**
 * Saves a booking's answers to its trip's questions (its custom fields), by the traveller or by
 * staff for them: each question must be one of the booking's trip's; an empty answer is blank
 * again. The answers that changed are in the History by question, in one transaction.
 */
export async function saveAnswers(db: Db, bookingId: number, input: Answers, mayChange: MayChange = () => {}) {
  await db.transaction(async (tx) => {
    const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
    if (!booking) throw notFound('Booking not found');
    mayChange(booking);
    const fields = await tx
      .select({ id: tripCustomFields.id, label: tripCustomFields.label })
      .from(tripCustomFields)
      .where(eq(tripCustomFields.tripId, booking.tripId));
    const labels = new Map(fields.map((f) => [f.id, f.label]));
    const errors: Record<string, string[]> = {};
    input.answers.forEach((a, i) => {
      if (!labels.has(a.custom_field_id)) errors[`answers.${i}.custom_field_id`] = [NOT_THIS_TRIPS_QUESTION];
    });
    if (Object.keys(errors).length) throw validationError(errors);
    // the last answer given to a question is the one kept
    const given = new Map(input.answers.map((a) => [a.custom_field_id, a.value]));
    const before = given.size
      ? await tx
          .select({ id: bookingCustomFieldAnswers.customFieldId, answer: bookingCustomFieldAnswers.answer })
          .from(bookingCustomFieldAnswers)
          .where(
            and(
              eq(bookingCustomFieldAnswers.bookingId, bookingId),
              inArray(bookingCustomFieldAnswers.customFieldId, [...given.keys()]),
            ),
          )
      : [];
    const was = new Map(before.map((b) => [b.id, b.answer]));
    const changes: Changes = {};
    for (const [id, value] of given) {
      if ((was.get(id) ?? '') === value) continue;
      changes[labels.get(id)!] = [was.get(id) ?? null, value || null];
      await tx
        .insert(bookingCustomFieldAnswers)
        .values({ bookingId, customFieldId: id, answer: value, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [bookingCustomFieldAnswers.bookingId, bookingCustomFieldAnswers.customFieldId],
          set: { answer: value, updatedAt: new Date() },
        });
    }
    await audit(tx, {
      action: 'booking.answers',
      subject: { type: 'booking', id: bookingId },
      bookingId,
      tripId: booking.tripId,
      changes,
      summary: Object.keys(changes).length
        ? describeChanges(changes, `the trip's questions of ${booking.ref}`)
        : `saved the answers to the trip's questions of ${booking.ref} without changes`,
      details: { ref: booking.ref },
    });
  });
}

/**
 * A new photo page of the booking's passport, already stored (its bytes checked as JPG, PNG or
 * PDF): it replaces the old one once it is recorded, and waits for the office to check it unless
 * staff put it there themselves. The History says a photo was uploaded, never where it is kept.
 */
export async function savePassportImage(
  db: Db,
  files: FileStore,
  bookingId: number,
  upload: StoredUpload,
  by: 'traveller' | 'office',
  mayChange: MayChange = () => {},
): Promise<void> {
  let old: string | null = null;
  try {
    await db.transaction(async (tx) => {
      const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
      if (!booking) throw notFound('Booking not found');
      mayChange(booking);
      old = booking.passportImageFile;
      const now = new Date();
      await tx
        .update(bookings)
        .set({
          passportImageFile: upload.name,
          passportImageUploadedAt: now,
          passportImageCheckedAt: by === 'office' ? now : null,
          updatedAt: now,
        })
        .where(eq(bookings.id, bookingId));
      await audit(tx, {
        action: 'booking.passport_image',
        subject: { type: 'booking', id: bookingId },
        bookingId,
        tripId: booking.tripId,
        summary: `uploaded the passport photo page of ${booking.ref}${by === 'traveller' ? ' (to check)' : ''}`,
        details: { ref: booking.ref, bytes: upload.bytes, type: upload.mime, replaced: old !== null },
      });
    });
  } catch (error) {
    await files.remove('passports', upload.name).catch(() => undefined);
    throw error;
  }
  if (old) await files.remove('passports', old).catch(() => undefined);
}

/** Staff have looked at the traveller's passport photo: the board's "to check" goes. False when there is none to check. */
export async function markPassportImageChecked(db: Db, bookingId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ file: bookings.passportImageFile })
      .from(bookings)
      .where(eq(bookings.id, bookingId))
      .for('update');
    if (!found) throw notFound('Booking not found');
    // nothing to check: nothing changes
    if (!found.file) return false;
    const [booking] = await tx
      .update(bookings)
      .set({ passportImageCheckedAt: new Date() })
      .where(eq(bookings.id, bookingId))
      .returning({ ref: bookings.ref, tripId: bookings.tripId });
    await audit(tx, {
      action: 'booking.passport_image_checked',
      subject: { type: 'booking', id: bookingId },
      bookingId,
      tripId: booking!.tripId,
      summary: `checked the passport photo page of ${booking!.ref}`,
      details: { ref: booking!.ref },
    });
    return true;
  });
}

const PHOTO_TYPES: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };

/** A passport's photo page by what its bytes are, whatever it is called: a JPG or PNG (a phone's camera) or a PDF (a scan). */
export async function acceptPassportPhoto(head: Buffer): Promise<Accepted | null> {
  const type = await fileTypeFromBuffer(head);
  const ext = type ? PHOTO_TYPES[type.mime] : undefined;
  return ext ? { ext, mime: type!.mime } : null;
}

/** The photo page from a multipart request (field `file`), stored and checked by its content; a field error when there is none. */
export async function readPassportPhoto(request: FastifyRequest, files: FileStore): Promise<StoredUpload> {
  const upload = await readUpload(request, {
    fileField: 'file',
    label: 'passport photo',
    maxBytes: PASSPORT_PHOTO_MAX_BYTES,
    files,
    kind: 'passports',
    accept: acceptPassportPhoto,
    refused: PASSPORT_PHOTO_REFUSED,
  });
  if (!upload.file) throw validationError({ file: ['Choose a photo of your passport’s photo page.'] });
  return upload.file;
}

/** The stored photo page of a booking's passport, to show staff; not found when there is none. */
export async function passportImageOf(db: Db, files: FileStore, bookingId: number) {
  const [row] = await db.select({ file: bookings.passportImageFile }).from(bookings).where(eq(bookings.id, bookingId));
  if (!row?.file) throw notFound('There is no passport photo for this booking.');
  const ext = row.file.split('.').pop()!.toLowerCase();
  const mime = Object.entries(PHOTO_TYPES).find(([, e]) => e === ext)?.[0] ?? 'application/octet-stream';
  const stream = await files.open('passports', row.file);
  if (!stream) throw notFound('There is no passport photo for this booking.');
  return { stream, mime, ext };
}
