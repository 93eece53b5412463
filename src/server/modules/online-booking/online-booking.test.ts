import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import {
  BOOKING_CLOSED,
  OFFER_GONE,
  publicBookingSchema,
  saveOnlineBookingSchema,
  TRIP_FULL,
  WAITING_LIST_JOINED,
  slugOf,
} from '../../../contract/online-booking.ts';
import { ROLES } from '../../../contract/constants.ts';
import { queryRows } from '../../../db/client.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertAddon, insertTrip } from '../../../db/factories/trips.ts';
import {
  auditEvents,
  bookings,
  bookingSetups,
  charities,
  discounts,
  invoices,
  scheduleRows,
  tripAddons,
  trips,
  users,
  waitingListEntries,
} from '../../../db/schema/index.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../../tests/support/stripe-stand-in.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { systemClock, type Clock } from '../../clock.ts';
import { operatorOf } from '../../config.ts';
import { createMailer } from '../../mail/transport.ts';
import { OnlineBookingService, planInWords } from './service.ts';
import { WaitingListService } from './waiting-list.ts';

let stripe: StripeStandIn;
let sink: Awaited<ReturnType<typeof smtpSink>>;
let t: TestApp;
let admin: TestClient;
// the app's clock, moved on by the tests of holds that run out
let shift = 0;
const clock: Clock = { ...systemClock, now: () => Date.now() + shift };
const today = () => ukToday(new Date(clock.now()));

beforeAll(async () => {
  stripe = await startStripeStandIn();
  sink = await smtpSink();
  t = await createTestApp(
    {
      smtpUrl: `smtp://127.0.0.1:${sink.port}`,
      stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.url },
      publicUrl: 'https://book.operator.test',
    },
    { appClock: clock },
  );
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
  await stripe?.close();
});
beforeEach(() => {
  shift = 0;
});

/** The service as the hold job runs it, on the app's clock; `burst` and `finishAfterBurst` as BOOKING_BURST and a server set them. */
const holdJob = (perAddress = 10_000, burst = 1000, finishAfterBurst = true, pageCacheMs = 0) =>
  new OnlineBookingService({
    db: t.db,
    clock,
    operator: operatorOf(t.config),
    mailer: createMailer(t.config),
    holdMinutes: t.config.bookingHoldMinutes,
    termsUrl: t.config.operatorTermsUrl,
    publicUrl: t.config.publicUrl,
    cardPayments: true,
    perAddress,
    pageCacheMs,
    burst,
    finishAfterBurst,
  });

let n = 0;
/** A trip on sale online: £1,895, a £250 deposit due at booking, 150 days away. */
async function tripOnSale(overrides: Partial<typeof trips.$inferInsert> = {}, settings: Record<string, unknown> = {}) {
  n += 1;
  const departure = addDays(today(), 150);
  const trip = await insertTrip(t.db, {
    name: `Inca Trail ${n}`,
    departureDate: departure,
    returnDate: addDays(departure, 10),
    capacity: 20,
    type: 'open',
    ...overrides,
  });
  const res = await admin.put(`/api/trips/${trip.id}/online-booking`, {
    enabled: true,
    slug: `inca-trail-${n}`,
    funding_types: ['self'],
    discount_codes_allowed: true,
    description: 'Four days on the trail to Machu Picchu, guides, camping and meals.',
    ...settings,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { trip, slug: (res.json() as { slug: string }).slug };
}

let people = 0;
const traveller = (over: Record<string, unknown> = {}) => {
  people += 1;
  return {
    title: 'Ms',
    first_name: 'Grace',
    last_name: `Hopper${people}`,
    email: `grace${people}@example.test`,
    mobile: '07700 900123',
    date_of_birth: '1990-05-06',
    address_1: '1 Harbour Row',
    address_3: 'Bristol',
    post_code: 'BS1 4AA',
    funding_type: 'self',
    as_on_passport: true,
    terms_accepted: true,
    ...over,
  };
};

/** A visitor's browser on the trip's page: its CSRF token, as the page gives it. */
async function visitor(slug: string) {
  const client = t.client();
  await client.refreshCsrf(`/book/${slug}`);
  return client;
}

async function book(slug: string, over: Record<string, unknown> = {}) {
  const client = await visitor(slug);
  return client.post(`/api/public/trips/${slug}/bookings`, traveller(over));
}

const bookingByRef = async (ref: string) => (await t.db.select().from(bookings).where(eq(bookings.ref, ref)))[0]!;

describe('the office sets a trip’s online booking', () => {
  it('is off by default, and says what the page would offer', async () => {
    const trip = await insertTrip(t.db, { name: 'Everest Base Camp', capacity: 12, funding: 'self' });
    const res = await admin.get(`/api/trips/${trip.id}/online-booking`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      enabled: false,
      slug: null,
      url: null,
      state: 'off',
      funding_types: ['self'],
      funding_types_allowed: ['self', 'free'],
      places: { capacity: 12, taken: 0, held: 0, left: 12 },
      closes_on: null,
      closes_on_default: addDays(trip.departureDate, -56),
    });
  });

  it('makes the address from the trip’s name, records the change, and refuses what the trip does not allow', async () => {
    const trip = await insertTrip(t.db, { name: 'Kilimanjaro & Safari 2027!', capacity: 30, funding: 'self' });
    const refused = await admin.put(`/api/trips/${trip.id}/online-booking`, {
      enabled: true,
      slug: 'Not a slug!',
      closes_on: addDays(trip.departureDate, 1),
      funding_types: ['fundraise'],
      charity_ids: [1],
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors).sort()).toEqual(['slug']);
    const wrong = await admin.put(`/api/trips/${trip.id}/online-booking`, {
      enabled: true,
      closes_on: addDays(trip.departureDate, 1),
      funding_types: ['fundraise'],
      charity_ids: [1],
    });
    expect(wrong.statusCode).toBe(422);
    expect(Object.keys(wrong.json().errors).sort()).toEqual(['charity_ids', 'closes_on', 'funding_types']);
    expect((await t.db.select().from(trips).where(eq(trips.id, trip.id)))[0]!.onlineBooking).toBe(false);

    const ok = await admin.put(`/api/trips/${trip.id}/online-booking`, { enabled: true, funding_types: ['self'] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      enabled: true,
      slug: 'kilimanjaro-and-safari-2027',
      url: 'https://book.operator.test/book/kilimanjaro-and-safari-2027',
      state: 'open',
    });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tripId, trip.id), eq(auditEvents.action, 'trip.online_booking')));
    expect(event!.summary).toContain('the online booking of Kilimanjaro & Safari 2027!');
  });

  it('refuses an address another trip has, and a trip with no capacity', async () => {
    const { slug } = await tripOnSale();
    const other = await insertTrip(t.db, { capacity: 5 });
    const taken = await admin.put(`/api/trips/${other.id}/online-booking`, {
      enabled: true,
      slug,
      funding_types: ['self'],
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ slug: ['Another trip already has this address.'] });
    const open = await insertTrip(t.db, {});
    const none = await admin.put(`/api/trips/${open.id}/online-booking`, { enabled: true, funding_types: ['self'] });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.enabled[0]).toContain('capacity');
  });

  it('makes slugs people can read', () => {
    expect(slugOf('  Crème Brûlée Trek — Alps 2027 ')).toBe('creme-brulee-trek-alps-2027');
    expect(slugOf('!!!')).toBe('trip');
  });
});

describe('the public page', () => {
  it('shows the trip, its price, its plan in words and its choices, and nothing of anyone’s bookings', async () => {
    const { trip, slug } = await tripOnSale();
    await insertAddon(t.db, trip.id, 'Single tent', 12_000);
    await insertBooking(t.db, trip.id, { firstName: 'Secret', lastName: 'Traveller', email: 'secret@example.test' });
    const res = await t.client().get(`/api/public/trips/${slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    const page = res.json();
    expect(page).toMatchObject({
      name: trip.name,
      price: 1895,
      deposit: 250,
      state: 'open',
      places_left: null,
      funding_types: [{ value: 'self', label: 'Self-funded' }],
      addons: [{ name: 'Single tent', price: 120 }],
      terms_url: 'https://tripdesk.test/terms',
      card_payments: true,
      description: 'Four days on the trail to Machu Picchu, guides, camping and meals.',
    });
    expect(page.plan_text).toMatch(/^£250\.00 now, then £1,645\.00 on \d+ \w+ \d{4}$/);
    expect(JSON.stringify(page)).not.toMatch(/Secret|secret@|capacity|charity_id|notes/);
  });

  it('gives an ETag, answers 304 when it is unchanged, and a booking here shows at once in the places left', async () => {
    const { slug } = await tripOnSale({ capacity: 5 });
    const first = await t.client().get(`/api/public/trips/${slug}`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const same = await t
      .client()
      .request({ method: 'GET', url: `/api/public/trips/${slug}`, headers: { 'if-none-match': etag } });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect((await book(slug)).statusCode).toBe(201);
    const after = await t
      .client()
      .request({ method: 'GET', url: `/api/public/trips/${slug}`, headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.json().places_left).toBe(4);
  });

  it('says how many places are left when fewer than ten are, and is not found when off or unknown', async () => {
    const { slug } = await tripOnSale({ capacity: 3 });
    expect((await t.client().get(`/api/public/trips/${slug}`)).json().places_left).toBe(3);
    expect((await t.client().get('/api/public/trips/no-such-trip')).statusCode).toBe(404);
    expect((await t.client().get('/api/public/trips/NOT%20A%20SLUG')).statusCode).toBe(404);
    const off = await insertTrip(t.db, { capacity: 5, bookingSlug: `off-trip-${n}` });
    expect((await t.client().get(`/api/public/trips/off-trip-${n}`)).statusCode).toBe(404);
    expect(off.onlineBooking).toBe(false);
  });

  it('reads no session: a signed-in reader keeps theirs, a stale cookie is neither read nor cleared', async () => {
    const { slug } = await tripOnSale();
    const signedIn = await t
      .client()
      .get(`/api/public/trips/${slug}`, { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['set-cookie']).toBeUndefined();
    expect((await admin.get('/api/me')).statusCode).toBe(200);
    // a cookie of a session gone: any route that reads sessions answers by clearing it
    const stale = { cookie: 'tripdesk_session=gone.c2lnbmF0dXJl' };
    const page = await t.client().get(`/api/public/trips/${slug}`, stale);
    expect(page.statusCode).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect((await t.client().get('/api/me', stale)).headers['set-cookie']).toBeDefined();
    // and a reader with no cookie is given none
    expect((await t.client().get(`/api/public/trips/${slug}`)).headers['set-cookie']).toBeUndefined();
  });

  it('reads a page out of date once, whoever asks meanwhile given the page before it; a trip gone is told', async () => {
    const { trip, slug } = await tripOnSale();
    const service = holdJob(10_000, 1000, true, 60_000);
    const name = async (page: Promise<{ body: Buffer }>) => JSON.parse((await page).body.toString()).name as string;
    expect(await name(service.publicPage(slug))).toBe(trip.name);
    await t.db.update(trips).set({ name: 'Inca Trail renamed' }).where(eq(trips.id, trip.id));
    // within PUBLIC_PAGE_CACHE_MS: this server's copy
    expect(await name(service.publicPage(slug))).toBe(trip.name);
    const realNow = Date.now.bind(Date);
    const later = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 60_001);
    try {
      // out of date: those who ask while it is read again are given the page before it
      const meanwhile = await Promise.all(Array.from({ length: 20 }, () => name(service.publicPage(slug))));
      expect(new Set(meanwhile)).toEqual(new Set([trip.name]));
      await vi.waitFor(async () => expect(await name(service.publicPage(slug))).toBe('Inca Trail renamed'));
      // a page opened with an offer is read afresh, never kept
      await t.db.update(trips).set({ onlineBooking: false }).where(eq(trips.id, trip.id));
      await expect(service.publicPage(slug, 'an-offer-token')).rejects.toMatchObject({ statusCode: 404 });
      later.mockImplementation(() => realNow() + 120_002);
      expect(await name(service.publicPage(slug))).toBe('Inca Trail renamed');
      // the trip taken off sale since: the read fails, and the next reader is told so
      await vi.waitFor(() => expect(service.publicPage(slug)).rejects.toMatchObject({ statusCode: 404 }));
    } finally {
      later.mockRestore();
    }
  });

  it('puts plans in words', () => {
    expect(planInWords([{ amountPence: 25_000, dueDate: '2027-01-15' }])).toBe('£250.00 now');
    expect(
      planInWords([
        { amountPence: 25_000, dueDate: '2027-01-01' },
        { amountPence: 45_000, dueDate: '2027-03-01' },
        { amountPence: 120_000, dueDate: '2027-06-01' },
      ]),
    ).toBe('£250.00 now, then £450.00 on 1 March 2027 and £1,200.00 on 1 June 2027');
  });
});

describe('booking online', () => {
  it('makes the booking provisional at once, holds the place for the deposit, invoices it, and emails the traveller', async () => {
    const { trip, slug } = await tripOnSale();
    const mails = sink.received.length;
    const res = await book(slug, { email: 'Ada.Online@Example.test', preferred_name: 'Ada' });
    expect(res.statusCode, res.body).toBe(201);
    const reply = res.json();
    expect(reply).toMatchObject({ status: 'provisional', deposit: 250, bank_details: null });
    expect(reply.pay_url).toMatch(/^https:\/\/book\.operator\.test\/pay\//);
    const held = (Date.parse(reply.hold_expires_at) - clock.now()) / 60_000;
    expect(held).toBeGreaterThan(29);
    expect(held).toBeLessThanOrEqual(30);

    const booking = await bookingByRef(reply.booking_ref);
    expect(booking).toMatchObject({ status: 'provisional', source: 'online', tripId: trip.id, fundingType: 'self' });
    const [user] = await t.db.select().from(users).where(eq(users.id, booking.userId!));
    expect(user).toMatchObject({ email: 'Ada.Online@Example.test', userRoleId: 3 });
    const bills = await t.db.select().from(invoices).where(eq(invoices.bookingId, booking.id));
    expect(bills).toHaveLength(1);
    expect(bills[0]!.type).toBe('deposit');

    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.bookingId, booking.id));
    const created = events.find((e) => e.action === 'booking.created')!;
    expect(created).toMatchObject({ source: 'online', actorType: 'user', actorUserId: booking.userId });
    expect(created.summary).toMatch(/^Grace Hopper\d+ booked Inca Trail \d+ online/);

    const places = (await admin.get(`/api/trips/${trip.id}/online-booking`)).json().places;
    expect(places).toEqual({ capacity: 20, taken: 0, held: 1, left: 19 });
    // the trip list and the dashboard say the same
    expect((await admin.get(`/api/trips/${trip.id}`)).json().places).toEqual({ taken: 0, held: 1, left: 19 });
    const dashboard = (
      await admin.get(`/api/dashboard?from=${trip.departureDate}&to=${trip.departureDate}`)
    ).json() as { next_departures: Array<Record<string, unknown>> };
    expect(dashboard.next_departures.find((d) => d.trip_id === trip.id)).toMatchObject({
      confirmed: 0,
      provisional: 0,
      held: 1,
      capacity: 20,
      left: 19,
    });

    const toAda = () =>
      sink.received.slice(mails).find((m) => m.to.some((to) => /^ada\.online@example\.test$/i.test(to)));
    await expect.poll(toAda).toBeDefined();
    const mail = toAda()!;
    expect(mail.raw).toContain(reply.booking_ref);
    expect(mail.raw).toContain('/pay/');
  });

  it('confirms the booking when the deposit is paid by card, and the place is no longer held', async () => {
    const { trip, slug } = await tripOnSale();
    const reply = (await book(slug)).json();
    const token = reply.pay_url.split('/pay/')[1];
    const payer = t.client();
    await payer.refreshCsrf(`/pay/${token}`);
    const checkout = await payer.post(`/api/public/pay/${token}/checkout`);
    expect(checkout.statusCode, checkout.body).toBe(200);
    const sessionId = /\/c\/pay\/(cs_\w+)$/.exec(checkout.json().url)![1]!;
    const session = stripe.pay(sessionId);
    // the payment page of a held place closes with the hold's grace, not a day later
    expect(session.expires_at - session.created).toBeLessThan(3600);
    const signed = stripe.signed(stripe.event('checkout.session.completed', session));
    const hook = await t.client().request({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: signed.payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
      csrf: false,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const booking = await bookingByRef(reply.booking_ref);
    expect(booking).toMatchObject({ status: 'confirmed', holdExpiresAt: null, depositPaymentDate: today() });
    expect((await admin.get(`/api/trips/${trip.id}/online-booking`)).json().places).toMatchObject({
      taken: 1,
      held: 0,
    });
    // the job later finds nothing to let go
    shift = 40 * 60_000;
    await holdJob().expireHolds();
    expect((await bookingByRef(reply.booking_ref)).status).toBe('confirmed');
  });

  it('cancels a booking whose hold ran out unpaid, deletes its unpaid invoice and frees its place', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 1 });
    const reply = (await book(slug)).json();
    const full = await book(slug);
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(TRIP_FULL);

    shift = 29 * 60_000;
    expect((await holdJob().expireHolds()).cancelled).toBe(0);
    shift = 31 * 60_000;
    expect(await holdJob().expireHolds()).toMatchObject({ cancelled: 1 });
    const booking = await bookingByRef(reply.booking_ref);
    expect(booking).toMatchObject({ status: 'cancelled', holdExpiresAt: null });
    expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, booking.id))).toHaveLength(0);
    const rows = await t.db.select().from(scheduleRows).where(eq(scheduleRows.bookingId, booking.id));
    expect(rows.every((r) => r.waived)).toBe(true);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, booking.id), eq(auditEvents.action, 'booking.hold_expired')));
    expect(event!.summary).toContain('its place is free again');
    // the place is on sale again
    expect((await admin.get(`/api/trips/${trip.id}/online-booking`)).json().places.left).toBe(1);
    expect((await book(slug)).statusCode).toBe(201);
  });

  it('waits for a deposit being paid on Stripe’s page when the hold runs out, until Stripe says the page closed unpaid', async () => {
    const { slug } = await tripOnSale();
    const reply = (await book(slug)).json();
    const token = reply.pay_url.split('/pay/')[1];
    const payer = t.client();
    await payer.refreshCsrf(`/pay/${token}`);
    const opened = await payer.post(`/api/public/pay/${token}/checkout`);
    expect(opened.statusCode).toBe(200);
    // a double press within the minute is the same page, not an error
    expect((await payer.post(`/api/public/pay/${token}/checkout`)).json().url).toBe(opened.json().url);
    const sessionId = /\/c\/pay\/(cs_\w+)$/.exec(opened.json().url)![1]!;
    shift = 45 * 60_000;
    await holdJob().expireHolds();
    expect((await bookingByRef(reply.booking_ref)).status).toBe('provisional');
    // no new page once the hold has run out
    const late = await payer.post(`/api/public/pay/${token}/checkout`);
    expect(late.statusCode).toBe(410);
    const signed = stripe.signed(stripe.event('checkout.session.expired', stripe.expire(sessionId)));
    const hook = await t.client().request({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: signed.payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
      csrf: false,
    });
    expect(hook.statusCode).toBe(200);
    await holdJob().expireHolds();
    expect((await bookingByRef(reply.booking_ref)).status).toBe('cancelled');
  });

  it('never sells more places than there are, however many book at once', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 10 });
    for (let i = 0; i < 7; i++) await insertBooking(t.db, trip.id, { status: 'confirmed' });
    const clients = await Promise.all(Array.from({ length: 50 }, () => visitor(slug)));
    const results = await Promise.all(clients.map((c) => c.post(`/api/public/trips/${slug}/bookings`, traveller())));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 409)).toHaveLength(47);
    expect(results.find((r) => r.statusCode === 409)!.json().message).toBe(TRIP_FULL);
    const live = await t.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.tripId, trip.id)));
    expect(live.filter((b) => b.status !== 'cancelled')).toHaveLength(10);
    // those that replied from their rows alone get their schedule, one deposit invoice and their email straight after
    const made = live.filter((b) => b.source === 'online');
    await expect
      .poll(async () => (await t.db.select().from(bookingSetups)).filter((x) => made.some((b) => b.id === x.bookingId)))
      .toEqual([]);
    for (const b of made) {
      const bills = await t.db.select().from(invoices).where(eq(invoices.bookingId, b.id));
      expect(bills.map((i) => i.type)).toEqual(['deposit']);
      expect((await t.db.select().from(scheduleRows).where(eq(scheduleRows.bookingId, b.id))).length).toBeGreaterThan(
        0,
      );
    }
  });

  it('replies from the booking’s row alone in a burst; its deposit invoice, under the id its pay link names, follows or is made when the link is opened', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 3 });
    await t.db
      .insert(discounts)
      .values({ name: 'Launch', code: `LAUNCH${n}`, amountPence: 5_000, invoiceType: 'deposit', usageLimit: 10 });
    // a server in the middle of a burst, whose setups are not made behind the test's back
    const service = holdJob(10_000, 0, false);
    const mails = sink.received.length;
    const reply = await service.book(slug, publicBookingSchema.parse(traveller({ discount_code: `launch${n}` })), null);
    expect(reply).toMatchObject({ status: 'provisional', deposit: 200, bank_details: null });
    const booking = await bookingByRef(reply.booking_ref);
    expect(booking).toMatchObject({ status: 'provisional', source: 'online' });
    expect(booking.holdExpiresAt).not.toBeNull();
    expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, booking.id))).toHaveLength(0);
    const [setup] = await t.db.select().from(bookingSetups).where(eq(bookingSetups.bookingId, booking.id));
    expect(setup).toMatchObject({ depositPence: 20_000, bookedOn: today() });
    const [code] = await t.db
      .select()
      .from(discounts)
      .where(eq(discounts.code, `LAUNCH${n}`));
    expect(code!.usageCount).toBe(1);
    // the place is held at once
    expect((await admin.get(`/api/trips/${trip.id}/online-booking`)).json().places).toMatchObject({ held: 1, left: 2 });

    // the traveller opens the pay link first: the invoice it names is raised then, with the code's use already taken
    const token = reply.pay_url!.split('/pay/')[1]!;
    const page = await t.client().get(`/api/public/pay/${token}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().outstanding).toBe(200);
    const bills = await t.db.select().from(invoices).where(eq(invoices.bookingId, booking.id));
    expect(bills.map((i) => [i.id, i.type, i.discountPence])).toEqual([[setup!.invoiceId, 'deposit', 5_000]]);
    expect((await t.db.select().from(discounts).where(eq(discounts.id, code!.id)))[0]!.usageCount).toBe(1);
    expect(await t.db.select().from(bookingSetups).where(eq(bookingSetups.bookingId, booking.id))).toHaveLength(0);
    expect(
      (await t.db.select().from(scheduleRows).where(eq(scheduleRows.bookingId, booking.id))).length,
    ).toBeGreaterThan(1);
    const toThem = () => sink.received.slice(mails).filter((m) => m.to.includes(booking.email.toLowerCase()));
    await expect.poll(() => toThem().length).toBe(1);
    expect(toThem()[0]!.raw).toContain(reply.booking_ref);
    // made once, however often it is asked for
    expect(await service.setups.finishAll()).toBe(0);
    expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, booking.id))).toHaveLength(1);

    // the setup's events are the system's, with no traveller's address on them
    const setupEvents = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, booking.id), eq(auditEvents.action, 'invoice.created')));
    expect(setupEvents.map((e) => [e.actorType, e.actorName, e.ipAddress])).toEqual([
      ['system', 'System (online-booking-setups)', null],
    ]);

    // another, with the code, made by the setups (the minute's job, when its server stopped first),
    // after the office changed the code: billed as the traveller was told
    const second = await service.book(
      slug,
      publicBookingSchema.parse(traveller({ discount_code: `LAUNCH${n}` })),
      null,
    );
    expect(second.deposit).toBe(200);
    await t.db.update(discounts).set({ amountPence: 10_000 }).where(eq(discounts.id, code!.id));
    const secondBooking = await bookingByRef(second.booking_ref);
    expect(await service.setups.finishAll()).toBe(1);
    const secondBills = await t.db.select().from(invoices).where(eq(invoices.bookingId, secondBooking.id));
    expect(secondBills.map((i) => [i.type, i.discountPence])).toEqual([['deposit', 5_000]]);
    expect(second.pay_url).toContain(`/pay/${secondBills[0]!.id.toString(36)}.`);
    await t.db.update(discounts).set({ amountPence: 5_000 }).where(eq(discounts.id, code!.id));

    // a third whose hold runs out before anything else: nothing is made for it, and the code's use comes back
    const third = await service.book(slug, publicBookingSchema.parse(traveller({ discount_code: `LAUNCH${n}` })), null);
    expect((await t.db.select().from(discounts).where(eq(discounts.id, code!.id)))[0]!.usageCount).toBe(3);
    const full = await book(slug);
    expect(full.statusCode).toBe(409);
    shift = 31 * 60_000;
    await service.expireHolds();
    const thirdBooking = await bookingByRef(third.booking_ref);
    expect(thirdBooking.status).toBe('cancelled');
    expect(await t.db.select().from(bookingSetups).where(eq(bookingSetups.bookingId, thirdBooking.id))).toHaveLength(0);
    expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, thirdBooking.id))).toHaveLength(0);
    expect((await t.db.select().from(discounts).where(eq(discounts.id, code!.id)))[0]!.usageCount).toBe(0);
    expect(await service.setups.finishAll()).toBe(0);
  });

  it('in a burst, drops the setup of a booking whose trip was deleted first, giving the code’s use back', async () => {
    const { trip, slug } = await tripOnSale();
    await t.db
      .insert(discounts)
      .values({ name: 'Gone', code: `GONE${n}`, amountPence: 1_000, invoiceType: 'deposit', usageLimit: 10 });
    const service = holdJob(10_000, 0, false);
    const reply = await service.book(slug, publicBookingSchema.parse(traveller({ discount_code: `GONE${n}` })), null);
    const booking = await bookingByRef(reply.booking_ref);
    await t.db.update(trips).set({ deletedAt: new Date() }).where(eq(trips.id, trip.id));
    expect(await service.setups.finishAll()).toBe(0);
    expect(await t.db.select().from(bookingSetups).where(eq(bookingSetups.bookingId, booking.id))).toHaveLength(0);
    expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, booking.id))).toHaveLength(0);
    expect(
      (
        await t.db
          .select()
          .from(discounts)
          .where(eq(discounts.code, `GONE${n}`))
      )[0]!.usageCount,
    ).toBe(0);
  });

  it('in a burst, gives a free place no schedule and a place with nothing due now no invoice, as when booked alone', async () => {
    const service = holdJob(10_000, 0, false);
    const { slug } = await tripOnSale({}, { funding_types: ['self', 'free'] });
    const free = await service.book(slug, publicBookingSchema.parse(traveller({ funding_type: 'free' })), null);
    expect(free).toMatchObject({ status: 'confirmed', pay_url: null, deposit: 0 });
    const nothingDue = await tripOnSale({ depositPence: 0, costPence: 0 });
    const none = await service.book(nothingDue.slug, publicBookingSchema.parse(traveller()), null);
    expect(none).toMatchObject({ status: 'confirmed', pay_url: null, deposit: 0 });
    await service.setups.finishAll();
    for (const ref of [free.booking_ref, none.booking_ref]) {
      const b = await bookingByRef(ref);
      expect(b.status).toBe('confirmed');
      expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, b.id))).toHaveLength(0);
      expect(await t.db.select().from(bookingSetups).where(eq(bookingSetups.bookingId, b.id))).toHaveLength(0);
    }
    const freeRows = await t.db
      .select()
      .from(scheduleRows)
      .where(eq(scheduleRows.bookingId, (await bookingByRef(free.booking_ref)).id));
    expect(freeRows).toHaveLength(0);
  });

  it('takes the last place once in a burst, and refuses the next with the trip full', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 1 });
    const service = holdJob(10_000, 0, false);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => service.book(slug, publicBookingSchema.parse(traveller()), null)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.map((r) => (r.reason as { statusCode: number; message: string }).message)).toEqual(
      Array(4).fill(TRIP_FULL),
    );
    const live = await t.db.select().from(bookings).where(eq(bookings.tripId, trip.id));
    expect(live).toHaveLength(1);
    expect(await t.db.select().from(bookingSetups).where(eq(bookingSetups.bookingId, live[0]!.id))).toHaveLength(1);
    await service.setups.finishAll();
  });

  it('in a burst, makes the bookings that come together in one batch, in order: one account for an email given twice, the add-ons chosen, the last told the trip is full', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 3 });
    const porter = await insertAddon(t.db, trip.id, 'Porter', 9_000);
    // a server that keeps its copy of the page: the four wait for one read of it, then book together
    const service = holdJob(10_000, 0, false, 60_000);
    const email = `pair${n}@example.test`;
    const who = [
      traveller({ email }),
      traveller({ email: email.toUpperCase(), addon_ids: [porter.id] }),
      traveller(),
      traveller(),
    ];
    const results = await Promise.allSettled(who.map((p) => service.book(slug, publicBookingSchema.parse(p), null)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 409, message: TRIP_FULL });
    const replies = results.slice(0, 3).map((r) => (r as PromiseFulfilledResult<{ booking_ref: string }>).value);
    const made = await Promise.all(replies.map((r) => bookingByRef(r.booking_ref)));
    expect(made.map((b) => b.email)).toEqual(who.slice(0, 3).map((p) => p.email));
    // one batch: one moment, one account for the two of one email (made for the first)
    expect(new Set(made.map((b) => b.createdAt.getTime())).size).toBe(1);
    expect(made[1]!.userId).toBe(made[0]!.userId);
    expect(
      await t.db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`),
    ).toHaveLength(1);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tripId, trip.id), eq(auditEvents.action, 'booking.created')));
    const newUser = (b: { id: number }) =>
      (events.find((e) => e.bookingId === b.id)!.details as { new_user: boolean }).new_user;
    expect(made.map(newUser)).toEqual([true, false, true]);
    expect(events.map((e) => e.actorUserId).sort()).toEqual(made.map((b) => b.userId).sort());
    const chosen = await queryRows<{ booking_id: string; price_pence: number }>(
      t.db,
      sql`select booking_id, price_pence from booking_addons where addon_id = ${porter.id}`,
    );
    expect(chosen.map((a) => [Number(a.booking_id), a.price_pence])).toEqual([[made[1]!.id, 9_000]]);
    // each holds its place and names its own deposit invoice, made straight after
    const setups = await t.db
      .select()
      .from(bookingSetups)
      .where(
        inArray(
          bookingSetups.bookingId,
          made.map((b) => b.id),
        ),
      );
    expect(new Set(setups.map((x) => x.invoiceId)).size).toBe(3);
    expect((await admin.get(`/api/trips/${trip.id}/online-booking`)).json().places).toMatchObject({ held: 3, left: 0 });
    expect(await service.setups.finishAll()).toBe(3);
    for (const [i, b] of made.entries()) {
      const bills = await t.db.select().from(invoices).where(eq(invoices.bookingId, b.id));
      expect(bills.map((x) => x.id)).toEqual([setups.find((x) => x.bookingId === b.id)!.invoiceId]);
      expect(replies[i]!).toMatchObject({ status: 'provisional' });
    }
  });

  it('puts each booking of a burst in the History as its traveller, from its own address', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 20 });
    const clients = await Promise.all(Array.from({ length: 6 }, () => visitor(slug)));
    const posted = await Promise.all(
      clients.map((c, i) =>
        c.request({
          method: 'POST',
          url: `/api/public/trips/${slug}/bookings`,
          payload: traveller({ first_name: `Ada${i}`, last_name: 'Lovelace' }),
          remoteAddress: `203.0.113.${i + 1}`,
        }),
      ),
    );
    expect(posted.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tripId, trip.id), eq(auditEvents.action, 'booking.created')));
    expect(events.map((e) => [e.actorName, e.ipAddress, e.source]).sort()).toEqual(
      Array.from({ length: 6 }, (_, i) => [`Ada${i} Lovelace`, `203.0.113.${i + 1}`, 'online']),
    );
  });

  it('in a burst, makes the others of a batch when the database refuses one, and answers that one clearly', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 10 });
    const gone = await insertAddon(t.db, trip.id, 'Rafting', 4_000);
    // a server that keeps its copy of the page (with the add-on) for a minute
    const service = holdJob(10_000, 0, false, 60_000);
    await service.book(slug, publicBookingSchema.parse(traveller()), null);
    await t.db.delete(tripAddons).where(eq(tripAddons.id, gone.id));
    const results = await Promise.allSettled(
      [traveller(), traveller({ addon_ids: [gone.id] }), traveller()].map((p) =>
        service.book(slug, publicBookingSchema.parse(p), null),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({
      statusCode: 422,
      errors: { addon_ids: ['An add-on chosen is not one of this trip’s.'] },
    });
    expect(await t.db.select().from(bookings).where(eq(bookings.tripId, trip.id))).toHaveLength(3);
    await service.setups.finishAll();
  });

  it('never sells more places than there are when bookings made alone and in batches come at once', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 10 });
    await t.db
      .insert(discounts)
      .values({ name: 'Mixed', code: `MIXED${n}`, amountPence: 1_000, invoiceType: 'deposit', usageLimit: 100 });
    const service = holdJob(10_000, 0, false);
    // those with a code are made alone (their rows, then the trip's lock), the rest in batches
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        service.book(slug, publicBookingSchema.parse(traveller(i % 2 ? { discount_code: `MIXED${n}` } : {})), null),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r.reason as Error).message);
    expect(refused).toEqual(Array(30).fill(TRIP_FULL));
    const live = await t.db.select().from(bookings).where(eq(bookings.tripId, trip.id));
    expect(live).toHaveLength(10);
    expect((await admin.get(`/api/trips/${trip.id}/online-booking`)).json().places).toMatchObject({ left: 0 });
    await service.setups.finishAll();
  });

  it('in a burst, books from its copy of what the trip offers, but the trip’s lock decides the place, and the office’s settings reach it at once', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 5 });
    // a server that keeps its copy for a minute
    const service = holdJob(10_000, 0, false, 60_000);
    const bookOn = (over: Record<string, unknown> = {}) =>
      service.book(slug, publicBookingSchema.parse(traveller(over)), null);
    expect((await bookOn()).status).toBe('provisional');
    // the office closes the trip: refused at once, whatever the copy says
    await t.db.update(trips).set({ status: 'closed' }).where(eq(trips.id, trip.id));
    await expect(bookOn()).rejects.toMatchObject({ statusCode: 409, message: BOOKING_CLOSED });
    await t.db.update(trips).set({ status: 'open' }).where(eq(trips.id, trip.id));
    await expect(bookOn({ funding_type: 'free' })).rejects.toMatchObject({ statusCode: 422 });
    // the office offers free places on the page: the next booking may take one
    const settings = { enabled: true, slug, funding_types: ['self', 'free'], discount_codes_allowed: true };
    const saved = await service.save(trip.id, saveOnlineBookingSchema.parse(settings));
    expect(saved.funding_types).toEqual(['self', 'free']);
    expect(await bookOn({ funding_type: 'free' })).toMatchObject({ status: 'confirmed', deposit: 0 });
    await service.setups.finishAll();
  });

  it('makes every setup it can when one fails, and says which failed', async () => {
    const { slug } = await tripOnSale();
    const service = holdJob(10_000, 0, false);
    const refs: string[] = [];
    for (let i = 0; i < 3; i++)
      refs.push((await service.book(slug, publicBookingSchema.parse(traveller()), null)).booking_ref);
    const [first, broken, last] = await Promise.all(refs.map(bookingByRef));
    // the middle one's deposit invoice would take the id of one raised already (a booking made whole)
    const whole = await bookingByRef(
      (await holdJob().book(slug, publicBookingSchema.parse(traveller()), null)).booking_ref,
    );
    const [taken] = await t.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.bookingId, whole.id));
    await t.db.update(bookingSetups).set({ invoiceId: taken!.id }).where(eq(bookingSetups.bookingId, broken!.id));

    await expect(service.setups.finishAll()).rejects.toThrow(
      new RegExp(`^1 booking setups could not be made \\(bookings ${broken!.id}\\)`),
    );
    for (const b of [first!, last!]) {
      expect((await t.db.select().from(invoices).where(eq(invoices.bookingId, b.id))).map((i) => i.type)).toEqual([
        'deposit',
      ]);
      expect(await t.db.select().from(bookingSetups).where(eq(bookingSetups.bookingId, b.id))).toHaveLength(0);
    }
    // the one that failed made nothing and is left to try again
    expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, broken!.id))).toHaveLength(0);
    expect(await t.db.select().from(scheduleRows).where(eq(scheduleRows.bookingId, broken!.id))).toHaveLength(0);
    await t.db.delete(bookingSetups).where(eq(bookingSetups.bookingId, broken!.id));
  });

  // two transactions at once need a server: the embedded database runs one at a time
  it.runIf(Boolean(process.env.DATABASE_URL))(
    'leaves the setup of a booking another transaction holds for later, as several servers making setups do',
    async () => {
      const { slug } = await tripOnSale();
      const service = holdJob(10_000, 0, false);
      // (any setup an earlier test left is made first)
      await service.setups.finishAll().catch(() => 0);
      const reply = await service.book(slug, publicBookingSchema.parse(traveller()), null);
      const booking = await bookingByRef(reply.booking_ref);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = t.db.transaction(async (tx) => {
        await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, booking.id)).for('update');
        locked();
        await released;
      });
      await isLocked;
      try {
        expect(await service.setups.finishAll()).toBe(0);
        expect(await t.db.select().from(bookingSetups).where(eq(bookingSetups.bookingId, booking.id))).toHaveLength(1);
      } finally {
        release();
        await holder;
      }
      expect(await service.setups.finishAll()).toBe(1);
      expect(await t.db.select().from(invoices).where(eq(invoices.bookingId, booking.id))).toHaveLength(1);
    },
  );

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'books again when PostgreSQL breaks a deadlock with the office, who locked the trip as they made the same account',
    async () => {
      const { trip, slug } = await tripOnSale();
      const service = holdJob();
      const who = traveller();
      const deadlocks = async () =>
        Number(
          (
            await queryRows<{ n: string }>(
              t.db,
              sql`select deadlocks as n from pg_stat_database where datname = current_database()`,
            )
          )[0]!.n,
        );
      const before = await deadlocks();
      let office = 0;
      const officeDone = t.db.transaction(async (tx) => {
        await tx.execute(sql`select id from trips where id = ${trip.id} for update`);
        // the booking has made its account and waits for the trip (its row's key)
        const booking = service.book(slug, publicBookingSchema.parse(who), null);
        await expect
          .poll(
            async () =>
              (
                await queryRows<{ n: string }>(
                  t.db,
                  sql`select count(*) as n from pg_stat_activity
                    where datname = current_database() and wait_event_type = 'Lock' and query ilike 'insert into "bookings"%'`,
                )
              )[0]!.n,
          )
          .toBe('1');
        // ... and the office makes the same person's account: each now waits for the other
        const [made] = await tx
          .insert(users)
          .values({ email: who.email, firstName: 'Grace', lastName: 'Office', userRoleId: ROLES.endUser })
          .returning({ id: users.id });
        office = made!.id;
        // (not awaited here: the booking's next try waits for this transaction's account)
        return { booking };
      });
      const reply = await (await officeDone).booking;
      await expect.poll(deadlocks).toBe(before + 1);
      const booking = await bookingByRef(reply.booking_ref);
      expect(booking).toMatchObject({ status: 'provisional', userId: office });
    },
  );

  it('answers each field that is wrong, and makes nothing', async () => {
    const { trip, slug } = await tripOnSale();
    const client = await visitor(slug);
    const res = await client.post(`/api/public/trips/${slug}/bookings`, {
      title: '',
      first_name: 'Grace',
      email: 'not-an-email',
      funding_type: 'lottery',
      date_of_birth: '2999-01-01',
      terms_accepted: false,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(
      [
        'address_1',
        'as_on_passport',
        'date_of_birth',
        'email',
        'funding_type',
        'last_name',
        'mobile',
        'post_code',
        'terms_accepted',
        'title',
      ].sort(),
    );
    const notOffered = await book(slug, { funding_type: 'fundraise' });
    expect(notOffered.statusCode).toBe(422);
    expect(notOffered.json().errors.funding_type).toEqual(['Choose one of: Self-funded.']);
    const bot = await book(slug, { website: 'https://spam.example' });
    expect(bot.statusCode).toBe(422);
    expect(await t.db.select().from(bookings).where(eq(bookings.tripId, trip.id))).toHaveLength(0);
  });

  it('limits the bookings one address makes, before anything is made', async () => {
    const { trip, slug } = await tripOnSale();
    const service = holdJob(2);
    const ip = `192.0.2.${n}`;
    for (let i = 0; i < 2; i++) await service.book(slug, publicBookingSchema.parse(traveller()), ip);
    await expect(service.book(slug, publicBookingSchema.parse(traveller()), ip)).rejects.toMatchObject({
      statusCode: 429,
    });
    // another address is not held up
    await service.book(slug, publicBookingSchema.parse(traveller()), '198.51.100.7');
    expect(await t.db.select().from(bookings).where(eq(bookings.tripId, trip.id))).toHaveLength(3);
  });

  it('refuses a post without the page’s CSRF token', async () => {
    const { slug } = await tripOnSale();
    const res = await t.client().request({
      method: 'POST',
      url: `/api/public/trips/${slug}/bookings`,
      payload: traveller(),
      csrf: false,
    });
    expect(res.statusCode).toBe(419);
  });

  it('is closed after its closing day, and when the trip is not open', async () => {
    const { trip, slug } = await tripOnSale({}, { closes_on: addDays(today(), -1) });
    expect((await t.client().get(`/api/public/trips/${slug}`)).json().state).toBe('closed');
    const res = await book(slug);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(BOOKING_CLOSED);
    const other = await tripOnSale();
    await t.db.update(trips).set({ status: 'closed' }).where(eq(trips.id, other.trip.id));
    expect((await book(other.slug)).statusCode).toBe(409);
    expect(trip.id).not.toBe(other.trip.id);
  });

  it('applies a discount code by the invoices’ rules, and gives the reason when it does not apply', async () => {
    const { slug } = await tripOnSale();
    await t.db.insert(discounts).values([
      { name: 'Early bird', code: `EARLY${n}`, amountPence: 5_000, invoiceType: 'deposit', usageLimit: 10 },
      { name: 'Balance', code: `BAL${n}`, amountPence: 5_000, invoiceType: 'balance', usageLimit: 10 },
    ]);
    const wrong = await book(slug, { discount_code: `BAL${n}` });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.discount_code[0]).toContain('only for balance invoices');
    const unknown = await book(slug, { discount_code: 'NOPE' });
    expect(unknown.json().errors.discount_code).toEqual(['There is no discount code NOPE.']);
    const ok = await book(slug, { discount_code: `early${n}` });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().deposit).toBe(200);
  });

  it('adds the add-ons chosen at their prices, and refuses another trip’s', async () => {
    const { trip, slug } = await tripOnSale();
    const addon = await insertAddon(t.db, trip.id, 'Porter', 9_000);
    const elsewhere = await insertAddon(t.db, (await insertTrip(t.db, {})).id, 'Other', 1_000);
    expect((await book(slug, { addon_ids: [elsewhere.id] })).json().errors.addon_ids).toBeDefined();
    const ok = await book(slug, { addon_ids: [addon.id] });
    expect(ok.statusCode).toBe(201);
    const booking = await bookingByRef(ok.json().booking_ref);
    const detail = (await admin.get(`/api/bookings/${booking.id}`)).json();
    expect(JSON.stringify(detail.addons)).toContain('Porter');
  });

  it('puts the booking on the account of an End User with that email, and answers the same either way', async () => {
    const { slug } = await tripOnSale();
    const first = await book(slug, { email: 'repeat@example.test' });
    const second = await book(slug, { email: 'REPEAT@example.test', first_name: 'Other' });
    expect(second.statusCode).toBe(201);
    expect(Object.keys(second.json()).sort()).toEqual(Object.keys(first.json()).sort());
    const a = await bookingByRef(first.json().booking_ref);
    const b = await bookingByRef(second.json().booking_ref);
    expect(a.userId).toBe(b.userId);
  });

  it('asks a charity trip’s traveller for a charity among those offered', async () => {
    const [one, two] = await t.db
      .insert(charities)
      .values([{ name: 'Mountain Rescue' }, { name: 'River Trust' }])
      .returning();
    const { slug } = await tripOnSale(
      { type: 'charity', funding: 'both' },
      { funding_types: ['self', 'fundraise'], charity_ids: [one!.id] },
    );
    const page = (await t.client().get(`/api/public/trips/${slug}`)).json();
    expect(page.charities).toEqual([{ id: one!.id, name: 'Mountain Rescue' }]);
    expect((await book(slug)).json().errors.charity_id).toEqual(['Choose the charity you will raise money for.']);
    expect((await book(slug, { charity_id: two!.id })).json().errors.charity_id).toBeDefined();
    const ok = await book(slug, { charity_id: one!.id, funding_type: 'fundraise' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect((await bookingByRef(ok.json().booking_ref)).charityId).toBe(one!.id);
  });

  it('confirms at once when nothing is due now', async () => {
    const { slug } = await tripOnSale({ depositPence: 0, costPence: 0 });
    const res = await book(slug);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'confirmed', pay_url: null, deposit: 0, hold_expires_at: null });
  });
});

describe('without card payments', () => {
  it('makes the booking provisional, holds nothing and gives the bank details', async () => {
    const plain = await createTestApp({ operatorBankDetails: 'Sort code 12-34-56, account 12345678' });
    try {
      const office = await plain.signedIn(1);
      const trip = await insertTrip(plain.db, { capacity: 5, type: 'open' });
      expect(
        (await office.put(`/api/trips/${trip.id}/online-booking`, { enabled: true, funding_types: ['self'] }))
          .statusCode,
      ).toBe(200);
      const slug = slugOf(trip.name);
      const page = (await plain.client().get(`/api/public/trips/${slug}`)).json();
      expect(page).toMatchObject({ card_payments: false, bank_details: 'Sort code 12-34-56, account 12345678' });
      const client = plain.client();
      await client.refreshCsrf(`/book/${slug}`);
      const res = await client.post(`/api/public/trips/${slug}/bookings`, traveller());
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        status: 'provisional',
        pay_url: null,
        hold_expires_at: null,
        bank_details: 'Sort code 12-34-56, account 12345678',
      });
    } finally {
      await plain.close();
    }
  });
});

/** The waiting list's job, on the app's clock. */
const offers = () =>
  new WaitingListService({
    db: t.db,
    clock,
    operator: operatorOf(t.config),
    mailer: createMailer(t.config),
    publicUrl: t.config.publicUrl,
    offerHours: 48,
    perAddress: 10_000,
  });

async function join(slug: string, first: string, places = 1) {
  const client = await visitor(slug);
  return client.post(`/api/public/trips/${slug}/waiting-list`, {
    first_name: first,
    last_name: 'Waiting',
    email: `${first.toLowerCase()}.${n}@example.test`,
    places,
    note: 'Any date will do',
  });
}

/** The offer link last emailed to this address. */
async function offerLinkTo(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      const mail = [...sink.received].reverse().find((m) => m.to.includes(email));
      link = mail ? /\/book\/[a-z0-9-]+\?offer=3D([\w-]+)/.exec(mail.raw.replace(/=\r?\n/g, ''))?.[1] : undefined;
      return link;
    })
    .toBeDefined();
  return link!;
}

const line = async (tripId: number) =>
  (await admin.get(`/api/trips/${tripId}/waiting-list`)).json() as {
    entries: Array<{ id: number; first_name: string; state: string; position: number | null; offers_made: number }>;
    places: { held: number; left: number };
  };

describe('the waiting list', () => {
  it('takes names when a trip is full, with clear errors, and shows the office the line in order', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 1 });
    await insertBooking(t.db, trip.id, { status: 'confirmed' });
    const page = (await t.client().get(`/api/public/trips/${slug}`)).json();
    expect(page).toMatchObject({ state: 'full', waiting_list: true, offer: null });
    const client = await visitor(slug);
    const bad = await client.post(`/api/public/trips/${slug}/waiting-list`, { first_name: '', email: 'x', places: 11 });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['email', 'first_name', 'last_name', 'places']);
    const ok = await join(slug, 'Ann');
    expect(ok.statusCode).toBe(201);
    expect(ok.json().message).toBe(WAITING_LIST_JOINED);
    await join(slug, 'Ben', 2);
    const list = await line(trip.id);
    expect(list.entries.map((e) => [e.first_name, e.position, e.state])).toEqual([
      ['Ann', 1, 'waiting'],
      ['Ben', 2, 'waiting'],
    ]);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tripId, trip.id), eq(auditEvents.action, 'waiting_list.joined')));
    expect(event).toMatchObject({ source: 'online', actorName: 'Ann Waiting' });
  });

  it('offers a place freed by a hold that ran out to the first in line, holds it for them, and lets them book it', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 1 });
    const held = (await book(slug)).json();
    await join(slug, 'Cara');
    await join(slug, 'Dan');
    expect((await offers().run()).offered).toBe(0);

    shift = 31 * 60_000;
    await holdJob().expireHolds();
    expect((await bookingByRef(held.booking_ref)).status).toBe('cancelled');
    expect(await offers().run()).toMatchObject({ offered: 1 });
    const list = await line(trip.id);
    expect(list.entries.map((e) => [e.first_name, e.state])).toEqual([
      ['Cara', 'offered'],
      ['Dan', 'waiting'],
    ]);
    // the offer holds the place: nobody else can take it
    expect(list.places).toMatchObject({ held: 1, left: 0 });
    expect((await book(slug)).statusCode).toBe(409);

    const token = await offerLinkTo(`cara.${n}@example.test`);
    const page = (await t.client().get(`/api/public/trips/${slug}?offer=${token}`)).json();
    expect(page).toMatchObject({ state: 'open', offer: { places: 1, first_name: 'Cara' } });
    const taken = await book(slug, { offer: token, first_name: 'Cara' });
    expect(taken.statusCode, taken.body).toBe(201);
    const [entry] = await t.db.select().from(waitingListEntries).where(eq(waitingListEntries.firstName, 'Cara'));
    expect(entry).toMatchObject({ state: 'booked', placesBooked: 1 });
    // spent: the link books nothing more
    const again = await book(slug, { offer: token });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(OFFER_GONE);
  });

  it('passes an offer not taken in time to the next in line, and offers once however many run at once', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 1 });
    await join(slug, 'Eve');
    await join(slug, 'Finn');
    const runs = await Promise.all([offers().run(), offers().run(), offers().run()]);
    expect(runs.reduce((sum, r) => sum + r.offered, 0)).toBe(1);
    expect((await line(trip.id)).entries.map((e) => e.state)).toEqual(['offered', 'waiting']);

    shift = 49 * 3_600_000;
    expect(await offers().run()).toMatchObject({ expired: 1, offered: 1 });
    const list = await line(trip.id);
    expect(list.entries.map((e) => [e.first_name, e.state])).toEqual([
      ['Finn', 'offered'],
      ['Eve', 'expired'],
    ]);
    const [lapsed] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tripId, trip.id), eq(auditEvents.action, 'waiting_list.offer_expired')));
    expect(lapsed!.summary).toContain('passes to the next in line');
  });

  it('puts someone back in line when the email of their offer cannot be sent, and tells staff', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 1 });
    const client = await visitor(slug);
    await client.post(`/api/public/trips/${slug}/waiting-list`, {
      first_name: 'Nora',
      last_name: 'Nomail',
      email: `nora.${n}@refused.test`,
      places: 1,
    });
    expect(await offers().run()).toMatchObject({ offered: 0 });
    let list = await line(trip.id);
    expect(list.entries.map((e) => e.state)).toEqual(['waiting']);
    expect(list.places.held).toBe(0);
    const byHand = await admin.post(`/api/trips/${trip.id}/waiting-list/${list.entries[0]!.id}/offer`);
    expect(byHand.statusCode).toBe(502);
    expect(byHand.json().message).toContain('they are still in line');
    list = await line(trip.id);
    expect(list.entries.map((e) => e.state)).toEqual(['waiting']);
  });

  it('lets the office move people, take them off, and make an offer by hand when places are free', async () => {
    const { trip, slug } = await tripOnSale({ capacity: 1 });
    await insertBooking(t.db, trip.id, { status: 'confirmed' });
    await join(slug, 'Gus');
    await join(slug, 'Hal');
    await join(slug, 'Ivy');
    let list = await line(trip.id);
    const [gus, hal, ivy] = list.entries;
    const up = await admin.patch(`/api/trips/${trip.id}/waiting-list/${ivy!.id}`, { move: 'up' });
    expect(up.statusCode).toBe(200);
    expect(up.json().entries.map((e: { first_name: string }) => e.first_name)).toEqual(['Gus', 'Ivy', 'Hal']);
    expect((await admin.patch(`/api/trips/${trip.id}/waiting-list/${gus!.id}`, { move: 'up' })).statusCode).toBe(422);
    const full = await admin.post(`/api/trips/${trip.id}/waiting-list/${hal!.id}/offer`);
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toContain('raise the trip’s capacity first');
    const gone = await admin.delete(`/api/trips/${trip.id}/waiting-list/${gus!.id}`);
    expect(gone.statusCode).toBe(200);
    await t.db.update(trips).set({ capacity: 2 }).where(eq(trips.id, trip.id));
    const offered = await admin.post(`/api/trips/${trip.id}/waiting-list/${hal!.id}/offer`);
    expect(offered.statusCode, offered.body).toBe(200);
    expect(offered.json()).toMatchObject({ state: 'offered', offers_made: 1 });
    await offerLinkTo(`hal.${n}@example.test`);
    list = await line(trip.id);
    expect(list.entries.map((e) => [e.first_name, e.position, e.state])).toEqual([
      ['Ivy', 1, 'waiting'],
      ['Hal', 2, 'offered'],
      ['Gus', null, 'removed'],
    ]);
    const other = await insertTrip(t.db, {});
    expect((await admin.delete(`/api/trips/${other.id}/waiting-list/${ivy!.id}`)).statusCode).toBe(404);
  });
});
