import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/overview', () => {
  it('counts bookings by status and lists the next departures with their live bookings', async () => {
    const soon = await insertTrip(t.db, { name: 'Soon Trek', departureDate: '2099-01-10', returnDate: '2099-01-20' });
    const later = await insertTrip(t.db, { name: 'Later Trek', departureDate: '2099-03-10', returnDate: '2099-03-20' });
    await insertTrip(t.db, { name: 'Past Trek', departureDate: '2020-03-10', returnDate: '2020-03-20' });
    await insertTrip(t.db, {
      name: 'Archived Trek',
      departureDate: '2099-02-10',
      returnDate: '2099-02-20',
      archivedAt: new Date(),
    });
    await insertBooking(t.db, later.id, { status: 'confirmed' });
    await insertBooking(t.db, later.id, { status: 'provisional' });
    await insertBooking(t.db, later.id, { status: 'cancelled' });
    await insertBooking(t.db, soon.id, { status: 'confirmed' });
    const c = await t.signedIn(1);
    const res = await c.get('/api/overview');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.bookings).toEqual({ total: 4, confirmed: 2, provisional: 1, cancelled: 1, received_last_30_days: 4 });
    expect(body.upcoming_trips).toBe(2);
    expect(body.next_departures.map((d: { name: string; booking_count: number }) => [d.name, d.booking_count])).toEqual(
      [
        ['Soon Trek', 1],
        ['Later Trek', 2],
      ],
    );
  });
});
