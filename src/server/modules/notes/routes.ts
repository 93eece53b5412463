import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { createNoteSchema, noteQuery, noteSchema, updateNoteSchema } from '../../../contract/notes.ts';
import type { Db } from '../../../db/client.ts';
import { NoteService } from './service.ts';

const tags = ['bookings'];

export async function noteRoutes(app: FastifyInstance, opts: { db: Db }) {
  const service = new NoteService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/bookingNotes',
    {
      schema: {
        tags,
        summary: 'A booking’s notes, newest first',
        querystring: noteQuery,
        response: { 200: z.array(noteSchema), 422: validationErrorSchema },
      },
    },
    async (request) => service.list(request.query.booking_id),
  );
  r.post(
    '/api/bookingNotes',
    {
      schema: {
        tags,
        summary: 'Add a note (rich text, sanitised) with the author and their IP address',
        body: createNoteSchema,
        response: { 201: noteSchema, 422: validationErrorSchema },
      },
    },
    // request.ip is the client's address; X-Forwarded-For counts only from a TRUST_PROXY proxy
    async (request, reply) =>
      reply.status(201).send(await service.create(request.body, { userId: request.user!.id, ip: request.ip })),
  );
  r.patch(
    '/api/bookingNotes/:id',
    {
      schema: {
        tags,
        summary: 'Change a note’s text',
        params: idParam,
        body: updateNoteSchema,
        response: { 200: noteSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.update(request.params.id, request.body),
  );
  r.delete(
    '/api/bookingNotes/:id',
    { schema: { tags, summary: 'Delete a note', params: idParam, response: { 204: z.null(), 404: messageSchema } } },
    async (request, reply) => {
      await service.delete(request.params.id);
      return reply.status(204).send(null);
    },
  );
}
