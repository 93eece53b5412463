import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  charityListQuery,
  charitySchema,
  createCharitySchema,
  LOGO_MAX_BYTES,
  updateCharitySchema,
} from '../../../contract/charities.ts';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import type { Db } from '../../../db/client.ts';
import { validationError } from '../../errors.ts';
import type { FileStore } from '../../../shared/storage/index.ts';
import { readUpload } from '../../uploads.ts';
import { CharityService } from './service.ts';

const tags = ['charities'];

export async function charityRoutes(app: FastifyInstance, opts: { db: Db; files: FileStore }) {
  const service = new CharityService(opts.db, opts.files);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/charities',
    {
      schema: {
        tags,
        summary: 'Charities by name, optionally filtered by name and type',
        querystring: charityListQuery,
        response: { 200: z.array(charitySchema) },
      },
    },
    async (request) => service.list(request.query),
  );

  r.post(
    '/api/charities',
    {
      schema: {
        tags,
        summary: 'Add a charity',
        body: createCharitySchema,
        response: { 201: charitySchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.body)),
  );

  r.get(
    '/api/charities/:id',
    { schema: { tags, summary: 'One charity', params: idParam, response: { 200: charitySchema, 404: messageSchema } } },
    async (request) => service.get(request.params.id),
  );

  r.patch(
    '/api/charities/:id',
    {
      schema: {
        tags,
        summary: 'Change a charity',
        params: idParam,
        body: updateCharitySchema,
        response: { 200: charitySchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.update(request.params.id, request.body),
  );

  r.delete(
    '/api/charities/:id',
    {
      schema: {
        tags,
        summary: 'Delete a charity no trip or booking refers to',
        params: idParam,
        response: { 204: z.null(), 404: messageSchema, 422: messageSchema },
      },
    },
    async (request, reply) => {
      await service.delete(request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/api/charities/:id/logo',
    {
      schema: {
        tags,
        summary: 'Upload a logo (multipart: charity_id, charity_logo; a real JPG or PNG of at most 5 MB)',
        params: idParam,
        consumes: ['multipart/form-data'],
        response: { 200: charitySchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      await service.get(id);
      const upload = await readUpload(request, {
        fileField: 'charity_logo',
        label: 'charity logo',
        maxBytes: LOGO_MAX_BYTES,
        files: opts.files,
        kind: 'logos',
        accept: CharityService.acceptLogo,
        refused: 'The charity logo must be a JPG or PNG image.',
      });
      if (upload.fields.charity_id !== undefined && upload.fields.charity_id !== String(id)) {
        await upload.discard();
        throw validationError({ charity_id: ['The charity id does not match the address.'] });
      }
      return service.setLogo(id, upload.file);
    },
  );

  r.delete(
    '/api/charities/:id/logo',
    {
      schema: {
        tags,
        summary: 'Remove the logo',
        params: idParam,
        response: { 200: charitySchema, 404: messageSchema },
      },
    },
    async (request) => service.removeLogo(request.params.id),
  );

  r.get(
    '/api/charities/:id/logo',
    { schema: { tags, summary: 'The logo image', params: idParam } },
    async (request, reply) => {
      const { stream, mime } = await service.logoFile(request.params.id);
      return reply.type(mime).header('cache-control', 'private, max-age=86400').send(stream);
    },
  );
}
