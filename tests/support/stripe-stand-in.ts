import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A small Stripe of our own for the tests and the e2e server: it speaks the part of Stripe's
 * HTTP API that Tripdesk calls (Checkout Sessions, refunds), through the official client pointed
 * at it with STRIPE_API_BASE, and serves a stand-in of the hosted payment page. Its events are
 * signed with the client's own test helper, as Stripe signs them.
 */
export type StandInSession = {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  client_reference_id: string | null;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
  expires_at: number;
  livemode: false;
  product_name: string;
};

export type Recorded = {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  body: Record<string, unknown>;
};

export type StripeStandIn = {
  /** STRIPE_API_BASE */
  url: string;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, StandInSession>;
  refunds: Map<string, Stripe.Refund>;
  requests: Recorded[];
  /** where the hosted page's Pay button delivers its events, when set (the e2e server) */
  webhookUrl: string | undefined;
  /** the payer pays (at `at`, seconds, default now): the session is paid, its payment intent and charge made; no event is sent */
  pay(sessionId: string, at?: number): StandInSession;
  /** the session runs out unpaid */
  expire(sessionId: string): StandInSession;
  /** an event as Stripe would send it */
  event<T extends object>(type: string, object: T, created?: number): Stripe.Event;
  /** the JSON body and a Stripe-Signature header for it (secret and time may be changed to test refusals) */
  signed(event: Stripe.Event, options?: { secret?: string; timestamp?: number }): { payload: string; header: string };
  /** a refund made in Stripe's dashboard: the refund, and the charge.refunded event that tells of it */
  refund(
    paymentIntent: string,
    amount: number,
    status?: 'succeeded' | 'pending',
  ): { refund: Stripe.Refund; event: Stripe.Event };
  close(): Promise<void>;
};

const stripe = new Stripe('sk_test_stand_in');
const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding (a[b][0][c]=v) back into objects and arrays. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[i + 1]!);
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return out;
}

export async function startStripeStandIn(options: { webhookUrl?: string } = {}): Promise<StripeStandIn> {
  const sessions = new Map<string, StandInSession>();
  const refunds = new Map<string, Stripe.Refund>();
  const charges = new Map<string, { id: string; payment_intent: string; amount: number; created: number }>();
  const requests: Recorded[] = [];
  const idempotent = new Map<string, [string, string]>();
  const secretKey = 'sk_test_tripdesk_stand_in';
  const webhookSecret = 'whsec_tripdesk_stand_in_secret';

  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const send = (status: number, value: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(type === 'application/json' ? JSON.stringify(value) : String(value));
    };
    const fail = (status: number, message: string) =>
      send(status, { error: { type: 'invalid_request_error', message } });

    // the hosted payment page: what the payer sees at session.url
    const page = /^\/c\/pay\/(cs_[\w]+)$/.exec(url.pathname);
    if (page) {
      const session = sessions.get(page[1]!);
      if (!session) return send(404, 'No such session', 'text/plain');
      if (req.method === 'POST') {
        if (session.status === 'open') {
          t.pay(session.id);
          if (t.webhookUrl)
            await deliver(t.webhookUrl, t.signed(t.event('checkout.session.completed', sessions.get(session.id)!)));
        }
        res.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) });
        return res.end();
      }
      const pounds = (session.amount_total / 100).toLocaleString('en-GB', { style: 'currency', currency: 'GBP' });
      return send(
        200,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Stripe stand-in checkout</title></head>` +
          `<body style="font-family:sans-serif;max-width:420px;margin:40px auto;padding:0 16px"><h1>Stand-in checkout</h1><p>${escape(session.product_name)}</p><p>Amount: <strong>${pounds}</strong></p>` +
          `<form method="post"><button type="submit" style="font-size:18px;padding:10px 24px">Pay ${pounds}</button></form>` +
          `<p><a href="${escape(session.cancel_url)}">Back</a></p></body></html>`,
        'text/html; charset=utf-8',
      );
    }

    if (!url.pathname.startsWith('/v1/')) return fail(404, `Unrecognized request URL (${req.method}: ${url.pathname})`);
    const authorization = req.headers.authorization;
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    const form = req.method === 'GET' ? Object.fromEntries(url.searchParams) : parseStripeForm(body);
    requests.push({ method: req.method ?? 'GET', path: url.pathname, idempotencyKey, authorization, body: form });
    if (authorization !== `Bearer ${secretKey}`)
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });

    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (idempotencyKey && idempotent.has(idempotencyKey)) {
        const [sessionId, sent] = idempotent.get(idempotencyKey)!;
        // as Stripe: a key used again with other parameters is refused
        if (sent !== body)
          return send(400, {
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          });
        return send(200, sessions.get(sessionId));
      }
      const items = (form.line_items ?? []) as Array<{
        quantity: string;
        price_data: { currency: string; unit_amount: string; product_data: { name: string } };
      }>;
      const amount = items.reduce((sum, i) => sum + Number(i.price_data.unit_amount) * Number(i.quantity), 0);
      if (!items.length || !(amount > 0)) return fail(400, 'line_items must have a positive amount');
      const now = Math.floor(Date.now() / 1000);
      const sessionId = id('cs');
      const session: StandInSession = {
        id: sessionId,
        object: 'checkout.session',
        mode: String(form.mode),
        status: 'open',
        payment_status: 'unpaid',
        amount_total: amount,
        currency: items[0]!.price_data.currency,
        metadata: (form.metadata ?? {}) as Record<string, string>,
        client_reference_id: (form.client_reference_id as string) ?? null,
        payment_intent: null,
        success_url: String(form.success_url),
        cancel_url: String(form.cancel_url),
        url: `${t.url}/c/pay/${sessionId}`,
        created: now,
        expires_at: form.expires_at ? Number(form.expires_at) : now + 86_400,
        livemode: false,
        product_name: items[0]!.price_data.product_data.name,
      };
      sessions.set(sessionId, session);
      if (idempotencyKey) idempotent.set(idempotencyKey, [sessionId, body]);
      return send(200, session);
    }
    const one = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      const session = sessions.get(one[1]!);
      if (!session) return fail(404, `No such checkout.session: '${one[1]}'`);
      // expand[]=payment_intent: the payment intent itself in place of its id, as Stripe gives it
      const expand = [...url.searchParams].filter(([key]) => key.startsWith('expand')).map(([, value]) => value);
      const charge = session.payment_intent ? charges.get(session.payment_intent) : undefined;
      if (!expand.includes('payment_intent') || !charge) return send(200, session);
      return send(200, {
        ...session,
        payment_intent: {
          id: charge.payment_intent,
          object: 'payment_intent',
          amount: charge.amount,
          amount_received: charge.amount,
          currency: 'gbp',
          status: 'succeeded',
          created: charge.created,
          latest_charge: charge.id,
          livemode: false,
        },
      });
    }
    if (req.method === 'GET' && url.pathname === '/v1/refunds') {
      const charge = url.searchParams.get('charge');
      const data = [...refunds.values()].filter((r) => !charge || r.charge === charge);
      return send(200, { object: 'list', data, has_more: false, url: '/v1/refunds' });
    }
    return fail(404, `Unrecognized request URL (${req.method}: ${url.pathname})`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const t: StripeStandIn = {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    sessions,
    refunds,
    requests,
    webhookUrl: options.webhookUrl,
    pay(sessionId, at = Math.floor(Date.now() / 1000)) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const paymentIntent = id('pi');
      charges.set(paymentIntent, {
        id: id('ch'),
        payment_intent: paymentIntent,
        amount: session.amount_total,
        created: at,
      });
      Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: paymentIntent, url: null });
      return session;
    },
    expire(sessionId) {
      const session = sessions.get(sessionId)!;
      Object.assign(session, { status: 'expired', url: null });
      return session;
    },
    event(type, object, created = Math.floor(Date.now() / 1000)) {
      return {
        id: id('evt'),
        object: 'event',
        api_version: '2026-10-28.endive',
        created,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object },
      } as unknown as Stripe.Event;
    },
    signed(event, o = {}) {
      const payload = JSON.stringify(event, null, 2);
      const header = stripe.webhooks.generateTestHeaderString({
        payload,
        secret: o.secret ?? webhookSecret,
        ...(o.timestamp ? { timestamp: o.timestamp } : {}),
      });
      return { payload, header };
    },
    refund(paymentIntent, amount, status = 'succeeded') {
      const charge = charges.get(paymentIntent);
      if (!charge) throw new Error(`no charge for ${paymentIntent}`);
      const refund = {
        id: id('re'),
        object: 'refund',
        amount,
        charge: charge.id,
        payment_intent: paymentIntent,
        currency: 'gbp',
        status,
        created: Math.floor(Date.now() / 1000),
      } as unknown as Stripe.Refund;
      refunds.set(refund.id, refund);
      const refunded = [...refunds.values()].filter((r) => r.charge === charge.id).reduce((s, r) => s + r.amount, 0);
      // as recent API versions send it: the refunds are not in the event, and are listed on request
      const event = t.event('charge.refunded', {
        id: charge.id,
        object: 'charge',
        amount: charge.amount,
        amount_refunded: refunded,
        payment_intent: paymentIntent,
        refunded: refunded >= charge.amount,
        currency: 'gbp',
      });
      return { refund, event };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return t;
}

/** Posts a signed event to a webhook endpoint, as Stripe does. */
export async function deliver(url: string, signed: { payload: string; header: string }): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signed.header },
    body: signed.payload,
  });
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
