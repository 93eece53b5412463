import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { invoices, scheduleRows } from '../../../db/schema/index.ts';
import { addDays } from '../../../contract/dates.ts';
import type { Operator } from '../../common/operator.ts';
import { portalPreviewUrl } from '../../common/portal-links.ts';
import type { EmailPreviews, PreviewBooking } from '../../mail/previews.ts';
import type { TemplateContext } from '../../mail/templates.ts';
import { loadInvoices } from '../invoices/load.ts';
import { reminderContext } from './reminders.ts';

/** The example invoice of a preview for a booking with nothing invoiced yet. */
export const SAMPLE_INVOICE_REF = 'INV-0000';

/**
 * A reminder as this booking's traveller would get it: against its first unpaid invoiced
 * instalment, or an example invoice (due a week from today) when it has none.
 */
export async function reminderPreview(
  db: Db,
  operator: Operator,
  b: PreviewBooking,
  today: string,
  now: Date,
): Promise<{ context: TemplateContext; invoice: { payment_received: number } | undefined }> {
  const rows = await db
    .select({ invoiceId: scheduleRows.invoiceId })
    .from(scheduleRows)
    .where(and(eq(scheduleRows.bookingId, b.booking.id), isNotNull(scheduleRows.invoiceId)))
    .orderBy(asc(scheduleRows.position));
  const loaded = rows.length
    ? await loadInvoices(
        db,
        sql`${invoices.id} in (${sql.join(
          rows.map((r) => sql`${r.invoiceId}`),
          sql`, `,
        )})`,
      )
    : [];
  const invoice = loaded.find((l) => !l.summary.paid)?.reply ?? loaded[0]?.reply;
  const example = { invoice_ref: SAMPLE_INVOICE_REF, total: 2000, outstanding: 1700, due_date: addDays(today, 7) };
  const context = reminderContext(
    b.booking,
    b.trip,
    invoice ?? example,
    operator,
    today,
    now,
    portalPreviewUrl(operator.portalLinks),
  );
  // the example invoice has no link of its own: the preview shows where one would go
  if (!invoice && operator.payLinks && context.invoice)
    context.invoice.pay_url = `${operator.payLinks.publicUrl}/pay/example`;
  return { context, invoice };
}

/** The payment reminders' previews. */
export function previews({ db, operator }: { db: Db; operator: Operator }): EmailPreviews {
  const reminder = async (b: PreviewBooking, today: string, now: Date) =>
    (await reminderPreview(db, operator, b, today, now)).context;
  return { reminder_before: reminder, reminder_due: reminder, reminder_overdue: reminder };
}
