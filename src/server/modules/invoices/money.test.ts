import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  balanceDue,
  deletionRefusal,
  discountRefusal,
  type DiscountRule,
  type Entry,
  type InvoiceMoney,
  summarise,
  transactionRefusal,
} from './money.ts';
import { addDays, ukToday } from '../../../contract/dates.ts';

const TODAY = '2026-11-22';
const invoice = (over: Partial<InvoiceMoney> = {}): InvoiceMoney => ({
  itemsPence: [25_000],
  addonsPence: [],
  discountPence: 0,
  dueDate: '2026-12-06',
  entries: [],
  ...over,
});
const pay = (amountPence: number, deleted = false): Entry => ({ type: 'payment', amountPence, deleted });
const refund = (amountPence: number, deleted = false): Entry => ({ type: 'refund', amountPence, deleted });

describe('summarise', () => {
  it('totals items and add-ons less the discount', () => {
    const s = summarise(invoice({ itemsPence: [10_000, 5_050], addonsPence: [2_500], discountPence: 1_000 }), TODAY);
    expect(s).toMatchObject({
      subtotalPence: 17_550,
      discountPence: 1_000,
      totalPence: 16_550,
      outstandingPence: 16_550,
      status: 'Unpaid',
      paid: false,
    });
  });

  it('never lets a discount take the total below nothing', () => {
    expect(summarise(invoice({ itemsPence: [1_000], discountPence: 5_000 }), TODAY)).toMatchObject({
      discountPence: 1_000,
      totalPence: 0,
      paid: true,
      status: 'Paid',
    });
  });

  it('reads Part Paid, Paid, Refunded and Overdue from live entries only', () => {
    expect(summarise(invoice({ entries: [pay(10_000)] }), TODAY)).toMatchObject({
      receivedPence: 10_000,
      outstandingPence: 15_000,
      status: 'Part Paid',
    });
    expect(summarise(invoice({ entries: [pay(10_000), pay(15_000)] }), TODAY)).toMatchObject({
      outstandingPence: 0,
      status: 'Paid',
      paid: true,
    });
    expect(summarise(invoice({ entries: [pay(25_000), refund(25_000)] }), TODAY)).toMatchObject({
      receivedPence: 0,
      refundedPence: 25_000,
      status: 'Refunded',
    });
    expect(summarise(invoice({ dueDate: '2026-11-21' }), TODAY).status).toBe('Overdue');
    expect(summarise(invoice({ dueDate: TODAY }), TODAY).status).toBe('Unpaid');
    expect(summarise(invoice({ entries: [pay(25_000, true)] }), TODAY)).toMatchObject({
      receivedPence: 0,
      status: 'Unpaid',
    });
  });
});

describe('pastDue', () => {
  it('marks money still owed after the due date, a part-paid invoice too, and nothing once paid', () => {
    expect(summarise(invoice({ dueDate: '2026-11-21', entries: [pay(10_000)] }), TODAY)).toMatchObject({
      status: 'Part Paid',
      pastDue: true,
    });
    expect(summarise(invoice({ dueDate: '2026-11-21', entries: [pay(25_000)] }), TODAY).pastDue).toBe(false);
    expect(summarise(invoice({ dueDate: TODAY }), TODAY).pastDue).toBe(false);
  });
});

describe('transactionRefusal', () => {
  const s = (entries: Entry[]) => summarise(invoice({ entries }), TODAY);
  it('takes a payment up to what is outstanding and refuses more, or a paid invoice', () => {
    expect(transactionRefusal(s([pay(10_000)]), 'payment', 15_000)).toBeNull();
    expect(transactionRefusal(s([pay(10_000)]), 'payment', 15_001)).toBe(
      'This payment of £150.01 is more than the £150.00 outstanding on this invoice.',
    );
    expect(transactionRefusal(s([pay(25_000)]), 'payment', 1)).toMatch(/already paid in full/);
  });
  it('takes a refund up to what was paid and not yet refunded', () => {
    expect(transactionRefusal(s([pay(10_000), refund(4_000)]), 'refund', 6_000)).toBeNull();
    expect(transactionRefusal(s([pay(10_000), refund(4_000)]), 'refund', 6_001)).toBe(
      'This refund of £60.01 is more than the £60.00 paid and not yet refunded on this invoice.',
    );
    expect(transactionRefusal(s([]), 'refund', 100)).toMatch(/nothing to refund/);
  });
  it('refuses nothing or less', () => {
    expect(transactionRefusal(s([]), 'payment', 0)).toMatch(/more than £0.00/);
  });
});

describe('deletionRefusal', () => {
  it('strikes out a payment unless its money was refunded since', () => {
    expect(deletionRefusal(invoice({ entries: [pay(10_000), pay(5_000)] }), 0, TODAY)).toBeNull();
    expect(deletionRefusal(invoice({ entries: [pay(10_000), refund(10_000)] }), 0, TODAY)).toMatch(
      /delete the refund first/,
    );
    expect(deletionRefusal(invoice({ entries: [pay(10_000, true)] }), 0, TODAY)).toMatch(/already been deleted/);
  });
  it('strikes out a refund unless the payments since would then exceed the total', () => {
    expect(deletionRefusal(invoice({ entries: [pay(25_000), refund(5_000)] }), 1, TODAY)).toBeNull();
    expect(deletionRefusal(invoice({ entries: [pay(25_000), refund(5_000), pay(5_000)] }), 1, TODAY)).toMatch(
      /more would have been paid/,
    );
  });
});

describe('balanceDue', () => {
  it('is the cost plus add-ons not yet invoiced, less the travel-basis discount and what was billed', () => {
    expect(
      balanceDue({
        costPence: 189_500,
        travelBasisDiscountPence: 15_000,
        earlierBilledPence: 25_000,
        uninvoicedAddonsPence: [29_500, 4_000],
      }),
    ).toEqual({
      tripPence: 149_500,
      addonsPence: 33_500,
      totalPence: 183_000,
    });
  });
  it('bills only the add-ons once the trip cost has been billed', () => {
    expect(
      balanceDue({
        costPence: 100_000,
        travelBasisDiscountPence: 0,
        earlierBilledPence: 100_000,
        uninvoicedAddonsPence: [2_000],
      }),
    ).toEqual({ tripPence: 0, addonsPence: 2_000, totalPence: 2_000 });
    expect(
      balanceDue({
        costPence: 100_000,
        travelBasisDiscountPence: 0,
        earlierBilledPence: 120_000,
        uninvoicedAddonsPence: [],
      }).totalPence,
    ).toBe(0);
  });
});

describe('discountRefusal', () => {
  const code = (over: Partial<DiscountRule> = {}): DiscountRule => ({
    code: 'SPRING25',
    invoiceType: 'any',
    tripId: null,
    validFrom: null,
    validUntil: null,
    usageLimit: 1,
    usageCount: 0,
    ...over,
  });
  const at = { invoiceType: 'balance' as const, tripId: 7, today: TODAY };
  it('applies a code for any or the same invoice type, any or the same trip, inside its dates, with a use left', () => {
    expect(discountRefusal(code(), at)).toBeNull();
    expect(
      discountRefusal(code({ invoiceType: 'balance', tripId: 7, validFrom: TODAY, validUntil: TODAY }), at),
    ).toBeNull();
  });
  it('says why it does not apply', () => {
    expect(discountRefusal(code({ invoiceType: 'deposit' }), at)).toBe(
      'The discount code SPRING25 is only for deposit invoices.',
    );
    expect(discountRefusal(code({ tripId: 8 }), at)).toBe('The discount code SPRING25 is for another trip.');
    expect(discountRefusal(code({ validFrom: '2026-11-23' }), at)).toBe(
      'The discount code SPRING25 cannot be used before 23/11/2026.',
    );
    expect(discountRefusal(code({ validUntil: '2026-11-21' }), at)).toBe(
      'The discount code SPRING25 expired on 21/11/2026.',
    );
    expect(discountRefusal(code({ usageLimit: 3, usageCount: 3 }), at)).toBe(
      'The discount code SPRING25 has been used up.',
    );
  });
});

describe('dates', () => {
  it('counts days across month ends and gives today on UK days', () => {
    expect(addDays('2026-11-22', 14)).toBe('2026-12-06');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
    // 23:30 UTC on 31 March 2027 is already 1 April in London (BST)
    expect(ukToday(new Date('2027-03-31T23:30:00Z'))).toBe('2027-04-01');
  });
});

describe('money properties', () => {
  // any sequence of payments, refunds and deletions that the rules accept
  const op = fc.oneof(
    fc.record({ kind: fc.constant('payment' as const), pence: fc.integer({ min: 1, max: 300_000 }) }),
    fc.record({ kind: fc.constant('refund' as const), pence: fc.integer({ min: 1, max: 300_000 }) }),
    fc.record({ kind: fc.constant('delete' as const), index: fc.nat(40) }),
  );
  const invoiceArb = fc.record({
    itemsPence: fc.array(fc.integer({ min: 1, max: 500_000 }), { maxLength: 5 }),
    addonsPence: fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 3 }),
    discountPence: fc.integer({ min: 0, max: 200_000 }),
    dueDate: fc.constantFrom('2026-01-01', '2027-01-01'),
  });

  it('keeps what was received between nothing and the total, and the totals reconciled', () => {
    fc.assert(
      fc.property(invoiceArb, fc.array(op, { maxLength: 40 }), (base, ops) => {
        const inv: InvoiceMoney = { ...base, entries: [] };
        for (const o of ops) {
          const before = summarise(inv, TODAY);
          if (o.kind === 'delete') {
            if (inv.entries.length === 0) continue;
            const i = o.index % inv.entries.length;
            if (deletionRefusal(inv, i, TODAY) === null) inv.entries[i] = { ...inv.entries[i]!, deleted: true };
          } else if (transactionRefusal(before, o.kind, o.pence) === null) {
            inv.entries.push({ type: o.kind, amountPence: o.pence, deleted: false });
          }
          const s = summarise(inv, TODAY);
          const live = inv.entries.filter((e) => !e.deleted);
          const sum = (type: string) => live.filter((e) => e.type === type).reduce((a, e) => a + e.amountPence, 0);
          expect(s.receivedPence).toBeGreaterThanOrEqual(0);
          expect(s.receivedPence).toBeLessThanOrEqual(s.totalPence);
          expect(s.receivedPence).toBe(sum('payment') - sum('refund'));
          expect(s.outstandingPence + s.receivedPence).toBe(s.totalPence);
          expect(s.totalPence + s.discountPence).toBe(s.subtotalPence);
          expect(s.paid).toBe(s.outstandingPence === 0);
          expect(Number.isInteger(s.totalPence) && Number.isInteger(s.outstandingPence)).toBe(true);
          if (s.status === 'Paid') expect(s.outstandingPence).toBe(0);
          if (s.status === 'Part Paid') expect(s.receivedPence > 0 && s.outstandingPence > 0).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('bills a balance that with the earlier invoices never exceeds the cost less the discount, plus add-ons', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.integer({ min: 0, max: 50_000 }), { maxLength: 4 }),
        (cost, basis, billed, addons) => {
          const due = balanceDue({
            costPence: cost,
            travelBasisDiscountPence: basis,
            earlierBilledPence: billed,
            uninvoicedAddonsPence: addons,
          });
          expect(due.tripPence).toBeGreaterThanOrEqual(0);
          expect(due.totalPence).toBe(due.tripPence + addons.reduce((a, b) => a + b, 0));
          if (cost - basis >= billed) expect(billed + due.tripPence).toBe(cost - basis);
        },
      ),
    );
  });
});
