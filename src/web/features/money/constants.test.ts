import { describe, expect, it } from 'vitest';
import * as contract from '../../../contract/money-due.ts';
import { AGE_BUCKET_LABELS, AGE_BUCKETS, MONEY_DUE_SORTS } from './constants.ts';

describe('the money-due screen’s copy of the contract’s values', () => {
  it('is the contract’s own', () => {
    expect(AGE_BUCKETS).toEqual(contract.AGE_BUCKETS);
    expect(AGE_BUCKET_LABELS).toEqual(contract.AGE_BUCKET_LABELS);
    expect(MONEY_DUE_SORTS).toEqual(contract.MONEY_DUE_SORTS);
  });
});
