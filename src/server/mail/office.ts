import type { Db } from '../../db/client.ts';
import { audit, type AuditEvent } from '../audit/audit.ts';
import type { Mailer } from '../common/mailer.ts';
import { escapeHtml } from '../html.ts';
import { mailRefusal } from './transport.ts';

/**
 * A short notice to the office (OFFICE_EMAIL): written by Tripdesk, not by staff, so not a
 * template. Sent and recorded as an email.sent event, or an email.failed one with why; never
 * thrown, as what it tells of is done already. No office address: nothing is sent.
 */
export async function emailOffice(
  db: Db,
  mailer: Mailer,
  to: string | undefined,
  notice: {
    subject: string;
    text: string;
    /** what the notice is, after "emailed the office" in the History */
    about: string;
    /** what the History's event is about */
    event: Pick<AuditEvent, 'subject' | 'bookingId' | 'tripId'>;
  },
): Promise<boolean> {
  if (!to) return false;
  const { subject, text, about, event } = notice;
  const details = { to, subject, text, attachments: [] };
  try {
    const sent = await mailer.send({
      to: { name: 'Office', address: to },
      subject,
      text,
      html: text
        .split('\n\n')
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join(''),
    });
    await audit(db, {
      action: 'email.sent',
      ...event,
      summary: `emailed the office ${about} (${to})`,
      details: { ...details, outcome: sent.outcome, message_id: sent.messageId },
    });
    return true;
  } catch (error) {
    const { why } = mailRefusal(error);
    await audit(db, {
      action: 'email.failed',
      ...event,
      summary: `could not email the office ${about} (${to}): ${why}`,
      details: { ...details, outcome: 'refused', message_id: null },
    });
    return false;
  }
}
