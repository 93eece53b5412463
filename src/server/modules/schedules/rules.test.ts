import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSchedule, DEFAULT_PLAN, type Instalment, planRefusal, rowState } from './rules.ts';

const pct = (label: string, percent: number, dueDays: number): Instalment => ({
  label,
  amountKind: 'percent',
  amountPence: null,
  percentHundredths: Math.round(percent * 100),
  dueKind: 'before_departure',
  dueDays,
  dueDate: null,
});
const rest = (label = 'Balance', dueDays = 56): Instalment => ({
  label,
  amountKind: 'rest',
  amountPence: null,
  percentHundredths: null,
  dueKind: 'before_departure',
  dueDays,
  dueDate: null,
});
const fixed = (label: string, pence: number, due: Partial<Instalment> = {}): Instalment => ({
  label,
  amountKind: 'fixed',
  amountPence: pence,
  percentHundredths: null,
  dueKind: 'after_booking',
  dueDays: 7,
  dueDate: null,
  ...due,
});
const trip = { costPence: 250_000, depositPence: 35_000, departure: '2031-06-01' };

describe('the default plan', () => {
  it("is today's rule: the trip's deposit 14 days after booking, the rest 56 days before departure", () => {
    expect(buildSchedule(DEFAULT_PLAN, trip, { bookedOn: '2031-01-10', today: '2031-01-10' })).toEqual([
      { position: 1, label: 'Deposit', dueDate: '2031-01-24', amountPence: 35_000, invoiceType: 'deposit' },
      { position: 2, label: 'Balance', dueDate: '2031-04-06', amountPence: 215_000, invoiceType: 'balance' },
    ]);
  });

  it('a late booking owes what is already past today, and nothing after departure', () => {
    expect(buildSchedule(DEFAULT_PLAN, trip, { bookedOn: '2031-05-25', today: '2031-05-25' })).toEqual([
      { position: 1, label: 'Deposit', dueDate: '2031-06-01', amountPence: 35_000, invoiceType: 'deposit' },
      { position: 2, label: 'Balance', dueDate: '2031-05-25', amountPence: 215_000, invoiceType: 'balance' },
    ]);
  });

  it('a trip that costs nothing has nothing to schedule; one cheaper than its deposit bills the cost once', () => {
    expect(
      buildSchedule(
        DEFAULT_PLAN,
        { ...trip, costPence: 0, depositPence: 0 },
        { bookedOn: '2031-01-10', today: '2031-01-10' },
      ),
    ).toEqual([]);
    expect(
      buildSchedule(DEFAULT_PLAN, { ...trip, costPence: 20_000 }, { bookedOn: '2031-01-10', today: '2031-01-10' }).map(
        (r) => r.amountPence,
      ),
    ).toEqual([20_000]);
  });
});

describe('plans', () => {
  it('monthly instalments of a third never lose or gain a penny', () => {
    const plan = [pct('First', 33.33, 150), pct('Second', 33.33, 120), rest('Last', 90)];
    const rows = buildSchedule(plan, { ...trip, costPence: 100_001 }, { bookedOn: '2031-01-01', today: '2031-01-01' });
    expect(rows.map((r) => r.amountPence)).toEqual([33_330, 33_331, 33_340]);
    expect(rows.map((r) => r.invoiceType)).toEqual(['deposit', 'balance', 'balance']);
  });

  it('a fixed date in the past is due today', () => {
    const rows = buildSchedule(
      [fixed('Registration', 5_000, { dueKind: 'fixed_date', dueDays: null, dueDate: '2030-12-01' }), rest()],
      trip,
      { bookedOn: '2031-01-10', today: '2031-01-10' },
    );
    expect(rows[0]).toMatchObject({ dueDate: '2031-01-10', amountPence: 5_000 });
  });

  it('needs exactly one instalment for the rest, and at most one deposit', () => {
    expect(planRefusal(DEFAULT_PLAN)).toBeNull();
    expect(planRefusal([fixed('A', 100)])).toEqual({
      instalments: ['A plan needs exactly one instalment for the rest of the trip cost.'],
    });
    expect(planRefusal([rest(), rest()])).not.toBeNull();
    expect(planRefusal([DEFAULT_PLAN[0]!, DEFAULT_PLAN[0]!, rest()])).toEqual({
      instalments: ["Only one instalment can be the trip's deposit."],
    });
  });

  const instalment = fc.oneof(
    fc.record({ kind: fc.constant('fixed' as const), pence: fc.integer({ min: 1, max: 500_000 }) }),
    fc.record({ kind: fc.constant('percent' as const), hundredths: fc.integer({ min: 1, max: 10_000 }) }),
    fc.record({ kind: fc.constant('deposit' as const) }),
  );
  const day = (offset: number) => new Date(Date.UTC(2031, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

  it('always adds up to the trip cost exactly, with no row below zero or outside booking day…departure', () => {
    fc.assert(
      fc.property(
        fc.array(instalment, { maxLength: 23 }),
        fc.nat({ max: 23 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 120 }),
        (parts, restAt, costPence, depositPence, bookedOffset, tripLength, days) => {
          const plan: Instalment[] = parts.map((p, n) =>
            p.kind === 'fixed'
              ? fixed(`F${n}`, p.pence, { dueDays: days })
              : p.kind === 'percent'
                ? { ...rest(`P${n}`, days), amountKind: 'percent', percentHundredths: p.hundredths }
                : { ...DEFAULT_PLAN[0]!, label: `D${n}` },
          );
          plan.splice(Math.min(restAt, plan.length), 0, rest('Rest', days));
          const bookedOn = day(bookedOffset);
          const departure = day(bookedOffset + tripLength);
          const rows = buildSchedule(plan, { costPence, depositPence, departure }, { bookedOn, today: bookedOn });
          expect(rows.reduce((s, r) => s + r.amountPence, 0)).toBe(costPence);
          for (const r of rows) {
            expect(r.amountPence).toBeGreaterThan(0);
            expect(r.dueDate >= bookedOn && r.dueDate <= departure).toBe(true);
          }
          expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i + 1));
        },
      ),
    );
  });
});

describe('a row’s state', () => {
  it('is waived, paid, overdue, invoiced or scheduled, in that order of precedence', () => {
    const today = '2031-03-01';
    expect(rowState({ waived: true, dueDate: '2031-01-01', invoice: null }, today)).toBe('waived');
    expect(rowState({ waived: false, dueDate: '2031-01-01', invoice: { paid: true } }, today)).toBe('paid');
    expect(rowState({ waived: false, dueDate: '2031-02-28', invoice: { paid: false } }, today)).toBe('overdue');
    expect(rowState({ waived: false, dueDate: '2031-02-28', invoice: null }, today)).toBe('overdue');
    expect(rowState({ waived: false, dueDate: '2031-03-01', invoice: { paid: false } }, today)).toBe('invoiced');
    expect(rowState({ waived: false, dueDate: '2031-03-01', invoice: null }, today)).toBe('scheduled');
  });
});
