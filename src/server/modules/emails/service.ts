import { eq } from 'drizzle-orm';
import {
  TEMPLATE_KEYS,
  TEMPLATE_NAMES,
  TEMPLATE_PLACEHOLDERS,
  type EmailTemplate,
  type RenderedEmail,
  type TemplateKey,
} from '../../../contract/email-templates.ts';
import { ukToday } from '../../../contract/dates.ts';
import type { Db } from '../../../db/client.ts';
import { bookings, emailTemplates, trips } from '../../../db/schema/index.ts';
import { audit, diff } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import { HttpError } from '../../errors.ts';
import { hideTravellerValues } from '../../common/traveller-data.ts';
import type { PreviewContext } from '../../mail/previews.ts';
import {
  checkTemplate,
  checkTemplateWork,
  DEFAULT_TEMPLATES,
  renderTemplate,
  templateOf,
} from '../../mail/templates.ts';
import type { Mailer } from '../../mail/transport.ts';

/**
 * The emails' wording: read, changed, previewed against a real booking (each email's preview is
 * its domain's, gathered by email-registry.ts).
 */
export class EmailTemplateService {
  constructor(
    private readonly db: Db,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly previews: Record<TemplateKey, PreviewContext>,
  ) {}

  async get(key: TemplateKey): Promise<EmailTemplate> {
    const t = await templateOf(this.db, key);
    return {
      key,
      name: TEMPLATE_NAMES[key],
      subject: t.subject,
      body: t.body,
      is_default: t.isDefault,
      updated_at: t.updatedAt?.toISOString() ?? null,
      placeholders: [...TEMPLATE_PLACEHOLDERS[key]],
    };
  }

  list(): Promise<EmailTemplate[]> {
    return Promise.all(TEMPLATE_KEYS.map((k) => this.get(k)));
  }

  /** Back to Tripdesk's own wording (an event in the history). */
  async reset(key: TemplateKey): Promise<EmailTemplate> {
    await this.db.transaction(async (tx) => {
      const before = await templateOf(tx, key);
      if (before.isDefault) return;
      await tx.delete(emailTemplates).where(eq(emailTemplates.key, key));
      const after = DEFAULT_TEMPLATES[key];
      await audit(tx, {
        action: 'email_template.reset',
        subject: { type: 'email_template', id: key },
        changes: diff({ subject: [before.subject, after.subject], body: [before.body, after.body] }),
        summary: `put the email "${TEMPLATE_NAMES[key]}" back to Tripdesk's wording`,
      });
    });
    return this.get(key);
  }

  async save(key: TemplateKey, v: { subject: string; body: string }, userId: number | null): Promise<EmailTemplate> {
    checkTemplate(v);
    await checkTemplateWork(v);
    await this.db.transaction(async (tx) => {
      const before = await templateOf(tx, key);
      await tx
        .insert(emailTemplates)
        .values({ key, ...v, updatedBy: userId, updatedAt: nowOf(this.clock) })
        .onConflictDoUpdate({
          target: emailTemplates.key,
          set: { ...v, updatedBy: userId, updatedAt: nowOf(this.clock) },
        });
      await audit(tx, {
        action: 'email_template.updated',
        subject: { type: 'email_template', id: key },
        changes: diff({ subject: [before.subject, v.subject], body: [before.body, v.body] }),
        summary: `changed the wording of the email "${TEMPLATE_NAMES[key]}"`,
      });
    });
    return this.get(key);
  }

  /**
   * The email as a booking's traveller would get it now. A reminder: against the booking's first
   * unpaid invoiced instalment, or example values when it has none. A chaser: with the booking's
   * own reason (an example one when its check is green). The documents: the trip's own.
   */
  async preview(
    key: TemplateKey,
    bookingId: number,
    draft: { subject?: string | undefined; body?: string | undefined },
    hideTravellerData = false,
  ): Promise<RenderedEmail> {
    const saved = await templateOf(this.db, key);
    const t = { subject: draft.subject ?? saved.subject, body: draft.body ?? saved.body };
    checkTemplate(t);
    await checkTemplateWork(t);
    const [b] = await this.db
      .select({
        booking: bookings,
        trip: {
          name: trips.name,
          departure: trips.departureDate,
          return: trips.returnDate,
          deletedAt: trips.deletedAt,
        },
      })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, bookingId));
    if (!b) throw new HttpError(422, 'The selected booking is invalid.');
    const now = nowOf(this.clock);
    const mail = { to: b.booking.email, ...(await renderTemplate(t, await this.previews[key](b, ukToday(now), now))) };
    // a chaser quotes the passport's expiry: not to a team without traveller data
    return hideTravellerData
      ? (await hideTravellerValues(this.db, [mail], () => bookingId, ['subject', 'text', 'html']))[0]!
      : mail;
  }

  /** The preview, sent to the member of staff asking (never to the traveller), as an event in the history. */
  async testSend(
    key: TemplateKey,
    bookingId: number,
    draft: { subject?: string | undefined; body?: string | undefined },
    to: { email: string; firstName: string; lastName: string },
    mailer: Mailer,
    hideTravellerData = false,
  ): Promise<{ message: string }> {
    const preview = await this.preview(key, bookingId, draft, hideTravellerData);
    const subject = `[Test] ${preview.subject}`;
    try {
      const sent = await mailer.send({
        to: { name: `${to.firstName} ${to.lastName}`, address: to.email },
        subject,
        text: preview.text,
        html: preview.html,
      });
      await audit(this.db, {
        action: 'email.sent',
        subject: { type: 'email_template', id: key },
        summary: `emailed a test of "${TEMPLATE_NAMES[key]}" to ${to.email}`,
        details: {
          to: to.email,
          subject,
          text: preview.text,
          attachments: [],
          // the booking it was previewed with: a team without traveller data reads its text without that booking's values
          preview_booking_id: bookingId,
          outcome: sent.outcome,
          message_id: sent.messageId,
        },
      });
    } catch {
      throw new HttpError(502, 'The test email could not be sent: the mail server did not take it. Please try again.');
    }
    return { message: `A test email has been sent to ${to.email}.` };
  }
}
