import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, changeRequests } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let t: TestApp;
let admin: TestClient;
const today = () => ukToday(new Date());

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
/** A traveller signed in to their own pages, with a booking the office made for them on a trip this many days away. */
async function travellerWithBooking(daysAway: number) {
  n += 1;
  const email = `asking.traveller${n}@example.test`;
  const traveller = await t.signedIn(3, email);
  const departure = addDays(today(), daysAway);
  const trip = await insertTrip(t.db, { departureDate: departure, returnDate: addDays(departure, 7) });
  const res = await admin.post('/api/bookings', {
    trip_id: trip.id,
    title: 'Mr',
    first_name: 'Ash',
    preferred_name: 'Ash',
    last_name: `Asker${n}`,
    email,
    as_on_passport: true,
    terms_accepted: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { traveller, booking: res.json() as { id: number; ref: string }, trip };
}

describe('a traveller’s asks to cancel or change', () => {
  it('shows the fee that would apply today, takes one ask of each kind into the office’s queue, and cancels nothing', async () => {
    const { traveller, booking } = await travellerWithBooking(40);
    const view = await traveller.get(`/api/my/bookings/${booking.id}/changes`);
    expect(view.statusCode, view.body).toBe(200);
    // 40 days out: the default scale keeps half the trip cost — the staff preview's figures
    const staff = (await admin.get(`/api/bookings/${booking.id}/cancel/preview`)).json();
    expect(view.json()).toEqual({
      may_ask: true,
      cancel: {
        days_before_departure: 40,
        band: staff.band.label,
        fee: staff.fee,
        paid: 0,
        refund_owed: 0,
        still_owed: staff.still_owed,
      },
      requests: [],
    });

    const empty = await traveller.post(`/api/my/bookings/${booking.id}/changes`, { kind: 'cancel', message: ' ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.message).toEqual(['Tell us what you would like.']);

    const asked = await traveller.post(`/api/my/bookings/${booking.id}/changes`, {
      kind: 'cancel',
      message: 'I have broken my ankle and cannot come.',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().requests).toMatchObject([{ kind: 'cancel', state: 'open' }]);
    const again = await traveller.post(`/api/my/bookings/${booking.id}/changes`, { kind: 'cancel', message: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You have already asked to cancel this booking: the office will reply to you.');
    expect(
      (
        await traveller.post(`/api/my/bookings/${booking.id}/changes`, {
          kind: 'change',
          message: 'Or could I go next year?',
        })
      ).statusCode,
    ).toBe(201);

    // nothing is cancelled; the office sees both
    expect((await admin.get(`/api/bookings/${booking.id}`)).json().status).toBe('provisional');
    const queue = (await admin.get(`/api/change-requests?booking_id=${booking.id}`)).json();
    expect(queue.data.map((r: { kind: string; state: string }) => [r.kind, r.state])).toEqual([
      ['cancel', 'open'],
      ['change', 'open'],
    ]);
    expect(queue.data[0]).toMatchObject({
      booking_ref: booking.ref,
      message: 'I have broken my ankle and cannot come.',
    });
    expect((await admin.get('/api/change-requests?state=open')).json().open).toBeGreaterThanOrEqual(2);

    // another traveller's booking is not found
    const other = await travellerWithBooking(40);
    expect((await other.traveller.get(`/api/my/bookings/${booking.id}/changes`)).statusCode).toBe(404);
    expect(
      (await other.traveller.post(`/api/my/bookings/${booking.id}/changes`, { kind: 'cancel', message: 'x' }))
        .statusCode,
    ).toBe(404);
    // staff routes are not the traveller's
    expect((await traveller.get('/api/change-requests')).statusCode).toBe(403);

    // the office declines the change and cancels: the ask to cancel is done by the cancellation
    const change = queue.data[1].id;
    const declined = await admin.post(`/api/change-requests/${change}/close`, {
      outcome: 'declined',
      note: 'Next year is not on sale yet',
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({ state: 'declined', closed_note: 'Next year is not on sale yet' });
    expect((await admin.post(`/api/change-requests/${change}/close`, { outcome: 'done' })).statusCode).toBe(409);
    const cancelled = await admin.post(`/api/bookings/${booking.id}/cancel`, { reason: 'Injury', notify: false });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const [cancelAsk] = await t.db
      .select()
      .from(changeRequests)
      .where(and(eq(changeRequests.bookingId, booking.id), eq(changeRequests.kind, 'cancel')));
    expect([cancelAsk!.state, cancelAsk!.closedNote]).toEqual(['done', 'The booking was cancelled.']);

    const mine = (await traveller.get(`/api/my/bookings/${booking.id}/changes`)).json();
    expect(mine.may_ask).toBe(false);
    expect(mine.requests.map((r: { state: string }) => r.state).sort()).toEqual(['declined', 'done']);
    const refused = await traveller.post(`/api/my/bookings/${booking.id}/changes`, {
      kind: 'change',
      message: 'Hello',
    });
    expect(refused.statusCode).toBe(409);

    const events = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.bookingId, booking.id));
    const actions = events.map((e) => e.action);
    expect(actions.filter((a) => a === 'booking.change_requested')).toHaveLength(2);
    expect(actions.filter((a) => a === 'booking.change_request_closed')).toHaveLength(2);
  });
});
