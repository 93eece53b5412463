import { formatPounds } from '../../../contract/money.ts';
import type { Db } from '../../../db/client.ts';
import type { Operator } from '../../common/operator.ts';
import type { EmailPreviews } from '../../mail/previews.ts';
import { emailDate } from '../../mail/templates.ts';
import { reminderPreview } from '../schedules/emails.ts';

/** The card receipt's preview: the booking's invoice as a reminder shows it, and what was paid on it (£250 when nothing was). */
export function previews({ db, operator }: { db: Db; operator: Operator }): EmailPreviews {
  return {
    payment_receipt: async (b, today, now) => {
      const { context, invoice } = await reminderPreview(db, operator, b, today, now);
      const paid = invoice && invoice.payment_received > 0 ? invoice.payment_received : 250;
      return { ...context, payment: { amount: formatPounds(paid), date: emailDate(today), reference: 'pi_3Example' } };
    },
  };
}
