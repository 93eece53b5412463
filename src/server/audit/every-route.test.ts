import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../db/factories/bookings.ts';
import { insertTrip } from '../../db/factories/trips.ts';
import { insertUser } from '../../db/factories/users.ts';
import { auditEvents, bookings, charities, trips, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../shared/password.ts';
import { createTestApp, PASSWORD, type TestApp, type TestClient } from '../../../tests/support/test-app.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../tests/support/stripe-stand-in.ts';

/**
 * Walks every state-changing route of the OpenAPI document the app serves: each has a request
 * here that succeeds, and each success must write at least one history event. A route added
 * without a step here fails the first test, so no route can change data unrecorded.
 */
let t: TestApp;
let admin: TestClient;
let partner: TestClient | undefined;
let signedInTraveller: TestClient | undefined;
let groupLeader: TestClient | undefined;
const TRAVELLER_FORM = {
  first_name: 'Ada',
  last_name: 'Walker',
  date_of_birth: '1990-01-01',
  mobile: '07700 900123',
  address_1: '1 Walk Lane',
  post_code: 'N1 1AA',
  nok_name: 'Bo Walker',
  nok_telephone: '07700 900456',
  medical_conditions: false,
};
let stripe: StripeStandIn;
beforeAll(async () => {
  stripe = await startStripeStandIn();
  // a queue whose job fails, for Retry; card payments through the stand-in Stripe
  t = await createTestApp(
    { stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.url } },
    {
      queues: () => [
        {
          name: 'walk-fail',
          options: { retryLimit: 0 },
          handler: async () => {
            throw new Error('walked into a wall');
          },
        },
      ],
    },
  );
  admin = await t.signedIn(1, 'walker@example.test');
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const multipart = (field: string, filename: string, bytes: Buffer, type: string) => {
  const boundary = '----walk';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};
const today = () => new Date().toISOString().slice(0, 10);
const ddmmyyyy = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
};

type Step = [route: string, run: () => Promise<LightMyRequestResponse>];

/** POSTs that change nothing (a preview, whose draft may be longer than a query string allows) */
const READS = new Set(['POST /api/email-templates/{key}/preview']);

async function steps(): Promise<Step[]> {
  const s: Record<string, number | string> = {};
  const keep = (key: string, res: LightMyRequestResponse, field = 'id') => {
    if (res.statusCode < 300 && res.body) s[key] = (res.json() as Record<string, number | string>)[field]!;
    return res;
  };
  const tripRow = await insertTrip(t.db, { capacity: 40 });
  s.trip = tripRow.id;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const form = (fields: Record<string, string>) => ({
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

  return [
    ['POST /login', async () => t.client().login('walker@example.test', 'correct horse battery staple')],
    ['POST /api/charities', async () => keep('charity', await admin.post('/api/charities', { name: 'Walk Charity' }))],
    [
      'PATCH /api/charities/{id}',
      async () => admin.patch(`/api/charities/${s.charity}`, { name: 'Walk Charity Trust', charity_type_id: 3 }),
    ],
    [
      'POST /api/charities/{id}/logo',
      async () => {
        const m = multipart('charity_logo', 'logo.png', PNG, 'image/png');
        return admin.request({
          method: 'POST',
          url: `/api/charities/${s.charity}/logo`,
          payload: m.payload,
          headers: m.headers,
        });
      },
    ],
    ['DELETE /api/charities/{id}/logo', async () => admin.delete(`/api/charities/${s.charity}/logo`)],
    ['DELETE /api/charities/{id}', async () => admin.delete(`/api/charities/${s.charity}`)],
    [
      'POST /api/discounts',
      async () =>
        keep(
          'discount',
          await admin.post('/api/discounts', { code: 'WALK10', name: 'Walk', amount: 10, invoice_type: 'any' }),
        ),
    ],
    [
      'PATCH /api/discounts/{id}',
      async () =>
        admin.patch(`/api/discounts/${s.discount}`, { code: 'WALK15', name: 'Walk', amount: 15, invoice_type: 'any' }),
    ],
    ['DELETE /api/discounts/{id}', async () => admin.delete(`/api/discounts/${s.discount}`)],
    [
      'POST /api/trips',
      async () =>
        keep(
          'newTrip',
          await admin.post('/api/trips', {
            name: 'Walk Trek',
            country_id: 834,
            departure: ddmmyyyy(200),
            return: ddmmyyyy(209),
          }),
        ),
    ],
    [
      'PATCH /api/trips/{id}',
      async () =>
        admin.patch(`/api/trips/${s.newTrip}`, {
          name: 'Walk Trek II',
          country_id: 834,
          departure: ddmmyyyy(200),
          return: ddmmyyyy(209),
          type: 'open',
          level: 3,
          status: 'open',
          deposit: 100,
          cost: 1000,
          require_passport: 1,
          funding: 'both',
        }),
    ],
    ['POST /api/trips/{id}/archive', async () => admin.post(`/api/trips/${s.newTrip}/archive`)],
    ['DELETE /api/trips/{id}', async () => admin.delete(`/api/trips/${s.newTrip}`)],
    [
      'POST /api/trips/{id}/addons',
      async () => keep('addon', await admin.post(`/api/trips/${s.trip}/addons`, { name: 'Kit bag', price: 20 })),
    ],
    ['PATCH /api/addons/{id}', async () => admin.patch(`/api/addons/${s.addon}`, { name: 'Kit bag', price: 25 })],
    ['DELETE /api/addons/{id}', async () => admin.delete(`/api/addons/${s.addon}`)],
    [
      'POST /api/customFields',
      async () => keep('field', await admin.post('/api/customFields', { trip_id: s.trip, label: 'T-shirt size' })),
    ],
    [
      'PUT /api/customFields/{id}',
      async () => admin.put(`/api/customFields/${s.field}`, { label: 'Shirt size', note: 'S to XL' }),
    ],
    ['DELETE /api/customFields/{id}', async () => admin.delete(`/api/customFields/${s.field}`)],
    [
      'POST /api/documents',
      async () => keep('document', await admin.post('/api/documents', { trip_id: s.trip, name: 'Kit list' })),
    ],
    [
      'POST /api/documents/{id}/upload',
      async () => {
        const m = multipart('document_file', 'kit.png', PNG, 'image/png');
        return admin.request({
          method: 'POST',
          url: `/api/documents/${s.document}/upload`,
          payload: m.payload,
          headers: m.headers,
        });
      },
    ],
    ['DELETE /api/documents/{id}', async () => admin.delete(`/api/documents/${s.document}`)],
    [
      'POST /api/users',
      async () =>
        keep(
          'user',
          await admin.post('/api/users', {
            email: 'walked@example.test',
            first_name: 'Wal',
            last_name: 'Ker',
            user_role_id: 3,
          }),
        ),
    ],
    [
      'PATCH /api/users/update',
      async () =>
        admin.patch('/api/users/update', {
          id: s.user,
          email: 'walked@example.test',
          first_name: 'Walt',
          last_name: 'Ker',
          user_role_id: 2,
        }),
    ],
    ['DELETE /api/users/{id}', async () => admin.delete(`/api/users/${s.user}`)],
    [
      'POST /api/teams',
      async () =>
        keep(
          'team',
          await admin.post('/api/teams', {
            name: 'Walkers',
            permissions: {
              bookings: 'read',
              trips: 'read',
              finance: 'none',
              charities: 'none',
              people: 'none',
              settings: 'none',
              traveller_data: 'none',
            },
          }),
        ),
    ],
    [
      'PUT /api/teams/{id}',
      async () =>
        admin.put(`/api/teams/${s.team}`, {
          name: 'Walkers',
          permissions: {
            bookings: 'change',
            trips: 'read',
            finance: 'none',
            charities: 'none',
            people: 'none',
            settings: 'none',
            traveller_data: 'none',
          },
        }),
    ],
    ['DELETE /api/teams/{id}', async () => admin.delete(`/api/teams/${s.team}`)],
    [
      'POST /api/bookings',
      async () =>
        keep(
          'booking',
          await admin.post('/api/bookings', {
            trip_id: s.trip,
            title: 'Ms',
            first_name: 'Ada',
            last_name: 'Walker',
            preferred_name: 'Ada',
            email: 'ada.walker@example.test',
            as_on_passport: true,
            terms_accepted: true,
          }),
        ),
    ],
    ['POST /api/bookings/{id}/sign-in-link', async () => admin.post(`/api/bookings/${s.booking}/sign-in-link`)],
    [
      'POST /api/my/sign-in-link',
      async () => {
        const traveller = t.client();
        await traveller.refreshCsrf('/my/sign-in');
        const before = await linksSent();
        const res = await traveller.post('/api/my/sign-in-link', { email: 'ada.walker@example.test' });
        // the link goes after the answer (its time tells nothing): its email and event follow at once
        for (let i = 0; i < 200 && (await linksSent()) === before; i++) await new Promise((r) => setTimeout(r, 20));
        return res;
      },
    ],
    [
      'POST /api/my/sign-in',
      async () => {
        // the link is in the last email written (no mail server here: .eml files)
        const dir = path.join(t.config.dataDir, 'mail');
        const last = readdirSync(dir).sort().at(-1)!;
        const token = /\/my\/sign-in\/([\w-]{43})/.exec(
          readFileSync(path.join(dir, last), 'utf8').replace(/=\r?\n/g, ''),
        )![1];
        const traveller = t.client();
        await traveller.refreshCsrf('/my/sign-in');
        const res = await traveller.post('/api/my/sign-in', { token });
        await traveller.refreshCsrf('/my');
        signedInTraveller = traveller;
        return res;
      },
    ],
    [
      'PUT /api/my/bookings/{id}/details',
      async () => signedInTraveller!.put(`/api/my/bookings/${s.booking}/details`, TRAVELLER_FORM),
    ],
    [
      'POST /api/trips/{id}/groups',
      async () => {
        const school = await insertTrip(t.db, { type: 'school', name: 'Walk School Trip' });
        return keep(
          'group',
          await admin.post(`/api/trips/${school.id}/groups`, {
            school: 'Walk Academy',
            leader_name: 'Lee Leader',
            leader_email: 'lee.leader@example.test',
            places: 30,
            payer: 'parents',
          }),
        );
      },
    ],
    [
      'PUT /api/groups/{id}',
      async () =>
        admin.put(`/api/groups/${s.group}`, {
          school: 'Walk Academy',
          leader_name: 'Lee Leader',
          leader_email: 'lee.leader@example.test',
          places: 32,
          payer: 'split',
          school_share: '150',
        }),
    ],
    [
      'POST /api/my/groups/{id}/pupils',
      async () => {
        // the group's leader signs in to their own page
        await t.db
          .update(users)
          .set({ passwordHash: await hashPassword(PASSWORD) })
          .where(eq(users.email, 'lee.leader@example.test'));
        groupLeader = t.client();
        await groupLeader.login('lee.leader@example.test', PASSWORD);
        await groupLeader.refreshCsrf('/my');
        return groupLeader.post(`/api/my/groups/${s.group}/pupils`, {
          first_name: 'Pia',
          last_name: 'Walker',
          date_of_birth: '2012-04-01',
          parent_name: 'Bo Walker',
          parent_email: 'bo.walker@example.test',
        });
      },
    ],
    [
      'POST /api/my/groups/{id}/pupils/import',
      async () => {
        const csv = Buffer.from(
          'First name,Last name,Date of birth,Parent’s name,Parent’s email\nKit,Walker,02/05/2012,Bo Walker,bo.walker@example.test\n',
        );
        const body = multipart('file', 'pupils.csv', csv, 'text/csv');
        return groupLeader!.request({
          method: 'POST',
          url: `/api/my/groups/${s.group}/pupils/import`,
          payload: body.payload,
          headers: body.headers,
        });
      },
    ],
    ['POST /api/my/groups/{id}/reminders', async () => groupLeader!.post(`/api/my/groups/${s.group}/reminders`)],
    [
      'POST /api/groups/{id}/payments',
      // the school's share (split at £150) of the two pupils above: £200 of the £300 it owes
      async () => admin.post(`/api/groups/${s.group}/payments`, { amount: 200, processor: 'BACS', date: today() }),
    ],
    [
      'POST /api/my/bookings/{id}/consent',
      async () => {
        // a parent's consent is asked on school trips: the walk's trip is one for these two steps
        await t.db
          .update(trips)
          .set({ type: 'school' })
          .where(eq(trips.id, Number(s.trip)));
        return signedInTraveller!.post(`/api/my/bookings/${s.booking}/consent`, { full_name: 'Ada Walker' });
      },
    ],
    [
      'DELETE /api/my/bookings/{id}/consent',
      async () => {
        const res = await signedInTraveller!.delete(`/api/my/bookings/${s.booking}/consent`);
        await t.db
          .update(trips)
          .set({ type: 'charity' })
          .where(eq(trips.id, Number(s.trip)));
        return res;
      },
    ],
    [
      'POST /api/my/bookings/{id}/changes',
      async () => {
        const res = await signedInTraveller!.post(`/api/my/bookings/${s.booking}/changes`, {
          kind: 'change',
          message: 'Could I move to the spring departure?',
        });
        const queue = (await admin.get('/api/change-requests?state=open')).json() as { data: Array<{ id: number }> };
        s.changeRequest = queue.data[0]!.id;
        return res;
      },
    ],
    [
      'POST /api/change-requests/{id}/close',
      async () => admin.post(`/api/change-requests/${s.changeRequest}/close`, { outcome: 'declined', note: 'Full' }),
    ],
    [
      'PUT /api/my/bookings/{id}/answers',
      async () => {
        keep('question', await admin.post('/api/customFields', { trip_id: s.trip, label: 'Shirt size' }));
        return signedInTraveller!.put(`/api/my/bookings/${s.booking}/answers`, {
          answers: [{ custom_field_id: s.question, value: 'M' }],
        });
      },
    ],
    [
      'POST /api/my/bookings/{id}/passport-image',
      async () => {
        const body = multipart('file', 'p.png', PNG, 'image/png');
        return signedInTraveller!.request({
          method: 'POST',
          url: `/api/my/bookings/${s.booking}/passport-image`,
          payload: body.payload,
          headers: body.headers,
        });
      },
    ],
    [
      'POST /api/my/bookings/{id}/fundraising/total',
      async () => {
        // the walk's booking fundraises for this step only
        const [before] = await t.db
          .select({ fundingType: bookings.fundingType })
          .from(bookings)
          .where(eq(bookings.id, Number(s.booking)));
        await t.db
          .update(bookings)
          .set({ fundingType: 'fundraise' })
          .where(eq(bookings.id, Number(s.booking)));
        const res = await signedInTraveller!.post(`/api/my/bookings/${s.booking}/fundraising/total`, { total: 120 });
        await t.db
          .update(bookings)
          .set({ fundingType: before!.fundingType })
          .where(eq(bookings.id, Number(s.booking)));
        return res;
      },
    ],
    [
      'PUT /api/bookings/{id}/answers',
      async () =>
        admin.put(`/api/bookings/${s.booking}/answers`, { answers: [{ custom_field_id: s.question, value: 'L' }] }),
    ],
    [
      'POST /api/bookings/{id}/passport-image/checked',
      async () => admin.post(`/api/bookings/${s.booking}/passport-image/checked`),
    ],
    [
      'POST /api/bookings/{id}/passport-image',
      async () => {
        const body = multipart('file', 'p.png', PNG, 'image/png');
        return admin.request({
          method: 'POST',
          url: `/api/bookings/${s.booking}/passport-image`,
          payload: body.payload,
          headers: body.headers,
        });
      },
    ],
    [
      'POST /api/my/sign-in-link/renew',
      async () => {
        // the link just spent asks for a fresh one, sent to its traveller (after the answer: waited for)
        // (the last sign-in email: the group's invitations and reminders went since)
        const dir = path.join(t.config.dataDir, 'mail');
        const token = readdirSync(dir)
          .sort()
          .reverse()
          .map((file) =>
            /\/my\/sign-in\/([\w-]{43})/.exec(readFileSync(path.join(dir, file), 'utf8').replace(/=\r?\n/g, '')),
          )
          .find(Boolean)![1];
        const traveller = t.client();
        await traveller.refreshCsrf('/my/sign-in');
        const before = await linksSent();
        const res = await traveller.post('/api/my/sign-in-link/renew', { token });
        // the event is written after the email: waiting for the email alone raced it
        for (let i = 0; i < 200 && (await linksSent()) === before; i++) await new Promise((r) => setTimeout(r, 20));
        return res;
      },
    ],
    ['POST /api/my/sign-out-everywhere', async () => signedInTraveller!.post('/api/my/sign-out-everywhere')],
    [
      'POST /api/users/{id}/end-sessions',
      async () => {
        const [row] = await t.db
          .select({ userId: bookings.userId })
          .from(bookings)
          .where(eq(bookings.id, Number(s.booking)));
        return admin.post(`/api/users/${row!.userId}/end-sessions`);
      },
    ],
    [
      'PUT /api/bookings/{id}/traveller-form',
      async () => admin.put(`/api/bookings/${s.booking}/traveller-form`, TRAVELLER_FORM),
    ],
    [
      'PATCH /api/bookings/{id}',
      async () =>
        admin.patch(`/api/bookings/${s.booking}`, {
          status: 'confirmed',
          first_name: 'Ada',
          last_name: 'Walker',
          email: 'ada.walker@example.test',
          double_room: false,
        }),
    ],
    [
      'PUT /api/trips/{id}/payment-plan',
      async () =>
        admin.put(`/api/trips/${s.trip}/payment-plan`, {
          instalments: [
            { label: 'Deposit', amount_kind: 'deposit', due_kind: 'after_booking', due_days: 7 },
            { label: 'Balance', amount_kind: 'rest', due_kind: 'before_departure', due_days: 60 },
          ],
        }),
    ],
    ['POST /api/bookings/{id}/schedule/rebuild', async () => admin.post(`/api/bookings/${s.booking}/schedule/rebuild`)],
    [
      'PATCH /api/schedule-rows/{id}',
      async () => {
        const rows = (await admin.get(`/api/bookings/${s.booking}/schedule`)).json().rows;
        return admin.patch(`/api/schedule-rows/${rows[1].id}`, {
          due_date: rows[1].due_date,
          waived: true,
          reason: 'Walked',
        });
      },
    ],
    [
      'POST /api/bookings/{id}/invoices',
      async () => keep('invoice', await admin.post(`/api/bookings/${s.booking}/invoices`, { invoice_type: 'deposit' })),
    ],
    [
      'POST /api/bookings/{id}/invoices/{invoiceId}/send',
      async () => admin.post(`/api/bookings/${s.booking}/invoices/${s.invoice}/send`),
    ],
    [
      'POST /api/invoices/{id}/pay-link',
      async () => {
        // an invoice of its own, which the card payment pays in full
        keep(
          'cardInvoice',
          await admin.post('/api/invoices', {
            booking_id: s.booking,
            invoice_date: today(),
            due_date: today(),
            invoice_ref: 'WALK-CARD',
            description: 'Paid by card',
            items: [{ description: 'Kit', amount: 25 }],
          }),
        );
        const res = await admin.post(`/api/invoices/${s.cardInvoice}/pay-link`);
        if (res.statusCode === 200) s.payToken = (res.json() as { url: string }).url.split('/pay/')[1]!;
        return res;
      },
    ],
    [
      'PUT /api/trips/{id}/online-booking',
      async () =>
        admin.put(`/api/trips/${s.trip}/online-booking`, {
          enabled: true,
          slug: 'walk-trek',
          funding_types: ['self'],
          discount_codes_allowed: true,
        }),
    ],
    [
      'POST /api/public/trips/{slug}/bookings',
      async () => {
        const booker = t.client();
        await booker.refreshCsrf('/book/walk-trek');
        return booker.post('/api/public/trips/walk-trek/bookings', {
          title: 'Ms',
          first_name: 'Online',
          last_name: 'Walker',
          email: 'online.walker@example.test',
          mobile: '07700 900999',
          date_of_birth: '1990-02-02',
          address_1: '2 Walk Lane',
          post_code: 'N1 2AA',
          funding_type: 'self',
          as_on_passport: true,
          terms_accepted: true,
        });
      },
    ],
    [
      'POST /api/public/trips/{slug}/waiting-list',
      async () => {
        const joiner = t.client();
        await joiner.refreshCsrf('/book/walk-trek');
        const join = (first_name: string) =>
          joiner.post('/api/public/trips/walk-trek/waiting-list', {
            first_name,
            last_name: 'Waiter',
            email: `${first_name.toLowerCase()}.waiter@example.test`,
            places: 1,
          });
        await join('Wendy');
        const res = await join('Walt');
        const list = (await admin.get(`/api/trips/${s.trip}/waiting-list`)).json() as {
          entries: Array<{ id: number }>;
        };
        s.firstWaiting = list.entries[0]!.id;
        s.secondWaiting = list.entries[1]!.id;
        return res;
      },
    ],
    [
      'PATCH /api/trips/{id}/waiting-list/{entryId}',
      async () => admin.patch(`/api/trips/${s.trip}/waiting-list/${s.secondWaiting}`, { move: 'up' }),
    ],
    [
      'POST /api/trips/{id}/waiting-list/{entryId}/offer',
      async () => admin.post(`/api/trips/${s.trip}/waiting-list/${s.secondWaiting}/offer`),
    ],
    [
      'DELETE /api/trips/{id}/waiting-list/{entryId}',
      async () => admin.delete(`/api/trips/${s.trip}/waiting-list/${s.firstWaiting}`),
    ],
    [
      'PUT /api/settings/changes',
      async () =>
        admin.put('/api/settings/changes', {
          bands: [
            { from_days: 60, keep: 'deposit' },
            { from_days: 0, keep: 'all' },
          ],
          transfer_fee: 30,
          move_fee: 120,
        }),
    ],
    [
      'PUT /api/trips/{id}/changes',
      async () =>
        admin.put(`/api/trips/${s.trip}/changes`, {
          bands: [{ from_days: 0, keep: 'all' }],
          transfer_fee: 10,
          move_fee: 50,
        }),
    ],
    ['DELETE /api/trips/{id}/changes', async () => admin.delete(`/api/trips/${s.trip}/changes`)],
    [
      'POST /api/bookings/{id}/transfer',
      async () => {
        const passing = await insertBooking(t.db, Number(s.trip));
        return admin.post(`/api/bookings/${passing.id}/transfer`, {
          title: 'Mr',
          first_name: 'Tom',
          last_name: 'Taker',
          preferred_name: 'Tom',
          email: 'tom.taker@example.test',
          override_reason: 'Walked at the last minute',
          notify: false,
        });
      },
    ],
    [
      'PUT /api/bookings/{id}/funding',
      async () => {
        const funded = await insertBooking(t.db, Number(s.trip));
        return admin.put(`/api/bookings/${funded.id}/funding`, { funding_type: 'free', reason: 'A free place' });
      },
    ],
    [
      'POST /api/bookings/{id}/move',
      async () => {
        const moving = await insertBooking(t.db, Number(s.trip));
        const other = await insertTrip(t.db, { name: 'Moved To Trek', capacity: 10 });
        return admin.post(`/api/bookings/${moving.id}/move`, { trip_id: other.id, notify: false });
      },
    ],
    [
      'POST /api/trips/{id}/cancel',
      async () => {
        const doomed = await insertTrip(t.db, { name: 'Called Off Trek' });
        await insertBooking(t.db, doomed.id);
        return admin.post(`/api/trips/${doomed.id}/cancel`, { reason: 'Too few travellers', notify: false });
      },
    ],
    [
      'POST /api/bookings/{id}/cancel',
      async () => {
        const leaving = await insertBooking(t.db, Number(s.trip));
        return admin.post(`/api/bookings/${leaving.id}/cancel`, { reason: 'Cannot travel', notify: false });
      },
    ],
    [
      'POST /api/public/pay/{token}/checkout',
      async () => {
        const payer = t.client();
        await payer.refreshCsrf(`/pay/${s.payToken}`);
        const res = await payer.post(`/api/public/pay/${s.payToken}/checkout`);
        if (res.statusCode === 200) s.session = /(cs_\w+)$/.exec((res.json() as { url: string }).url)![1]!;
        return res;
      },
    ],
    [
      'POST /webhooks/stripe',
      async () => {
        const signed = stripe.signed(stripe.event('checkout.session.completed', stripe.pay(String(s.session))));
        return t.client().request({
          method: 'POST',
          url: '/webhooks/stripe',
          payload: signed.payload,
          headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
          csrf: false,
        });
      },
    ],
    [
      'POST /api/bookings/{id}/emails/{emailId}/resend',
      async () => {
        const emails = (await admin.get(`/api/bookings/${s.booking}/emails`)).json() as Array<{
          id: number;
          subject: string;
        }>;
        return admin.post(
          `/api/bookings/${s.booking}/emails/${emails.find((e) => e.subject.startsWith('Invoice '))?.id}/resend`,
        );
      },
    ],
    [
      'POST /api/transactions',
      async () =>
        keep(
          'transaction',
          await admin.post('/api/transactions', {
            booking_id: s.booking,
            invoice_id: s.invoice,
            invoice_type: 'deposit',
            amount: 50,
            type: 'payment',
            processor: 'BACS',
            date: today(),
          }),
        ),
    ],
    ['DELETE /api/transactions/{id}', async () => admin.delete(`/api/transactions/${s.transaction}`)],
    ['POST /api/bookings/{id}/reminders', async () => admin.post(`/api/bookings/${s.booking}/reminders`)],
    ['POST /api/reminders', async () => admin.post('/api/reminders', { booking_ids: [s.booking] })],
    [
      'POST /api/email-templates/{key}/test',
      async () => admin.post('/api/email-templates/reminder_before/test', { booking_id: s.booking }),
    ],
    [
      'PUT /api/bookings/{id}/reminders',
      async () => admin.put(`/api/bookings/${s.booking}/reminders`, { send: false, reason: 'Pays by standing order' }),
    ],
    [
      'PUT /api/trips/{id}/reminders',
      async () =>
        admin.put(`/api/trips/${s.trip}/reminders`, { send: false, reason: 'Group pays by invoice to the school' }),
    ],
    [
      'PUT /api/bookings/{id}/keep-until',
      async () =>
        admin.put(`/api/bookings/${s.booking}/keep-until`, {
          keep_until: '2099-01-01',
          reason: 'An insurance claim is open',
        }),
    ],
    [
      'PUT /api/bookings/{id}/chasers',
      async () => admin.put(`/api/bookings/${s.booking}/chasers`, { send: false, reason: 'Renewing the passport' }),
    ],
    [
      'POST /api/trips/{id}/chasers',
      async () => {
        await admin.put(`/api/bookings/${s.booking}/chasers`, { send: true });
        return admin.post(`/api/trips/${s.trip}/chasers`, { booking_ids: [s.booking], checks: ['passport', 'forms'] });
      },
    ],
    [
      'POST /api/trips/{id}/documents/send',
      async () => {
        const doc = (await admin.post('/api/documents', { trip_id: s.trip, name: 'Itinerary' })).json() as {
          id: number;
        };
        const m = multipart('document_file', 'itinerary.png', PNG, 'image/png');
        await admin.request({
          method: 'POST',
          url: `/api/documents/${doc.id}/upload`,
          payload: m.payload,
          headers: m.headers,
        });
        return admin.post(`/api/trips/${s.trip}/documents/send`, { booking_ids: [s.booking] });
      },
    ],
    [
      'PUT /api/trips/{id}/fundraising',
      async () =>
        admin.put(`/api/trips/${s.trip}/fundraising`, {
          rules: [{ funding_type: 'fundraise', minimum: 2000, milestones: [{ percent: 50, weeks_before: 12 }] }],
        }),
    ],
    [
      'PUT /api/bookings/{id}/fundraising',
      async () => {
        s.fundraiser = (await insertBooking(t.db, Number(s.trip), { fundingType: 'fundraise' })).id;
        return admin.put(`/api/bookings/${s.fundraiser}/fundraising`, {
          target: 3000,
          reason: 'Pledged more',
          page_url: 'https://www.justgiving.com/page/walker',
        });
      },
    ],
    [
      'POST /api/bookings/{id}/fundraising/entries',
      async () => {
        const res = await admin.post(`/api/bookings/${s.fundraiser}/fundraising/entries`, {
          amount: 120,
          date: today(),
          source: 'offline',
        });
        if (res.statusCode < 300) s.entry = (res.json() as { entries: Array<{ id: number }> }).entries[0]!.id;
        return res;
      },
    ],
    [
      'POST /api/fundraising-entries/{id}/strike',
      async () => admin.post(`/api/fundraising-entries/${s.entry}/strike`, { reason: 'Counted twice' }),
    ],
    [
      'POST /api/charity/fundraisers/{booking_id}/acknowledge',
      async () => {
        const [charity] = await t.db.insert(charities).values({ name: 'Walk Aid' }).returning();
        await t.db
          .update(bookings)
          .set({ charityId: charity!.id, status: 'confirmed' })
          .where(eq(bookings.id, Number(s.fundraiser)));
        await insertUser(t.db, {
          email: 'walk.aid@example.test',
          password: PASSWORD,
          roleId: 2,
          charityId: charity!.id,
        });
        partner = t.client();
        await partner.login('walk.aid@example.test', PASSWORD);
        return partner.post(`/api/charity/fundraisers/${s.fundraiser}/acknowledge`);
      },
    ],
    [
      'POST /api/charity/fundraisers/{booking_id}/entries',
      async () => partner!.post(`/api/charity/fundraisers/${s.fundraiser}/entries`, { amount: 40, date: today() }),
    ],
    [
      'POST /api/charity/fundraisers/{booking_id}/notes',
      async () => partner!.post(`/api/charity/fundraisers/${s.fundraiser}/notes`, { note: 'Cheque received.' }),
    ],
    [
      'PUT /api/countries/{id}/passport-rule',
      async () => admin.put('/api/countries/604/passport-rule', { months: 7, note: 'Two blank pages.' }),
    ],
    [
      'PUT /api/email-templates/{key}',
      async () =>
        admin.put('/api/email-templates/reminder_due', {
          subject: 'Due today: {{ invoice.ref }}',
          body: 'Dear {{ traveller.first_name }}, {{ invoice.outstanding }} is due today.',
        }),
    ],
    ['DELETE /api/email-templates/{key}', async () => admin.delete('/api/email-templates/reminder_due')],
    [
      'POST /api/email-templates/{key}/preview',
      async () => admin.post('/api/email-templates/reminder_due/preview', { booking_id: s.booking }),
    ],
    [
      'POST /api/invoices',
      async () =>
        keep(
          'custom',
          await admin.post('/api/invoices', {
            booking_id: s.booking,
            invoice_date: today(),
            due_date: today(),
            invoice_ref: 'WALK-1',
            description: 'Extras',
            items: [{ description: 'Flight change', amount: 40 }],
          }),
        ),
    ],
    ['DELETE /api/invoices/{id}', async () => admin.delete(`/api/invoices/${s.custom}`)],
    [
      'POST /api/bookingNotes',
      async () =>
        keep(
          'note',
          await admin.post('/api/bookingNotes', {
            booking_id: s.booking,
            note_text: '<p>Called about the passport.</p>',
          }),
        ),
    ],
    [
      'PATCH /api/bookingNotes/{id}',
      async () => admin.patch(`/api/bookingNotes/${s.note}`, { note_text: '<p>Called twice.</p>' }),
    ],
    ['DELETE /api/bookingNotes/{id}', async () => admin.delete(`/api/bookingNotes/${s.note}`)],
    [
      'POST /oauth/clients',
      async () => {
        const res = await admin.post('/oauth/clients', { name: 'Walk app', redirect: 'https://partner.example/cb' });
        keep('client', res);
        keep('clientSecret', res, 'secret');
        return res;
      },
    ],
    [
      'PUT /oauth/clients/{id}',
      async () =>
        admin.put(`/oauth/clients/${s.client}`, { name: 'Walk app 2', redirect: 'https://partner.example/cb' }),
    ],
    [
      'POST /oauth/authorize',
      async () => {
        const res = await admin.request({
          method: 'POST',
          url: '/oauth/authorize',
          ...form({
            response_type: 'code',
            client_id: String(s.client),
            redirect_uri: 'https://partner.example/cb',
            scope: 'trips:read',
            state: 'x',
            code_challenge: challenge,
            code_challenge_method: 'S256',
            decision: 'approve',
            _csrf: admin.csrfToken ?? '',
          }),
        });
        s.code = new URL(String(res.headers.location)).searchParams.get('code') ?? '';
        return res;
      },
    ],
    [
      'POST /oauth/token',
      async () =>
        t.app.inject({
          method: 'POST',
          url: '/oauth/token',
          ...form({
            grant_type: 'authorization_code',
            code: String(s.code),
            redirect_uri: 'https://partner.example/cb',
            code_verifier: verifier,
            client_id: String(s.client),
            client_secret: String(s.clientSecret),
          }),
        }),
    ],
    [
      'DELETE /oauth/tokens/{id}',
      async () => {
        const apps = (await admin.get('/oauth/tokens')).json();
        return admin.delete(`/oauth/tokens/${apps[0]?.id}`);
      },
    ],
    ['DELETE /oauth/clients/{id}', async () => admin.delete(`/oauth/clients/${s.client}`)],
    [
      'POST /oauth/personal-access-tokens',
      async () =>
        keep(
          'pat',
          await admin.post('/oauth/personal-access-tokens', { name: 'Walk token', scopes: ['trips:read'] }),
          'token',
        ),
    ],
    [
      'DELETE /oauth/personal-access-tokens/{id}',
      async () => admin.delete(`/oauth/personal-access-tokens/${(s.pat as unknown as { id: string }).id}`),
    ],
    [
      'POST /api/admin/jobs/{queue}/{id}/retry',
      async () => {
        const id = await t.jobs!.send('walk-fail', {});
        for (let i = 0; i < 200 && (await t.jobs!.boss.getJobById('walk-fail', id!))?.state !== 'failed'; i++)
          await new Promise((r) => setTimeout(r, 50));
        return admin.post(`/api/admin/jobs/walk-fail/${id}/retry`);
      },
    ],
    ['POST /logout', async () => admin.post('/logout')],
  ];
}

/** Sign-in links sent so far: their event is written after the email, once the answer has gone. */
const linksSent = async () =>
  Number(
    (await t.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.action, 'user.sign_in_link_sent')))[0]!.n,
  );
const eventCount = async () => Number((await t.db.select({ n: count() }).from(auditEvents))[0]!.n);

describe('every state-changing route writes history', () => {
  it('has a step for every POST, PUT, PATCH and DELETE of the OpenAPI document', async () => {
    const doc = (await admin.get('/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
    const writing = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops)
        .filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    const walked = new Set((await steps()).map(([route]) => route));
    expect(writing.filter((r) => !walked.has(r))).toEqual([]);
  });

  it('writes at least one event for each successful request, and names the route when it does not', async () => {
    const silent: string[] = [];
    for (const [route, run] of await steps()) {
      const before = await eventCount();
      const res = await run();
      expect(res.statusCode, `${route}: ${res.body.slice(0, 300)}`).toBeLessThan(400);
      if ((await eventCount()) <= before && !READS.has(route)) silent.push(route);
    }
    expect(silent).toEqual([]);
  });
});
