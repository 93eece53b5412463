import { beforeEach, describe, expect, it } from 'vitest';
import { pushFlash, takeFlash } from './flash.ts';

beforeEach(() => sessionStorage.clear());

describe('the flash queue', () => {
  it('hands its messages to the first reader, in order, then is empty', () => {
    pushFlash('Charity record has been added');
    pushFlash('Discount has been created', 'Second');
    expect(takeFlash()).toEqual(['Charity record has been added', 'Discount has been created', 'Second']);
    expect(takeFlash()).toEqual([]);
  });

  it('survives a reload between the two screens (sessionStorage)', () => {
    pushFlash('User record updated');
    expect(JSON.parse(sessionStorage.getItem('tripdesk.flash')!)).toEqual(['User record updated']);
  });

  it('ignores whatever else was stored under its key', () => {
    sessionStorage.setItem('tripdesk.flash', '{not json');
    expect(takeFlash()).toEqual([]);
    sessionStorage.setItem('tripdesk.flash', JSON.stringify(['ok', 3, null]));
    expect(takeFlash()).toEqual(['ok']);
  });
});
