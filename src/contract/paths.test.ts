import { describe, expect, it } from 'vitest';
import { isAppPath, path, routes } from './paths.ts';

describe('the paths of the app', () => {
  it('keeps the spec’s route names and patterns', () => {
    expect(routes['user-list']).toBe('/users');
    expect(routes['user-edit']).toBe('/users/:id/edit');
    expect(routes['charity-list']).toBe('/charities');
    expect(routes['charity-edit']).toBe('/charities/:id/edit');
    expect(routes['discount-list']).toBe('/discounts');
    expect(routes['discount-edit']).toBe('/discounts/:discountID/edit');
    expect(routes['discount-new']).toBe('/discounts/new');
  });

  it('fills in parameters', () => {
    expect(path('charity-edit', { id: 7 })).toBe('/charities/7/edit');
    expect(path('discount-edit', { discountID: 12 })).toBe('/discounts/12/edit');
    expect(path('booking-list')).toBe('/bookings');
  });

  it('knows which paths a screen serves', () => {
    expect(isAppPath('/bookings/15')).toBe(true);
    expect(isAppPath('/invoices/3')).toBe(true);
    expect(isAppPath('/trips/3/edit/')).toBe(true);
    expect(isAppPath('/trips/3/delete')).toBe(false);
    expect(isAppPath('/nope')).toBe(false);
    expect(isAppPath('/admin/jobs')).toBe(true);
    expect(isAppPath('/settings/emails')).toBe(true);
    expect(isAppPath('/settings/countries')).toBe(true);
    expect(isAppPath('/trips/3/readiness')).toBe(true);
    expect(isAppPath('/admin/retention')).toBe(true);
    expect(isAppPath('/admin')).toBe(false);
    expect(isAppPath('/settings/emails/1')).toBe(false);
    expect(isAppPath('/money')).toBe(true);
    expect(isAppPath('/money/7')).toBe(false);
    expect(path('money-due')).toBe('/money');
  });
});
