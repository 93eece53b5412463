import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../../db/client.ts';

export type PupilMoney = {
  id: number;
  group_id: number;
  /** pence the parents paid to date: payments less refunds (the school's share is on its group invoice) */
  paid: number;
  /** pence due before today and not paid */
  overdue: number;
  date_of_birth: string | Date | null;
  consent_given_at: string | Date | null;
  consent_withdrawn_at: string | Date | null;
  parent_invited_at: string | Date | null;
};

/** Each live pupil of these groups with their money to date (issue 37): one reading for the leader's page and the office's. */
export async function pupilMoney(db: Db, groupIds: number[], today: string): Promise<PupilMoney[]> {
  if (!groupIds.length) return [];
  const rows = await queryRows<PupilMoney>(
    db,
    sql`select b.id, b.group_id, b.date_of_birth, b.consent_given_at, b.consent_withdrawn_at, b.parent_invited_at,
        (select coalesce(sum(case when t.type = 'payment' then t.amount_pence else -t.amount_pence end), 0)
          from transactions t join invoices i on i.id = t.invoice_id
          where t.booking_id = b.id and t.deleted_at is null and i.group_id is null) as paid,
        (select coalesce(sum(m.outstanding_pence), 0) from money_owed m
          where m.booking_id = b.id and m.due_date < ${today}::date) as overdue
      from bookings b
      where b.group_id in (${sql.join(
        groupIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and b.status in ('provisional', 'confirmed')`,
  );
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    group_id: Number(r.group_id),
    paid: Number(r.paid),
    overdue: Number(r.overdue),
  }));
}
