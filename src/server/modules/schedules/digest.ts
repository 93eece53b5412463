import { and, eq, lte, sql } from 'drizzle-orm';
import { formatPence, formatPounds, penceToPounds } from '../../../contract/money.ts';
import type { Db } from '../../../db/client.ts';
import {
  bookings,
  invoices,
  paymentReminders,
  refundsDue,
  refundsOwed,
  scheduleRows,
  trips,
} from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { nowOf, type Clock } from '../../clock.ts';
import { escapeHtml } from '../../html.ts';
import type { Mailer } from '../../mail/transport.ts';
import { loadInvoices } from '../invoices/load.ts';

export type Digest = {
  overdue: Array<{ ref: string; traveller: string; trip: string; label: string; outstanding: string }>;
  failed: Array<{ ref: string; traveller: string; email: string; error: string }>;
  /** invoices paid more than their total (a card payment made twice): the refund owed */
  refunds: Array<{ ref: string; traveller: string; invoice: string; overpaid: string }>;
  /** refunds owed after a cancellation that fall due within 3 days, or are late */
  owed: Array<{ ref: string; traveller: string; amount: string; due_on: string; late: boolean }>;
};

/** What the office must know tonight: instalments that went overdue today, reminders that could not be sent. */
export async function buildDigest(db: Db, today: string): Promise<Digest> {
  const yesterday = addDays(today, -1);
  const rows = await db
    .select({
      ref: bookings.ref,
      first: bookings.firstName,
      last: bookings.lastName,
      trip: trips.name,
      label: scheduleRows.label,
      amountPence: scheduleRows.amountPence,
      invoiceId: scheduleRows.invoiceId,
    })
    .from(scheduleRows)
    .innerJoin(bookings, eq(bookings.id, scheduleRows.bookingId))
    .innerJoin(trips, eq(trips.id, bookings.tripId))
    .where(
      and(eq(scheduleRows.dueDate, yesterday), eq(scheduleRows.waived, false), sql`${bookings.status} <> 'cancelled'`),
    )
    .orderBy(bookings.ref);
  const ids = rows.map((r) => r.invoiceId).filter((id): id is number => id !== null);
  const loaded = ids.length
    ? await loadInvoices(
        db,
        sql`${invoices.id} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      )
    : [];
  const byId = new Map(loaded.map((l) => [l.reply.id, l]));
  const overdue = rows.flatMap((r) => {
    const invoice = r.invoiceId === null ? null : byId.get(r.invoiceId);
    if (invoice?.summary.paid) return [];
    const outstanding = invoice ? invoice.reply.outstanding : penceToPounds(r.amountPence);
    return [
      {
        ref: r.ref,
        traveller: `${r.first} ${r.last}`,
        trip: r.trip,
        label: r.label,
        outstanding: formatPounds(outstanding),
      },
    ];
  });
  const failedRows = await db
    .select({
      ref: bookings.ref,
      first: bookings.firstName,
      last: bookings.lastName,
      email: paymentReminders.email,
      error: paymentReminders.error,
    })
    .from(paymentReminders)
    .innerJoin(bookings, eq(bookings.id, paymentReminders.bookingId))
    .where(and(eq(paymentReminders.sentOn, today), eq(paymentReminders.outcome, 'failed')));
  const refunds = await db
    .select({
      ref: bookings.ref,
      first: bookings.firstName,
      last: bookings.lastName,
      invoice: invoices.invoiceRef,
      pence: refundsDue.overpaidPence,
    })
    .from(refundsDue)
    .innerJoin(bookings, eq(bookings.id, refundsDue.bookingId))
    .innerJoin(invoices, eq(invoices.id, refundsDue.invoiceId))
    .orderBy(refundsDue.since, refundsDue.invoiceId)
    .limit(200);
  const owed = await db
    .select({
      ref: bookings.ref,
      first: bookings.firstName,
      last: bookings.lastName,
      pence: refundsOwed.amountPence,
      dueOn: refundsOwed.dueOn,
    })
    .from(refundsOwed)
    .innerJoin(bookings, eq(bookings.id, refundsOwed.bookingId))
    .where(and(eq(refundsOwed.state, 'open'), lte(refundsOwed.dueOn, addDays(today, 3))))
    .orderBy(refundsOwed.dueOn, refundsOwed.id)
    .limit(200);
  return {
    owed: owed.map((o) => ({
      ref: o.ref,
      traveller: `${o.first} ${o.last}`,
      amount: formatPence(o.pence),
      due_on: o.dueOn,
      late: o.dueOn < today,
    })),
    overdue,
    failed: failedRows.map((f) => ({
      ref: f.ref,
      traveller: `${f.first} ${f.last}`,
      email: f.email,
      error: f.error ?? '',
    })),
    refunds: refunds.map((r) => ({
      ref: r.ref,
      traveller: `${r.first} ${r.last}`,
      invoice: r.invoice,
      overpaid: formatPence(r.pence),
    })),
  };
}

/** Emails the digest to OFFICE_EMAIL (nothing when there is nothing to say, or no address). */
export async function sendDigest(
  db: Db,
  mailer: Mailer,
  officeEmail: string | undefined,
  clock: Pick<Clock, 'now'>,
): Promise<{ sent: boolean }> {
  const today = ukToday(nowOf(clock));
  const d = await buildDigest(db, today);
  if (
    !officeEmail ||
    (d.overdue.length === 0 && d.failed.length === 0 && d.refunds.length === 0 && d.owed.length === 0)
  )
    return { sent: false };
  const lines = [
    `Instalments that went overdue today: ${d.overdue.length}`,
    ...d.overdue.map((o) => `- ${o.ref} ${o.traveller}, ${o.trip}: ${o.label}, ${o.outstanding} outstanding`),
    '',
    `Reminders that could not be sent today: ${d.failed.length}`,
    ...d.failed.map((f) => `- ${f.ref} ${f.traveller} <${f.email}>: ${f.error}`),
    ...(d.refunds.length
      ? [
          '',
          `Overpaid invoices, refund due: ${d.refunds.length}`,
          ...d.refunds.map(
            (r) => `- ${r.ref} ${r.traveller}, ${r.invoice}: ${r.overpaid} overpaid (refund it in Stripe's dashboard)`,
          ),
        ]
      : []),
    ...(d.owed.length
      ? [
          '',
          `Refunds owed after a cancellation, due within 3 days or late: ${d.owed.length}`,
          ...d.owed.map(
            (o) =>
              `- ${o.ref} ${o.traveller}: ${o.amount} ${o.late ? `was due on ${o.due_on}: late` : `due by ${o.due_on}`}`,
          ),
        ]
      : []),
  ];
  const mail = {
    to: { name: 'Office', address: officeEmail },
    subject: `Tripdesk money digest for ${today}: ${d.overdue.length} overdue, ${d.failed.length} reminders not sent${d.refunds.length ? `, ${d.refunds.length} refunds due` : ''}${d.owed.length ? `, ${d.owed.length} refunds owed soon or late` : ''}`,
    text: lines.join('\n'),
    html: lines.map((l) => (l ? `<p>${escapeHtml(l)}</p>` : '')).join('\n'),
  };
  const sent = await mailer.send(mail);
  await audit(db, {
    action: 'email.sent',
    subject: { type: 'digest', id: today },
    summary: `emailed the money digest to ${officeEmail}`,
    details: {
      to: officeEmail,
      subject: mail.subject,
      text: mail.text,
      attachments: [],
      outcome: sent.outcome,
      message_id: sent.messageId,
    },
  });
  return { sent: true };
}
