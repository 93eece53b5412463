import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import {
  checkoutOutcomeSchema,
  checkoutStartedSchema,
  payCheckoutParam,
  payLinkSchema,
  payPageRefusalSchema,
  payPageSchema,
  payTokenParam,
} from '../../../contract/card-payments.ts';
import { CardPaymentService, PayLinkRefused } from './service.ts';

const tags = ['card payments'];
// a payer presses a button a few times at most; a script walking tokens is stopped here
const PUBLIC_LIMIT = { max: 60, timeWindow: '1 minute' };

/** A refused link answers with why and whom to contact; anything else goes to the error plugin. */
async function orRefusal<T>(reply: FastifyReply, operator: string, fn: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof PayLinkRefused) {
      return reply
        .status(error.statusCode)
        .header('cache-control', 'no-store')
        .send({ message: error.message, reason: error.reason, operator: error.reason === 'invalid' ? null : operator });
    }
    throw error;
  }
}

export async function cardPaymentRoutes(
  app: FastifyInstance,
  opts: { service: CardPaymentService; operatorName: string },
) {
  const { service } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const refusals = { 404: payPageRefusalSchema, 410: payPageRefusalSchema };

  r.get(
    '/api/public/pay/:token',
    {
      config: { access: 'guest', rateLimit: PUBLIC_LIMIT },
      schema: {
        tags,
        summary:
          'What a pay link pays: the operator, the trip, the invoice reference, the traveller’s first name and the amount outstanding',
        params: payTokenParam,
        response: { 200: payPageSchema, ...refusals },
      },
    },
    async (request, reply) =>
      orRefusal(reply, opts.operatorName, async () => {
        reply.header('cache-control', 'no-store');
        return service.payPage(request.params.token);
      }),
  );

  r.post(
    '/api/public/pay/:token/checkout',
    {
      config: { access: 'guest', rateLimit: PUBLIC_LIMIT },
      schema: {
        tags,
        summary: 'Pay what is outstanding by card: a Stripe Checkout Session, and the address of its page',
        params: payTokenParam,
        response: { 200: checkoutStartedSchema, ...refusals, 502: messageSchema },
      },
    },
    async (request, reply) => orRefusal(reply, opts.operatorName, () => service.startCheckout(request.params.token)),
  );

  r.get(
    '/api/public/pay/:token/checkouts/:session',
    {
      config: { access: 'guest', rateLimit: PUBLIC_LIMIT },
      schema: {
        tags,
        summary:
          'Back from Stripe: whether that payment was made (asked of Stripe, and recorded if no webhook has yet)',
        params: payCheckoutParam,
        response: { 200: checkoutOutcomeSchema, ...refusals, 422: validationErrorSchema },
      },
    },
    async (request, reply) =>
      orRefusal(reply, opts.operatorName, async () => {
        reply.header('cache-control', 'no-store');
        return service.checkoutOutcome(request.params.token, request.params.session);
      }),
  );

  r.post(
    '/api/invoices/:id/pay-link',
    {
      schema: {
        tags,
        summary: 'The invoice’s pay link, for staff to send',
        params: idParam,
        response: { 200: payLinkSchema, 404: messageSchema, 409: messageSchema, 422: messageSchema },
      },
    },
    async (request) => service.payLink(request.params.id),
  );

  // the webhook reads its body as bytes: the signature is over exactly what Stripe sent
  await app.register(async (raw) => {
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    raw.withTypeProvider<ZodTypeProvider>().post(
      '/webhooks/stripe',
      {
        config: { access: 'public', scope: null },
        schema: {
          tags,
          summary: 'Stripe’s events, verified by their Stripe-Signature; each applied once',
          headers: z.object({ 'stripe-signature': z.string().max(2000).optional() }),
          response: {
            200: z.object({ received: z.literal(true), outcome: z.string() }),
            400: messageSchema,
            404: messageSchema,
          },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
        const result = await service.receiveWebhook(body, request.headers['stripe-signature']);
        // what became of each event (an unknown type or invoice too): its id and type, no payer's data
        request.log.info({ stripe_event: result.event, type: result.type, outcome: result.outcome }, 'stripe event');
        return { received: result.received, outcome: result.outcome };
      },
    );
  });
}
