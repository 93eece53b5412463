import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError, summarise } from '../errors.ts';

export const CSRF_MISMATCH = 'CSRF token mismatch.';

/** Every failure answers in the DESIGN.md shape; no stack trace or internal detail ever leaves. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      // a dependency that failed (the mail server, say): what went wrong goes to the log only
      if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error, reqId: request.id }, error.message);
      if (error.headers) reply.headers(error.headers);
      const body = error.errors ? { message: error.message, errors: error.errors } : { message: error.message };
      return reply.status(error.statusCode).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        (errors[field] ??= []).push(issue.message ?? 'The value is not valid.');
      }
      return reply.status(422).send({ message: summarise(errors), errors });
    }
    if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
      return reply.status(419).send({ message: CSRF_MISMATCH });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, reqId: request.id }, 'reply did not match its schema');
      return reply.status(500).send({ message: 'Server Error' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: clientMessage(error, status) });
    }
    request.log.error({ err: error, reqId: request.id }, 'unexpected error');
    return reply.status(500).send({ message: 'Server Error' });
  });
});

function clientMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not accepted here.';
  }
  if (status === 429) return error.message;
  if (status === 404) return 'Not Found';
  if (status === 413) return 'The request body is too large.';
  if (status === 415) return 'This content type is not accepted here.';
  return 'Bad request.';
}
