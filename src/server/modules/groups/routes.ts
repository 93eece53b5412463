import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import {
  groupInputSchema,
  groupInvoiceSchema,
  groupPaymentInputSchema,
  groupPaymentSchema,
  groupRemindersSchema,
  groupSchema,
  leaderGroupSchema,
  leaderGroupsSchema,
  PUPIL_IMPORT_MAX_MB,
  pupilInputSchema,
  pupilsAddedSchema,
} from '../../../contract/groups.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../clock.ts';
import type { Mailer } from '../../common/mailer.ts';
import type { Operator } from '../../common/operator.ts';
import { allows } from '../../../contract/permissions.ts';
import { validationError } from '../../errors.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { GroupInvoiceService } from './invoice.ts';
import { groupListXlsx, LeaderService } from './leader.ts';
import { PupilService } from './pupils.ts';
import { GroupReminderService } from './reminders.ts';
import { GroupService } from './service.ts';

export type GroupRouteDeps = {
  db: Db;
  fundraisingDefaults: FundraisingDefaults;
  clock: Pick<Clock, 'now'>;
  mailer: Mailer;
  operator: Operator;
  reminderDays: number[];
};

const MB = 1024 * 1024;

const sendPdf = (reply: FastifyReply, doc: { pdf: Buffer; ref: string }) =>
  reply
    .type('application/pdf')
    .header('cache-control', 'no-store')
    .header('content-disposition', `inline; filename="${doc.ref.replace(/[^\w.-]/g, '_')}.pdf"`)
    .send(doc.pdf);

const tags = ['school groups'];

/** A school trip's groups, for the office (bookings scope and permission). */
export async function groupRoutes(app: FastifyInstance, opts: GroupRouteDeps) {
  const groupInvoices = new GroupInvoiceService(opts);
  const service = new GroupService(opts.db, opts.fundraisingDefaults, opts.clock, groupInvoices);
  const leader = new LeaderService(opts.db, opts.fundraisingDefaults, opts.clock, opts.operator.payLinks);
  const pupils = new PupilService(opts);
  const reminders = new GroupReminderService({ ...opts, leader, pupils });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/trips/:id/groups',
    {
      schema: {
        tags,
        summary: "A trip's school groups, each with its leader, places and pupils",
        params: idParam,
        response: { 200: z.array(groupSchema), 404: messageSchema },
      },
    },
    async (request) => service.list(request.params.id),
  );

  r.post(
    '/api/trips/:id/groups',
    {
      schema: {
        tags,
        summary: "Adds a school's group to a school trip; its leader's End User account is found by email, or made",
        params: idParam,
        body: groupInputSchema,
        response: { 201: groupSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.params.id, request.body)),
  );

  r.get(
    '/api/groups/:id',
    {
      schema: {
        tags,
        summary: 'One school group',
        params: idParam,
        response: { 200: groupSchema, 404: messageSchema },
      },
    },
    async (request) => service.get(request.params.id),
  );

  r.put(
    '/api/groups/:id',
    {
      schema: {
        tags,
        summary: 'Changes a school group: its school, leader, places and who pays',
        params: idParam,
        body: groupInputSchema,
        response: { 200: groupSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) =>
      service.update(request.params.id, request.body, request.user!.id, {
        // who pays changes the pupils' invoices and schedules: money's permission and scope too
        mayBill:
          allows(request.user!.team?.permissions, 'finance', 'change') &&
          (!request.bearer || request.bearer.scopes.includes('finance:write')),
      }),
  );

  r.get(
    '/api/groups/:id/invoice',
    {
      schema: {
        tags,
        summary:
          "A school group's invoice: the school's share of each pupil (one line per pupil, each an invoice on their booking), what is paid and outstanding; null when the parents pay",
        params: idParam,
        response: { 200: groupInvoiceSchema.nullable(), 404: messageSchema },
      },
    },
    async (request) => groupInvoices.forGroup(request.params.id, `/api/groups/${request.params.id}/invoice/pdf`),
  );

  r.get(
    '/api/groups/:id/invoice/pdf',
    { schema: { tags, summary: "A school group's invoice as a PDF, billed to the school", params: idParam } },
    async (request, reply) => sendPdf(reply, await groupInvoices.pdf(request.params.id)),
  );

  r.post(
    '/api/groups/:id/payments',
    {
      schema: {
        tags,
        summary:
          "Records the school's payment on its group invoice, split to its pupils' shares (the earliest due first), in one transaction; more than is owed is refused",
        params: idParam,
        body: groupPaymentInputSchema,
        response: { 201: groupPaymentSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await groupInvoices.recordPayment(
            request.params.id,
            request.body,
            request.user!.id,
            `/api/groups/${request.params.id}/invoice/pdf`,
          ),
        ),
  );

  // a group leader's own (an End User, signed in: /api/my is theirs alone)
  r.get(
    '/api/my/groups',
    {
      schema: {
        tags,
        summary: 'The school groups the signed-in group leader leads',
        response: { 200: leaderGroupsSchema },
      },
    },
    async (request) => leader.groups(request.user!.id),
  );

  r.get(
    '/api/my/groups/:id',
    {
      schema: {
        tags,
        summary: "A group leader's group: each pupil's money, consent, form and readiness (never the medical detail)",
        params: idParam,
        response: { 200: leaderGroupSchema, 404: messageSchema },
      },
    },
    async (request) => leader.group(request.user!.id, request.params.id),
  );

  r.post(
    '/api/my/groups/:id/pupils',
    {
      schema: {
        tags,
        summary:
          "A group leader adds one pupil: a provisional booking in the group, on their parent's account; the parent is emailed an invitation",
        params: idParam,
        body: pupilInputSchema,
        response: { 201: pupilsAddedSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await pupils.addOne(request.user!.id, request.params.id, request.body)),
  );

  r.post(
    '/api/my/groups/:id/pupils/import',
    {
      schema: {
        tags,
        summary: `A group leader's list of pupils (multipart, field file: an .xlsx or UTF-8 .csv of at most ${PUPIL_IMPORT_MAX_MB} MB, its first row naming the columns First name, Last name, Date of birth, Parent’s name, Parent’s email). Any bad row: 422 naming each (errors keyed rows.N.field), and nothing is saved`,
        params: idParam,
        consumes: ['multipart/form-data'],
        response: { 201: pupilsAddedSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => {
      const noFile = () => validationError({ file: ['Choose a list to import: an .xlsx or .csv file.'] });
      if (!request.isMultipart()) throw noFile();
      const part = await request.file({ limits: { fileSize: PUPIL_IMPORT_MAX_MB * MB, files: 1 } });
      if (!part || part.fieldname !== 'file') {
        part?.file.resume();
        throw noFile();
      }
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch {
        throw validationError({ file: [`The list must not be greater than ${PUPIL_IMPORT_MAX_MB} MB.`] });
      }
      if (!bytes.length) throw noFile();
      return reply.status(201).send(await pupils.importList(request.user!.id, request.params.id, bytes, part.filename));
    },
  );

  r.post(
    '/api/my/groups/:id/reminders',
    {
      schema: {
        tags,
        summary:
          "A group leader's one click: payment reminders, chasers and invitations to the parents of the pupils who are behind or not ready (their opt-outs respected); once a day",
        params: idParam,
        response: { 200: groupRemindersSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => reminders.send(request.user!.id, request.params.id),
  );

  r.get(
    '/api/my/groups/:id/invoice/pdf',
    {
      schema: { tags, summary: "A group leader's group invoice as a PDF, when the school pays", params: idParam },
    },
    async (request, reply) => {
      // the leader's own group, or not found
      await leader.group(request.user!.id, request.params.id);
      return sendPdf(reply, await groupInvoices.pdf(request.params.id));
    },
  );

  r.get(
    '/api/my/groups/:id/list',
    {
      schema: {
        tags,
        summary: "A group leader's list of their pupils as an .xlsx, without medical detail; recorded in the history",
        params: idParam,
      },
    },
    async (request, reply) => {
      const { name, body } = await groupListXlsx(opts.db, leader, request.user!.id, request.params.id);
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(body);
    },
  );
}
