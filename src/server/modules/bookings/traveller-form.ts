import { eq } from 'drizzle-orm';
import type { TravellerForm } from '../../../contract/my.ts';
import type { Db } from '../../../db/client.ts';
import { bookings } from '../../../db/schema/index.ts';
import { audit, describeChanges } from '../../audit/audit.ts';
import { notFound } from '../../errors.ts';
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
