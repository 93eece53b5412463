import { addDays } from '../../../contract/dates.ts';
import type { AmountKind, DueKind, ScheduleState } from '../../../contract/schedule-constants.ts';
import {
  DEFAULT_BALANCE_DAYS_BEFORE_DEPARTURE,
  DEFAULT_DEPOSIT_DUE_DAYS,
} from '../../../contract/schedule-constants.ts';

/**
 * The rules of payment plans and schedules, in one place: pure functions, no
 * database, unit-tested in rules.test.ts.
 */

export type Instalment = {
  label: string;
  amountKind: AmountKind;
  /** fixed: pence */
  amountPence: number | null;
  /** percent: hundredths of a percent of the trip cost (1250 = 12.5%) */
  percentHundredths: number | null;
  dueKind: DueKind;
  dueDays: number | null;
  /** fixed_date: yyyy-mm-dd */
  dueDate: string | null;
};

export type ScheduledInstalment = {
  position: number;
  label: string;
  dueDate: string;
  amountPence: number;
  invoiceType: 'deposit' | 'balance';
};

/** Every trip's plan until staff change it: today's standard invoices as a plan. */
export const DEFAULT_PLAN: Instalment[] = [
  {
    label: 'Deposit',
    amountKind: 'deposit',
    amountPence: null,
    percentHundredths: null,
    dueKind: 'after_booking',
    dueDays: DEFAULT_DEPOSIT_DUE_DAYS,
    dueDate: null,
  },
  {
    label: 'Balance',
    amountKind: 'rest',
    amountPence: null,
    percentHundredths: null,
    dueKind: 'before_departure',
    dueDays: DEFAULT_BALANCE_DAYS_BEFORE_DEPARTURE,
    dueDate: null,
  },
];

/** What is wrong with a plan as a whole (its rows are checked by the contract), by field. */
export function planRefusal(plan: Instalment[]): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  const rests = plan.filter((i) => i.amountKind === 'rest').length;
  if (rests !== 1) errors.instalments = ['A plan needs exactly one instalment for the rest of the trip cost.'];
  if (plan.filter((i) => i.amountKind === 'deposit').length > 1)
    (errors.instalments ??= []).push("Only one instalment can be the trip's deposit.");
  return Object.keys(errors).length ? errors : null;
}

/**
 * Pence of each percentage instalment, so that together they are exactly their share of the cost:
 * each takes the difference of the rounded running totals (12 × 8.33…% never loses or gains a penny).
 */
function percentShares(plan: Instalment[], costPence: number): Map<number, number> {
  const shares = new Map<number, number>();
  let running = 0;
  let before = 0;
  plan.forEach((i, index) => {
    if (i.amountKind !== 'percent') return;
    running += i.percentHundredths ?? 0;
    const upTo = Math.round((costPence * running) / 10_000);
    shares.set(index, upTo - before);
    before = upTo;
  });
  return shares;
}

/**
 * A booking's schedule from its trip's plan: amounts in pence that add up to the trip cost (the
 * rest takes what the others leave; no instalment takes more than is left, so a plan whose fixed
 * amounts exceed a cheap trip's cost still adds up), due dates from the booking day and the
 * departure. An instalment that would be due before today is due today (a late booking pays its
 * early instalments at once; no reminder is owed for days that have gone), and none is due after
 * departure. Instalments of £0 are left out. The first instalment is raised as a deposit
 * invoice, the others as balance invoices.
 */
export function buildSchedule(
  plan: Instalment[],
  trip: { costPence: number; depositPence: number; departure: string },
  booking: { bookedOn: string; today: string },
): ScheduledInstalment[] {
  const shares = percentShares(plan, trip.costPence);
  let left = trip.costPence;
  const amounts = plan.map((i, index) => {
    if (i.amountKind === 'rest') return 0;
    const wanted =
      i.amountKind === 'fixed'
        ? (i.amountPence ?? 0)
        : i.amountKind === 'deposit'
          ? trip.depositPence
          : (shares.get(index) ?? 0);
    const amount = Math.max(0, Math.min(wanted, left));
    left -= amount;
    return amount;
  });
  const restIndex = plan.findIndex((i) => i.amountKind === 'rest');
  if (restIndex >= 0) amounts[restIndex] = left;
  const earliest = booking.today > booking.bookedOn ? booking.today : booking.bookedOn;
  const rows: ScheduledInstalment[] = [];
  plan.forEach((i, index) => {
    const amountPence = amounts[index]!;
    if (amountPence === 0) return;
    const due = dueDate(i, booking.bookedOn, trip.departure);
    const clamped =
      due < earliest ? earliest : due > trip.departure && earliest <= trip.departure ? trip.departure : due;
    rows.push({
      position: rows.length + 1,
      label: i.label,
      dueDate: clamped,
      amountPence,
      invoiceType: rows.length === 0 ? 'deposit' : 'balance',
    });
  });
  return rows;
}

function dueDate(i: Instalment, bookedOn: string, departure: string): string {
  if (i.dueKind === 'fixed_date') return i.dueDate!;
  if (i.dueKind === 'after_booking') return addDays(bookedOn, i.dueDays ?? 0);
  return addDays(departure, -(i.dueDays ?? 0));
}

/** A row's state: waived and invoiced are stored; paid and overdue come from its invoice and the day. */
export function rowState(
  row: { waived: boolean; dueDate: string; invoice: { paid: boolean } | null },
  today: string,
): ScheduleState {
  if (row.waived) return 'waived';
  if (row.invoice?.paid) return 'paid';
  if (row.dueDate < today) return 'overdue';
  return row.invoice ? 'invoiced' : 'scheduled';
}
