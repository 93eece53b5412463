import type { TemplateKey } from '../../contract/email-templates.ts';
import type { Db, Tx } from '../../db/client.ts';
import { audit, type AuditEvent } from '../audit/audit.ts';
import type { Mailer } from '../common/mailer.ts';
import { pgError } from '../sql.ts';
import { renderTemplate, templateOf, type TemplateContext } from './templates.ts';
import { mailRefusal } from './transport.ts';
import { withoutSignInLinks } from '../common/portal-links.ts';

export type SendOutcome = 'sent' | 'failed' | 'skipped';

export type OnceEmail = {
  template: TemplateKey;
  context: TemplateContext;
  to: { name: string; address: string };
  /** what the event is about: its subject, and the booking and trip when there are */
  about: Pick<AuditEvent, 'subject' | 'bookingId' | 'tripId'>;
  /** the email as the History names it, after "emailed" or "could not email", given its subject */
  named: (subject: string) => string;
  /** more for the event's details, beside the message's own (to, subject, text, template) */
  details?: Record<string, unknown>;
  /**
   * Takes this email's claim row (its table's unique keys decide, so of two workers one sends):
   * its id, or undefined when it is already taken, or sent.
   */
  claim: () => Promise<number | undefined>;
  /** Marks the claim sent (failure null) or failed with why, in the transaction of the event. */
  settle: (tx: Tx, claimId: number, failure: string | null) => Promise<void>;
};

/**
 * The one way an automatic email goes: rendered from its template (as staff have worded it),
 * claimed, sent, and recorded: the claim settled and an email.sent or email.failed event with
 * the text in one transaction. A mail server's refusal is read into why, never thrown.
 */
export async function sendOnce(db: Db, mailer: Mailer, email: OnceEmail): Promise<SendOutcome> {
  const rendered = await renderTemplate(await templateOf(db, email.template), email.context);
  const mail = { to: email.to, ...rendered };
  let claimId: number | undefined;
  try {
    claimId = await email.claim();
  } catch (error) {
    if (pgError(error).code === '23505') return 'skipped';
    throw error;
  }
  if (claimId === undefined) return 'skipped';
  const details = {
    to: mail.to.address,
    subject: withoutSignInLinks(mail.subject),
    text: withoutSignInLinks(mail.text),
    attachments: [],
    template: email.template,
    ...email.details,
  };
  const named = email.named(withoutSignInLinks(mail.subject));
  try {
    const sent = await mailer.send(mail);
    await db.transaction(async (tx) => {
      await email.settle(tx, claimId, null);
      await audit(tx, {
        action: 'email.sent',
        ...email.about,
        summary: `emailed ${named}`,
        details: { ...details, outcome: sent.outcome, message_id: sent.messageId },
      });
    });
    return 'sent';
  } catch (error) {
    const { why, code, responseCode } = mailRefusal(error);
    await db.transaction(async (tx) => {
      await email.settle(tx, claimId, why);
      await audit(tx, {
        action: 'email.failed',
        ...email.about,
        summary: `could not email ${named}: ${why}`,
        details: { ...details, outcome: 'refused', message_id: null, error: { code, response_code: responseCode } },
      });
    });
    return 'failed';
  }
}
