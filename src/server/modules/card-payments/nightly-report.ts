import { addDays, toDdMmYyyy, ukToday } from '../../../contract/dates.ts';
import type { Db } from '../../../db/client.ts';
import { audit } from '../../audit/audit.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import { ReportService } from '../reports/service.ts';

/**
 * Each morning, yesterday's card payments and refunds with their Stripe ids, as the
 * card-payments report's .xlsx, to OFFICE_EMAIL: for checking against Stripe's payouts. Nothing
 * when there were none, or nowhere to send it.
 */
export async function sendCardPaymentsReport(
  db: Db,
  mailer: Mailer,
  officeEmail: string | undefined,
  clock: Pick<Clock, 'now'>,
): Promise<{ sent: boolean; rows: number }> {
  const day = addDays(ukToday(nowOf(clock)), -1);
  const reports = new ReportService(db);
  const report = await reports.report('card-payments', { from: day, to: day, at: day });
  if (!officeEmail || report.total_rows === 0) return { sent: false, rows: report.total_rows };
  const { file, body } = await reports.workbook('card-payments', { from: day, to: day, at: day });
  const subject = `Card payments on ${toDdMmYyyy(day)}: ${report.total_rows}`;
  const text = `${report.covers}: ${report.total_rows}, net ${report.totals.amount?.toFixed(2) ?? '0.00'} GBP. The attached spreadsheet lists each with its Stripe id.\n\nTripdesk`;
  const sent = await mailer.send({
    to: { name: 'Office', address: officeEmail },
    subject,
    text,
    html: `<p>${text.replace(/\n\n/g, '</p><p>')}</p>`,
    attachments: [
      {
        filename: file,
        content: body,
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    ],
  });
  await audit(db, {
    action: 'email.sent',
    subject: { type: 'report', id: `card-payments ${day}` },
    summary: `emailed the card payments of ${toDdMmYyyy(day)} to ${officeEmail}`,
    details: { to: officeEmail, subject, text, attachments: [file], outcome: sent.outcome, message_id: sent.messageId },
  });
  return { sent: true, rows: report.total_rows };
}
