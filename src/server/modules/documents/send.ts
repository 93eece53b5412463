import path from 'node:path';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { ChaserResult } from '../../../contract/chasers.ts';
import type { Db } from '../../../db/client.ts';
import type { FileStore } from '../../../shared/storage/index.ts';
import { bookings, tripDocuments, trips } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import { portalUrlOf, withoutSignInLinks } from '../../common/portal-links.ts';
import { HttpError } from '../../errors.ts';
import { mailRefusal, type Mailer, type OutgoingMail } from '../../mail/transport.ts';
import { emailDate, renderTemplate, type TemplateContext } from '../../mail/templates.ts';
import type { Operator } from '../../common/operator.ts';
import { templateOf } from '../../mail/templates.ts';

/** Most mail servers refuse a message much over this; the documents go as attachments. */
export const DOCUMENTS_EMAIL_MAX_BYTES = 15 * 1024 * 1024;

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export function documentsContext(
  b: { title: string | null; firstName: string; lastName: string; preferredName: string | null; ref: string },
  trip: { name: string; departure: string; return: string },
  names: string[],
  operator: Operator,
  portalUrl: string,
): TemplateContext {
  return {
    traveller: { title: b.title, first_name: b.firstName, last_name: b.lastName, preferred_name: b.preferredName },
    booking: { ref: b.ref },
    trip: { name: trip.name, departure: emailDate(trip.departure), return: emailDate(trip.return) },
    documents: { names: names.join(', '), count: names.length },
    portal: { url: portalUrl },
    operator: { name: operator.name },
  };
}

/**
 * "Send documents" from the readiness board: the trip's uploaded documents, attached
 * to one email per chosen traveller from the "trip_documents" template. Each email sent stamps
 * the booking's documents_sent_at (the board's documents check) and is in its history.
 */
export class TripDocumentsMailer {
  constructor(
    private readonly db: Db,
    private readonly files: FileStore,
    private readonly mailer: Mailer,
    private readonly operator: Operator,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  async send(tripId: number, bookingIds: number[]): Promise<ChaserResult> {
    const [trip] = await this.db
      .select({
        id: trips.id,
        name: trips.name,
        departure: trips.departureDate,
        return: trips.returnDate,
        deletedAt: trips.deletedAt,
      })
      .from(trips)
      .where(eq(trips.id, tripId));
    if (!trip || trip.deletedAt) throw new HttpError(404, 'Trip not found');
    const docs = await this.db
      .select()
      .from(tripDocuments)
      .where(and(eq(tripDocuments.tripId, tripId), isNotNull(tripDocuments.storedFile)))
      .orderBy(asc(tripDocuments.id));
    if (!docs.length)
      throw new HttpError(422, 'This trip has no documents to send: upload them on the trip page first.');
    const size = docs.reduce((sum, d) => sum + (d.sizeBytes ?? 0), 0);
    if (size > DOCUMENTS_EMAIL_MAX_BYTES) {
      throw new HttpError(
        422,
        `The trip's documents come to ${megabytes(size)}, too large for one email (at most ${megabytes(DOCUMENTS_EMAIL_MAX_BYTES)}): make them smaller or remove some on the trip page.`,
      );
    }
    const attachments: NonNullable<OutgoingMail['attachments']> = [];
    for (const d of docs) {
      const ext = path.extname(d.storedFile!);
      // the traveller sees the document's name, with the file's own extension
      const base =
        [...d.name]
          .map((c) => (c.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
          .join('')
          .replace(/\s+/g, ' ')
          .trim() || `document-${d.id}`;
      const content = await this.files.read('documents', d.storedFile!);
      if (!content)
        throw new HttpError(422, `The file of the document ${d.name} is missing: upload it again on the trip page.`);
      attachments.push({
        filename: base.toLowerCase().endsWith(ext) ? base : `${base}${ext}`,
        content,
        contentType: d.mimeType ?? 'application/octet-stream',
      });
    }
    const ids = [...new Set(bookingIds)];
    const travellers = await this.db
      .select({
        id: bookings.id,
        ref: bookings.ref,
        title: bookings.title,
        firstName: bookings.firstName,
        lastName: bookings.lastName,
        preferredName: bookings.preferredName,
        email: bookings.email,
        userId: bookings.userId,
      })
      .from(bookings)
      .where(
        and(
          eq(bookings.tripId, tripId),
          inArray(bookings.id, ids),
          sql`${bookings.status} in ('provisional', 'confirmed')`,
        ),
      );
    const byId = new Map(travellers.map((t) => [t.id, t]));
    const template = await templateOf(this.db, 'trip_documents');
    const names = docs.map((d) => d.name);
    const result: ChaserResult = { message: '', sent: [], skipped: [], failed: [] };
    for (const id of ids) {
      const b = byId.get(id);
      if (!b) {
        result.skipped.push({
          booking_id: id,
          check: 'documents',
          reason: 'Not a provisional or confirmed booking of this trip.',
        });
        continue;
      }
      const rendered = await renderTemplate(
        template,
        documentsContext(
          b,
          { name: trip.name, departure: trip.departure, return: trip.return },
          names,
          this.operator,
          portalUrlOf(b, this.operator.portalLinks, nowOf(this.clock)),
        ),
      );
      const mail = { to: { name: `${b.firstName} ${b.lastName}`, address: b.email }, ...rendered, attachments };
      const about = { subject: { type: 'booking', id: b.id }, bookingId: b.id, tripId };
      const details = {
        to: mail.to.address,
        subject: withoutSignInLinks(mail.subject),
        text: withoutSignInLinks(mail.text),
        attachments: attachments.map((a) => a.filename),
        template: 'trip_documents',
      };
      try {
        const sent = await this.mailer.send(mail);
        await this.db.transaction(async (tx) => {
          await tx
            .update(bookings)
            .set({ documentsSentAt: nowOf(this.clock) })
            .where(eq(bookings.id, b.id));
          await audit(tx, {
            action: 'email.sent',
            ...about,
            summary: `emailed the trip's documents (${names.join(', ')}) to ${b.email}`,
            details: { ...details, outcome: sent.outcome, message_id: sent.messageId },
          });
        });
        result.sent.push({ booking_id: id, check: 'documents' });
      } catch (error) {
        const { why, code, responseCode } = mailRefusal(error);
        await audit(this.db, {
          action: 'email.failed',
          ...about,
          summary: `could not email the trip's documents to ${b.email}: ${why}`,
          details: { ...details, outcome: 'refused', message_id: null, error: { code, response_code: responseCode } },
        });
        result.failed.push({ booking_id: id, check: 'documents', reason: 'The mail server did not take it.' });
      }
    }
    const parts = [`The documents were sent to ${result.sent.length} traveller${result.sent.length === 1 ? '' : 's'}`];
    if (result.skipped.length)
      parts.push(
        `${result.skipped.length} booking${result.skipped.length === 1 ? ' is' : 's are'} not provisional or confirmed on this trip`,
      );
    if (result.failed.length)
      parts.push(
        `${result.failed.length} could not be sent: the mail server did not take ${result.failed.length === 1 ? 'it' : 'them'}`,
      );
    result.message = `${parts.join('; ')}.`;
    return result;
  }
}
