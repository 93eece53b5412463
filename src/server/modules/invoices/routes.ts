import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import {
  TRANSACTION_DONE_MESSAGE,
  createInvoiceSchema,
  createStandardInvoiceSchema,
  createTransactionSchema,
  invoiceDocumentSchema,
  invoiceQuery,
  invoiceSchema,
  invoiceSendParams,
  invoiceSentSchema,
  transactionSchema,
} from '../../../contract/invoices.ts';
import type { Db } from '../../../db/client.ts';
import type { Mailer } from '../../mail/transport.ts';
import { invoicePdf } from './pdf.ts';
import { InvoiceService } from './service.ts';
import { type Operator } from '../../common/operator.ts';
import { TransactionService } from './transactions.ts';
import { AuditService } from '../../audit/service.ts';
import { validationError } from '../../errors.ts';
import { emailParams } from '../../../contract/audit.ts';

const tags = ['invoices'];
const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .trim()
    .min(1, { error: 'The Idempotency-Key header must not be empty.' })
    .max(255, { error: 'The Idempotency-Key header must not be longer than 255 characters.' })
    .optional(),
});

// why an entry is struck out, when the caller says: kept in the history with the strike-out
const strikeOutQuery = z.object({
  reason: z
    .string({ error: 'The reason must be text.' })
    .trim()
    .max(500, { error: 'The reason must not be longer than 500 characters.' })
    .optional()
    .transform((v) => v || null),
});

export async function invoiceRoutes(app: FastifyInstance, opts: { db: Db; operator: Operator; mailer: Mailer }) {
  const invoices = new InvoiceService(opts.db, opts.operator, opts.mailer);
  const history = new AuditService(opts.db);
  const transactions = new TransactionService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/invoices',
    {
      schema: {
        tags,
        summary: 'A booking’s invoices, with totals, status and every payment and refund',
        querystring: invoiceQuery,
        response: { 200: z.array(invoiceSchema), 422: validationErrorSchema },
      },
    },
    async (request) => invoices.list(request.query.booking_id),
  );
  r.get(
    '/api/invoices/:id',
    {
      schema: {
        tags,
        summary: 'One invoice with the operator, customer, booking and trip, as printed',
        params: idParam,
        response: { 200: invoiceDocumentSchema, 404: messageSchema },
      },
    },
    async (request) => invoices.document(request.params.id),
  );
  r.get(
    '/api/invoices/:id/pdf',
    { schema: { tags, summary: 'The invoice as a PDF', params: idParam } },
    async (request, reply) => {
      const doc = await invoices.document(request.params.id);
      const pdf = await invoicePdf(doc);
      return reply
        .type('application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `inline; filename="${doc.invoice.invoice_ref.replace(/[^\w.-]/g, '_')}.pdf"`)
        .send(pdf);
    },
  );
  r.post(
    '/api/bookings/:id/invoices',
    {
      schema: {
        tags,
        summary: 'Raise the standard deposit or balance invoice of a booking',
        params: idParam,
        body: createStandardInvoiceSchema,
        response: { 201: invoiceSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await invoices.createStandard(request.params.id, request.body, request.user!.id)),
  );
  r.post(
    '/api/invoices',
    {
      schema: {
        tags,
        summary: 'Raise a custom invoice (items and add-ons)',
        body: createInvoiceSchema,
        response: { 201: invoiceSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await invoices.createCustom(request.body, request.user!.id)),
  );
  r.delete(
    '/api/invoices/:id',
    {
      schema: {
        tags,
        summary: 'Delete an invoice that has no payments or refunds',
        params: idParam,
        response: { 204: z.null(), 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => {
      await invoices.delete(request.params.id);
      return reply.status(204).send(null);
    },
  );
  r.post(
    '/api/bookings/:id/invoices/:invoiceId/send',
    {
      schema: {
        tags,
        summary: 'Email the invoice to the customer as a PDF',
        params: invoiceSendParams,
        response: { 200: invoiceSentSchema, 404: messageSchema, 422: validationErrorSchema, 502: messageSchema },
      },
    },
    async (request) => invoices.send(request.params.id, request.params.invoiceId),
  );
  // an email of the history sent again: for an invoice, the invoice as it stands now
  r.post(
    '/api/bookings/:id/emails/:emailId/resend',
    {
      schema: {
        tags,
        summary: 'Send an email of the booking again (an invoice is sent as it stands now)',
        params: emailParams,
        response: { 200: invoiceSentSchema, 404: messageSchema, 422: validationErrorSchema, 502: messageSchema },
      },
    },
    async (request) => {
      const email = await history.email(request.params.id, request.params.emailId);
      if (email.about.type !== 'invoice' || !email.about.id)
        throw validationError({ emailId: ['Only invoice emails can be sent again.'] });
      return invoices.send(request.params.id, Number(email.about.id));
    },
  );
  r.post(
    '/api/transactions',
    {
      schema: {
        tags,
        summary: 'Record a payment or a refund (send an Idempotency-Key header to make retries safe)',
        headers: idempotencyHeaders,
        body: createTransactionSchema,
        response: { 201: transactionSchema.extend({ message: z.string() }), 422: validationErrorSchema },
      },
    },
    async (request, reply) => {
      const { transaction, replayed } = await transactions.create(
        request.body,
        request.headers['idempotency-key'],
        request.user!.id,
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send({ ...transaction, message: TRANSACTION_DONE_MESSAGE });
    },
  );
  r.delete(
    '/api/transactions/:id',
    {
      schema: {
        tags,
        summary: 'Strike out a payment or refund (kept in the history, left out of totals), optionally saying why',
        params: idParam,
        querystring: strikeOutQuery,
        response: { 204: z.null(), 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => {
      await transactions.delete(request.params.id, request.user!.id, request.query.reason);
      return reply.status(204).send(null);
    },
  );
}
