import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { createDocumentSchema, DOCUMENT_MAX_BYTES, documentSchema } from '../../../contract/trips.ts';
import type { Db } from '../../../db/client.ts';
import { validationError } from '../../errors.ts';
import type { FileStore } from '../../../shared/storage/index.ts';
import { readUpload } from '../../uploads.ts';
import { acceptDocument, DocumentService } from './service.ts';

const tags = ['trips'];

export async function documentRoutes(app: FastifyInstance, opts: { db: Db; files: FileStore; secret: string }) {
  const service = new DocumentService(opts.db, opts.files, opts.secret);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/trips/:id/documents',
    {
      schema: {
        tags,
        summary: 'A trip’s documents, each with a signed download address valid for an hour',
        params: idParam,
        response: { 200: z.array(documentSchema), 404: messageSchema },
      },
    },
    async (request) => service.list(request.params.id),
  );
  r.post(
    '/api/documents',
    {
      schema: {
        tags,
        summary: 'Add a document (its file is uploaded next)',
        body: createDocumentSchema,
        response: { 201: documentSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.body)),
  );
  r.delete(
    '/api/documents/:id',
    {
      schema: {
        tags,
        summary: 'Remove a document and its file',
        params: idParam,
        response: { 204: z.null(), 404: messageSchema },
      },
    },
    async (request, reply) => {
      await service.delete(request.params.id);
      return reply.status(204).send(null);
    },
  );
  r.post(
    '/api/documents/:id/upload',
    {
      schema: {
        tags,
        summary:
          'Upload a document’s file (multipart: document_id, document_file; PDF, image, Word, Excel or text, at most 20 MB)',
        params: idParam,
        consumes: ['multipart/form-data'],
        response: { 200: documentSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      const upload = await readUpload(request, {
        fileField: 'document_file',
        label: 'document file',
        maxBytes: DOCUMENT_MAX_BYTES,
        files: opts.files,
        kind: 'documents',
        accept: acceptDocument,
        refused: 'The document file must be a PDF, an image, a Word or Excel file, or a text file.',
      });
      if (upload.fields.document_id !== undefined && upload.fields.document_id !== String(id)) {
        await upload.discard();
        throw validationError({ document_id: ['The document id does not match the address.'] });
      }
      return service.upload(id, upload.file);
    },
  );

  // the signed address is the credential: no session needed, nothing to learn from a refusal
  r.get(
    '/files/documents/:id',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Download a document through its signed address',
        params: idParam,
        querystring: z.object({ expires: z.coerce.number().int(), signature: z.string().max(200) }),
      },
    },
    async (request, reply) => {
      const found = await service.resolveSigned(request.params.id, request.query.expires, request.query.signature);
      if (!found) return reply.status(403).send({ message: 'This download link has expired or is not valid.' });
      return reply
        .type(found.mime)
        .header('content-disposition', `attachment; filename="${found.filename.replace(/"/g, '')}"`)
        .header('cache-control', 'private, no-store')
        .send(found.stream);
    },
  );
}
