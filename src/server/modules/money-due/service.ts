import { sql, type SQL } from 'drizzle-orm';
import { MONEY_DUE_PER_PAGE, type MoneyDuePage, type MoneyDueRow } from '../../../contract/money-due.ts';
import { penceToPounds } from '../../../contract/money.ts';
import type { z } from 'zod';
import type { moneyDueQuery } from '../../../contract/money-due.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import { ukToday } from '../invoices/money.ts';

type Query = z.output<typeof moneyDueQuery>;

/**
 * Everything owed to the office (issue 17): each invoice with money outstanding (total − live
 * payments + live refunds, by decision 006's rules, in SQL) and each instalment not invoiced yet
 * and not waived, of bookings that are not cancelled.
 */
const DUE = sql`
  select 'invoice'::text as kind, i.id, coalesce(sr.label, i.description) as label, i.id as invoice_id, i.invoice_ref, i.booking_id, i.due_date,
    (s.subtotal - greatest(0, least(i.discount_pence, s.subtotal)) - coalesce(tx.received, 0))::bigint as outstanding_pence
  from invoices i
  cross join lateral (
    select coalesce((select sum(ii.amount_pence) from invoice_items ii where ii.invoice_id = i.id), 0)
         + coalesce((select sum(ia.price_pence) from invoice_addons ia where ia.invoice_id = i.id), 0) as subtotal
  ) s
  left join lateral (
    select sum(case when t.type = 'payment' then t.amount_pence else -t.amount_pence end) as received
    from transactions t where t.invoice_id = i.id and t.deleted_at is null
  ) tx on true
  left join schedule_rows sr on sr.invoice_id = i.id
  union all
  select 'instalment'::text, r.id, r.label, null::int, null::text, r.booking_id, r.due_date, r.amount_pence::bigint
  from schedule_rows r where r.invoice_id is null and not r.waived`;

const SORTS: Record<Query['sort'], SQL> = {
  due_date: sql`d.due_date`,
  days_overdue: sql`days_overdue`,
  outstanding: sql`d.outstanding_pence`,
  departure: sql`t.departure_date`,
  traveller: sql`lower(b.last_name), lower(b.first_name)`,
  trip: sql`lower(t.name)`,
  last_reminder: sql`last_reminder_at`,
};

export class MoneyDueService {
  constructor(
    private readonly db: Db,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  async list(q: Query, perPage = MONEY_DUE_PER_PAGE): Promise<MoneyDuePage> {
    const today = ukToday(nowOf(this.clock));
    const where: SQL[] = [sql`d.outstanding_pence > 0`, sql`b.status <> 'cancelled'`];
    if (q.trip_id) where.push(sql`b.trip_id = ${q.trip_id}`);
    if (q.trip_type) where.push(sql`t.type = ${q.trip_type}`);
    if (q.overdue) where.push(sql`d.due_date < ${today}::date`);
    if (q.due_within !== undefined) where.push(sql`d.due_date <= ${today}::date + ${q.due_within}::int`);
    const filtered = sql`
      from (${DUE}) d
      join bookings b on b.id = d.booking_id
      join trips t on t.id = b.trip_id
      where ${sql.join(where, sql` and `)}`;
    const overdueDays = sql`greatest(0, ${today}::date - d.due_date)`;
    const [totals] = await queryRows<Record<string, string | number>>(
      this.db,
      sql`select count(*)::int as n,
        coalesce(sum(d.outstanding_pence), 0)::bigint as total,
        coalesce(sum(d.outstanding_pence) filter (where ${overdueDays} = 0), 0)::bigint as not_due,
        coalesce(sum(d.outstanding_pence) filter (where ${overdueDays} between 1 and 30), 0)::bigint as days_1_30,
        coalesce(sum(d.outstanding_pence) filter (where ${overdueDays} between 31 and 60), 0)::bigint as days_31_60,
        coalesce(sum(d.outstanding_pence) filter (where ${overdueDays} between 61 and 90), 0)::bigint as days_61_90,
        coalesce(sum(d.outstanding_pence) filter (where ${overdueDays} > 90), 0)::bigint as days_90_plus
      ${filtered}`,
    );
    const total = Number(totals!.n);
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const offset = (q.page - 1) * perPage;
    const dir = q.dir === 'desc' ? sql`desc` : sql`asc`;
    const rows = await queryRows<{
      kind: 'invoice' | 'instalment'; id: number; label: string; invoice_id: number | null; invoice_ref: string | null; booking_id: number; due_date: string | Date; outstanding_pence: string | number;
      ref: string; first_name: string; last_name: string; trip_id: number; trip_name: string; trip_type: MoneyDueRow['trip_type']; departure: string | Date; days_overdue: number; last_reminder_at: string | Date | null;
    }>(
      this.db,
      sql`select d.kind, d.id, d.label, d.invoice_id, d.invoice_ref, d.booking_id, d.due_date, d.outstanding_pence,
          b.ref, b.first_name, b.last_name, b.trip_id, t.name as trip_name, t.type as trip_type, t.departure_date as departure,
          ${overdueDays}::int as days_overdue,
          (select max(pr.created_at) from payment_reminders pr where pr.booking_id = d.booking_id and pr.outcome = 'sent') as last_reminder_at
        ${filtered}
        order by ${SORTS[q.sort]} ${dir} nulls last, d.kind, d.id
        limit ${perPage} offset ${offset}`,
    );
    const day = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
    const money = (v: string | number) => penceToPounds(Number(v));
    return {
      data: rows.map((r) => ({
        kind: r.kind,
        id: r.id,
        label: r.label,
        invoice_id: r.invoice_id,
        invoice_ref: r.invoice_ref,
        booking_id: Number(r.booking_id),
        booking_ref: r.ref,
        traveller: `${r.first_name} ${r.last_name}`,
        trip_id: r.trip_id,
        trip_name: r.trip_name,
        trip_type: r.trip_type,
        departure: day(r.departure),
        due_date: day(r.due_date),
        days_overdue: Number(r.days_overdue),
        outstanding: money(r.outstanding_pence),
        last_reminder_at: r.last_reminder_at === null ? null : new Date(r.last_reminder_at).toISOString(),
      })),
      total,
      from: total ? offset + 1 : null,
      to: total ? Math.min(offset + perPage, total) : null,
      per_page: perPage,
      current_page: q.page,
      last_page: lastPage,
      buckets: {
        not_due: money(totals!.not_due!),
        days_1_30: money(totals!.days_1_30!),
        days_31_60: money(totals!.days_31_60!),
        days_61_90: money(totals!.days_61_90!),
        days_90_plus: money(totals!.days_90_plus!),
      },
      total_outstanding: money(totals!.total!),
    };
  }
}
