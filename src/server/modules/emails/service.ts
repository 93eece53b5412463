import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { TEMPLATE_KEYS, TEMPLATE_NAMES, TEMPLATE_PLACEHOLDERS, type EmailTemplate, type RenderedEmail, type TemplateKey } from '../../../contract/email-templates.ts';
import type { Db } from '../../../db/client.ts';
import { bookings, charities, emailTemplates, invoices, scheduleRows, tripDocuments, trips } from '../../../db/schema/index.ts';
import { summaryContext } from '../fundraising/charity-summary.ts';
import { chaserContext } from '../chasers/service.ts';
import { documentsContext } from '../documents/send.ts';
import { ReadinessService } from '../readiness/service.ts';
import { audit, diff } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import { HttpError } from '../../errors.ts';
import { loadInvoices } from '../invoices/load.ts';
import { ukToday, addDays } from '../../../contract/dates.ts';
import type { Operator } from '../../common/operator.ts';
import type { Mailer } from '../../mail/transport.ts';
import { reminderContext, type ReminderService } from '../schedules/reminders.ts';
import { templateOf } from '../../mail/templates.ts';
import { checkTemplate, checkTemplateWork, DEFAULT_TEMPLATES, emailDate, renderTemplate, type TemplateContext } from '../../mail/templates.ts';
import { formatPounds } from '../../../contract/money.ts';
import { FundraisingService, type FundraisingDefaults } from '../fundraising/service.ts';

/** The example invoice of a preview for a booking with nothing invoiced yet. */
const SAMPLE_INVOICE_REF = 'INV-0000';

/** The reminder emails' wording: read, changed, previewed against a real booking. */
export class EmailTemplateService {
  constructor(
    private readonly db: Db,
    private readonly operator: Operator,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly fundraisingDefaults: FundraisingDefaults,
  ) {}

  async get(key: TemplateKey): Promise<EmailTemplate> {
    const t = await templateOf(this.db, key);
    return { key, name: TEMPLATE_NAMES[key], subject: t.subject, body: t.body, is_default: t.isDefault, updated_at: t.updatedAt?.toISOString() ?? null, placeholders: [...TEMPLATE_PLACEHOLDERS[key]] };
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
        .onConflictDoUpdate({ target: emailTemplates.key, set: { ...v, updatedBy: userId, updatedAt: nowOf(this.clock) } });
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
  async preview(key: TemplateKey, bookingId: number, draft: { subject?: string | undefined; body?: string | undefined }): Promise<RenderedEmail> {
    const saved = await templateOf(this.db, key);
    const t = { subject: draft.subject ?? saved.subject, body: draft.body ?? saved.body };
    checkTemplate(t);
    await checkTemplateWork(t);
    const [b] = await this.db
      .select({ booking: bookings, trip: { name: trips.name, departure: trips.departureDate, return: trips.returnDate, deletedAt: trips.deletedAt } })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, bookingId));
    if (!b) throw new HttpError(422, 'The selected booking is invalid.');
    const today = ukToday(nowOf(this.clock));
    const mail = await renderTemplate(t, await this.contextFor(key, b, today));
    return { to: b.booking.email, ...mail };
  }

  private async contextFor(key: TemplateKey, b: { booking: typeof bookings.$inferSelect; trip: { name: string; departure: string; return: string; deletedAt: Date | null } }, today: string): Promise<TemplateContext> {
    const check = key === 'chaser_passport' ? 'passport' : key === 'chaser_forms' ? 'forms' : null;
    if (check !== null) {
      if (b.trip.deletedAt) throw new HttpError(422, "The selected booking's trip has been deleted: choose another booking.");
      const { trip, row } = await new ReadinessService(this.db, this.fundraisingDefaults, this.clock).ofBooking(b.booking.id);
      const reason = row.checks[check].state === 'green' ? (check === 'passport' ? 'No passport details yet.' : 'The booking form is not complete.') : row.checks[check].reason;
      return chaserContext(b.booking, trip, reason, this.operator);
    }
    if (key === 'fundraising_summary') {
      // the booking's charity as one of its portal users would get it; an example charity when the booking has none
      const fundraising = new FundraisingService(this.db, this.fundraisingDefaults, this.clock);
      const [charity] = b.booking.charityId === null ? [] : await this.db.select({ id: charities.id, name: charities.name }).from(charities).where(eq(charities.id, b.booking.charityId));
      const list = charity ? await fundraising.ofCharity(charity.id) : { totals: { fundraisers: 0, raised: 0, pledged: 0, shortfall: 0, behind: 0, met: 0 }, fundraisers: [], portal_users: [] };
      const [first] = list.portal_users;
      const recipient = first ? { firstName: first.name.split(' ')[0] ?? first.name, lastName: first.name.split(' ').slice(1).join(' ') } : { firstName: 'Sam', lastName: 'Sample' };
      return summaryContext(recipient, charity?.name ?? 'Sample Charity', list, today, this.operator);
    }
    if (key === 'fundraising_milestone') {
      // the booking's own next milestone; example figures for one that does not fundraise or has none ahead
      const f = await new FundraisingService(this.db, this.fundraisingDefaults, this.clock).forBooking(b.booking.id);
      const m = f.next ?? { percent: 50, amount: f.target / 2 || 1250, due: addDays(today, 7) };
      const pounds = (v: number) => formatPounds(v);
      return {
        traveller: { title: b.booking.title, first_name: b.booking.firstName, last_name: b.booking.lastName, preferred_name: b.booking.preferredName },
        booking: { ref: b.booking.ref },
        trip: { name: b.trip.name, departure: emailDate(b.trip.departure) },
        charity: { name: f.charity?.name ?? null },
        fundraising: { raised: pounds(f.raised), target: pounds(f.target || 2500), percent: m.percent, milestone_amount: pounds(m.amount), due: emailDate(m.due), short: pounds(Math.max(0, m.amount - f.raised)), page_url: f.page_url },
        operator: { name: this.operator.name },
      };
    }
    if (key === 'trip_documents') {
      const docs = await this.db.select({ name: tripDocuments.name }).from(tripDocuments).where(and(eq(tripDocuments.tripId, b.booking.tripId), isNotNull(tripDocuments.storedFile))).orderBy(asc(tripDocuments.id));
      return documentsContext(b.booking, b.trip, docs.length ? docs.map((d) => d.name) : ['Kit list', 'Itinerary'], this.operator);
    }
    const rows = await this.db.select({ invoiceId: scheduleRows.invoiceId }).from(scheduleRows).where(and(eq(scheduleRows.bookingId, b.booking.id), isNotNull(scheduleRows.invoiceId))).orderBy(asc(scheduleRows.position));
    const loaded = rows.length ? await loadInvoices(this.db, sql`${invoices.id} in (${sql.join(rows.map((r) => sql`${r.invoiceId}`), sql`, `)})`) : [];
    const invoice = loaded.find((l) => !l.summary.paid)?.reply ?? loaded[0]?.reply;
    // a booking with nothing invoiced yet: example amounts, due a week from today
    const example = { invoice_ref: SAMPLE_INVOICE_REF, total: 2000, outstanding: 1700, due_date: addDays(today, 7) };
    const context = reminderContext(b.booking, b.trip, invoice ?? example, this.operator, today, nowOf(this.clock));
    // the example invoice has no link of its own: the preview shows where one would go
    if (!invoice && this.operator.payLinks && context.invoice) context.invoice.pay_url = `${this.operator.payLinks.publicUrl}/pay/example`;
    if (key !== 'payment_receipt') return context;
    const paid = invoice && invoice.payment_received > 0 ? invoice.payment_received : 250;
    return { ...context, payment: { amount: formatPounds(paid), date: emailDate(today), reference: 'pi_3Example' } };
  }

  /** The preview, sent to the member of staff asking (never to the traveller), as an event in the history. */
  async testSend(key: TemplateKey, bookingId: number, draft: { subject?: string | undefined; body?: string | undefined }, to: { email: string; firstName: string; lastName: string }, mailer: Mailer): Promise<{ message: string }> {
    const preview = await this.preview(key, bookingId, draft);
    const subject = `[Test] ${preview.subject}`;
    try {
      const sent = await mailer.send({ to: { name: `${to.firstName} ${to.lastName}`, address: to.email }, subject, text: preview.text, html: preview.html });
      await audit(this.db, { action: 'email.sent', subject: { type: 'email_template', id: key }, summary: `emailed a test of "${TEMPLATE_NAMES[key]}" to ${to.email}`, details: { to: to.email, subject, text: preview.text, attachments: [], outcome: sent.outcome, message_id: sent.messageId } });
    } catch {
      throw new HttpError(502, 'The test email could not be sent: the mail server did not take it. Please try again.');
    }
    return { message: `A test email has been sent to ${to.email}.` };
  }
}

/** "Send a reminder now" for a booking: of its invoices with money outstanding, the one due first (on a schedule or not). */
export async function sendReminderNow(db: Db, reminders: ReminderService, bookingId: number, clock: Pick<Clock, 'now'>): Promise<{ message: string }> {
  const [booking] = await db.select({ id: bookings.id, status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId));
  if (!booking) throw new HttpError(404, 'Booking not found');
  if (booking.status === 'cancelled') throw new HttpError(422, 'This booking is cancelled: it is sent no reminders.');
  const owing = (await loadInvoices(db, eq(invoices.bookingId, bookingId)))
    .filter((i) => !i.summary.paid)
    .sort((a, b) => a.reply.due_date.localeCompare(b.reply.due_date) || a.reply.id - b.reply.id);
  const today = ukToday(nowOf(clock));
  for (const invoice of owing) {
    const outcome = await reminders.sendForInvoice(invoice.reply.id, today);
    if (outcome === 'sent') return { message: 'A reminder has been emailed to the traveller.' };
    if (outcome === 'failed') throw new HttpError(502, 'The reminder could not be emailed: the mail server did not take it. Please try again.');
  }
  throw new HttpError(422, 'Nothing is owed on an invoice of this booking, so there is nothing to remind the traveller of.');
}

/** "Send reminder now" for several bookings: each gets its most urgent reminder; says what became of each. */
export async function sendRemindersNow(db: Db, reminders: ReminderService, bookingIds: number[], clock: Pick<Clock, 'now'>) {
  const sent: number[] = [];
  const nothing: number[] = [];
  const failed: number[] = [];
  for (const id of [...new Set(bookingIds)]) {
    try {
      await sendReminderNow(db, reminders, id, clock);
      sent.push(id);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 502) failed.push(id);
      else if (error instanceof HttpError) nothing.push(id);
      else throw error;
    }
  }
  const parts = [`${sent.length} reminder${sent.length === 1 ? '' : 's'} sent`];
  if (nothing.length) parts.push(`${nothing.length} booking${nothing.length === 1 ? ' has' : 's have'} nothing owed on an invoice`);
  if (failed.length) parts.push(`${failed.length} could not be sent: the mail server did not take them`);
  return { message: `${parts.join('; ')}.`, sent, nothing_to_send: nothing, failed };
}
