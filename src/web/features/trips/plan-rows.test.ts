import { describe, expect, it } from 'vitest';
import { paymentPlanInputSchema, type PaymentPlan } from '../../../contract/schedules.ts';
import { addMonths, maxMonthly, monthlyRows, suggestedPercent, toPlanInput, toPlanValues } from './plan-rows.ts';

describe('the plan editor rows', () => {
  it('fills a monthly plan the contract accepts: the deposit, N percentages 30 days apart, the balance for the rest', () => {
    const rows = monthlyRows({
      deposit: true,
      count: 3,
      percent: '20',
      mode: 'days',
      firstDays: 30,
      firstDate: null,
      balanceDays: 56,
    });
    expect(rows.map((r) => [r.label, r.amount_kind, r.percent, r.due_kind, r.due_days])).toEqual([
      ['Deposit', 'deposit', '', 'after_booking', '14'],
      ['Instalment 1', 'percent', '20', 'after_booking', '30'],
      ['Instalment 2', 'percent', '20', 'after_booking', '60'],
      ['Instalment 3', 'percent', '20', 'after_booking', '90'],
      ['Balance', 'rest', '', 'before_departure', '56'],
    ]);
    const parsed = paymentPlanInputSchema.parse(toPlanInput({ instalments: rows }));
    expect(parsed.instalments.map((i) => i.percentHundredths)).toEqual([null, 2000, 2000, 2000, null]);
  });

  it('puts monthly fixed dates on the same day of each month, kept within short months', () => {
    const rows = monthlyRows({
      deposit: false,
      count: 3,
      percent: '10',
      mode: 'dates',
      firstDays: 30,
      firstDate: '2027-01-31',
      balanceDays: 56,
    });
    expect(rows.map((r) => r.due_date)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', null]);
    expect(addMonths('2027-11-15', 3)).toBe('2028-02-15');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
  });

  it('leaves room for the deposit and the balance within 24 instalments', () => {
    expect(maxMonthly(true)).toBe(22);
    expect(maxMonthly(false)).toBe(23);
  });

  it('suggests a monthly share that leaves a balance about the size of one more', () => {
    // £3,000 with a £600 deposit: 80% left over 5 instalments and the balance = 13.33% each
    expect(suggestedPercent(5, true, { cost: 3000, deposit: 600 })).toBe('13.33');
    expect(suggestedPercent(3, false, { cost: 0, deposit: 0 })).toBe('25');
  });

  it('round-trips a saved plan, sending only the fields each kind uses', () => {
    const plan = {
      instalments: [
        {
          position: 1,
          label: 'Deposit',
          amount_kind: 'fixed',
          amount: 250,
          percent: null,
          due_kind: 'after_booking',
          due_days: 7,
          due_date: null,
        },
        {
          position: 2,
          label: 'Balance',
          amount_kind: 'rest',
          amount: null,
          percent: null,
          due_kind: 'fixed_date',
          due_days: null,
          due_date: '2027-05-01',
        },
      ],
    } as PaymentPlan;
    const values = toPlanValues(plan);
    expect(values.instalments[0]).toMatchObject({ amount: '250.00', due_days: '7' });
    expect(toPlanInput(values).instalments).toEqual([
      { label: 'Deposit', amount_kind: 'fixed', amount: '250.00', due_kind: 'after_booking', due_days: '7' },
      { label: 'Balance', amount_kind: 'rest', due_kind: 'fixed_date', due_date: '2027-05-01' },
    ]);
  });
});
