import {
  DEFAULT_BALANCE_DAYS_BEFORE_DEPARTURE,
  DEFAULT_DEPOSIT_DUE_DAYS,
  MAX_INSTALMENTS,
  type AmountKind,
  type DueKind,
} from '../../../contract/schedule-constants.ts';
import type { PaymentPlan, PaymentPlanInput } from '../../../contract/schedules.ts';

/** One instalment as the plan editor holds it: what staff typed, as typed. */
export type PlanRow = {
  label: string;
  amount_kind: AmountKind;
  amount: string;
  percent: string;
  due_kind: DueKind;
  due_days: string;
  due_date: string | null;
};
export type PlanValues = { instalments: PlanRow[] };

export const toPlanValues = (plan: PaymentPlan): PlanValues => ({
  instalments: plan.instalments.map((i) => ({
    label: i.label,
    amount_kind: i.amount_kind,
    amount: i.amount === null ? '' : i.amount.toFixed(2),
    percent: i.percent === null ? '' : String(i.percent),
    due_kind: i.due_kind,
    due_days: i.due_days === null ? '' : String(i.due_days),
    due_date: i.due_date,
  })),
});

/** The request: each row with the fields its kinds use (the server reads the rest as not given). */
export const toPlanInput = (v: PlanValues): PaymentPlanInput => ({
  instalments: v.instalments.map((r) => ({
    label: r.label,
    amount_kind: r.amount_kind,
    ...(r.amount_kind === 'fixed' ? { amount: r.amount } : {}),
    ...(r.amount_kind === 'percent' ? { percent: r.percent } : {}),
    due_kind: r.due_kind,
    ...(r.due_kind === 'fixed_date' ? { due_date: r.due_date ?? '' } : { due_days: r.due_days }),
  })),
});

/** A new row, put before the row for the rest (which usually comes last). */
export const blankRow = (n: number): PlanRow => ({
  label: `Instalment ${n}`,
  amount_kind: 'percent',
  amount: '',
  percent: '',
  due_kind: 'after_booking',
  due_days: '',
  due_date: null,
});

export type MonthlyOptions = {
  /** start with the trip's deposit, DEFAULT_DEPOSIT_DUE_DAYS after booking */
  deposit: boolean;
  /** how many monthly instalments */
  count: number;
  /** each one's share of the trip cost, in percent */
  percent: string;
  /** 'days': every 30 days after booking from `firstDays`; 'dates': the same day of each month from `firstDate` */
  mode: 'days' | 'dates';
  firstDays: number;
  firstDate: string | null;
  /** the balance (the rest) this many days before departure */
  balanceDays: number;
};

/** The most monthly instalments a plan has room for, beside the deposit and the balance. */
export const maxMonthly = (deposit: boolean) => MAX_INSTALMENTS - 1 - (deposit ? 1 : 0);

/** yyyy-mm-dd moved by whole months, kept within the month (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** A whole school-trip plan in one go: the deposit, N monthly percentages, the balance for the rest. */
export function monthlyRows(o: MonthlyOptions): PlanRow[] {
  const rows: PlanRow[] = [];
  if (o.deposit)
    rows.push({
      label: 'Deposit',
      amount_kind: 'deposit',
      amount: '',
      percent: '',
      due_kind: 'after_booking',
      due_days: String(DEFAULT_DEPOSIT_DUE_DAYS),
      due_date: null,
    });
  for (let i = 0; i < o.count; i++) {
    const base = { label: `Instalment ${i + 1}`, amount_kind: 'percent' as const, amount: '', percent: o.percent };
    rows.push(
      o.mode === 'dates' && o.firstDate
        ? { ...base, due_kind: 'fixed_date', due_days: '', due_date: addMonths(o.firstDate, i) }
        : { ...base, due_kind: 'after_booking', due_days: String(o.firstDays + 30 * i), due_date: null },
    );
  }
  rows.push({
    label: 'Balance',
    amount_kind: 'rest',
    amount: '',
    percent: '',
    due_kind: 'before_departure',
    due_days: String(o.balanceDays),
    due_date: null,
  });
  return rows;
}

/** Each monthly instalment's share when the deposit is taken first and the balance is about one more of them. */
export function suggestedPercent(count: number, deposit: boolean, plan: { cost: number; deposit: number }): string {
  const depositShare = deposit && plan.cost > 0 ? Math.min(100, (plan.deposit / plan.cost) * 100) : 0;
  const each = Math.floor(((100 - depositShare) / (count + 1)) * 100) / 100;
  return String(Math.max(0.01, each));
}

export const DEFAULT_MONTHLY: MonthlyOptions = {
  deposit: true,
  count: 6,
  percent: '',
  mode: 'days',
  firstDays: 30,
  firstDate: null,
  balanceDays: DEFAULT_BALANCE_DAYS_BEFORE_DEPARTURE,
};

/** The first of next month, for monthly fixed dates. */
export const firstOfNextMonth = (today: string) => addMonths(`${today.slice(0, 7)}-01`, 1);
