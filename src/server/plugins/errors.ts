import { StorageUnavailable } from '../../shared/storage/index.ts';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { unstorableTextErrors } from '../../contract/common.ts';
import { HttpError, summarise, validationError } from '../errors.ts';
import { pgError } from '../sql.ts';

/* eslint-disable @typescript-eslint/consistent-type-definitions -- module augmentation needs interfaces */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'oauth': refusals in RFC 6749's shape (`{error, error_description}`, 400) instead of ours */
    errorShape?: 'oauth';
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

export const CSRF_MISMATCH = 'CSRF token mismatch.';
/** logged when the database, not the contract, refused a value */
export const DATA_EXCEPTION_LOG = 'database refused a value the contract let through';

/** How much of a body over the limit is read and dropped before its 413 is sent, and for how long. */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 15_000;

/**
 * The rest of a body that will not be used, read and dropped: a connection closed while its
 * client is still sending is a broken pipe to that client (Node's http, a browser on a slow
 * upload), which never reads the answer. Bounded in size and time; past either, the connection
 * is closed anyway.
 */
function drain(raw: FastifyRequest['raw']): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let bytes = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', count);
      raw.off('end', done);
      raw.off('error', done);
      raw.off('close', done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MS);
    raw.on('data', count);
    raw.once('end', done);
    raw.once('error', done);
    raw.once('close', done);
    raw.resume();
  });
}

/** Every failure answers in the DESIGN.md shape; no stack trace or internal detail ever leaves. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const { status, body } = answer(error, request);
    if (status === 413) await drain(request.raw);
    if (error instanceof HttpError && error.headers) reply.headers(error.headers);
    // the token endpoint speaks RFC 6749 §5.2, whatever went wrong (a 429 keeps its message)
    if (request.routeOptions.config?.errorShape === 'oauth' && status !== 429) {
      const code = status >= 500 ? 'server_error' : 'invalid_request';
      return reply.status(status >= 500 ? 500 : 400).send({ error: code, error_description: body.message });
    }
    return reply.status(status).send(body);
  });
});

/**
 * Text the database cannot store (NUL, a lone surrogate) is a field error on every route, before
 * any schema or service sees it; multipart fields are checked where they are read. Registered
 * after the auth plugin, so that an anonymous or forged request is refused before its content
 * is looked at.
 */
export const storableTextPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request, reply) => {
    const errors = {
      ...unstorableTextErrors(request.params),
      ...unstorableTextErrors(request.query),
      ...(request.isMultipart() ? {} : unstorableTextErrors(request.body)),
    };
    if (!Object.keys(errors).length) return;
    if (request.routeOptions.config.errorShape === 'oauth') {
      return reply
        .status(400)
        .send({ error: 'invalid_request', error_description: 'The request has a malformed parameter.' });
    }
    throw validationError(errors);
  });
});

type Answer = { status: number; body: { message: string; errors?: Record<string, string[]> } };

function answer(error: FastifyError, request: FastifyRequest): Answer {
  if (error instanceof HttpError) {
    // a dependency that failed (the mail server, say): what went wrong goes to the log only
    if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error, reqId: request.id }, error.message);
    return {
      status: error.statusCode,
      body: error.errors ? { message: error.message, errors: error.errors } : { message: error.message },
    };
  }
  if (error instanceof StorageUnavailable) {
    // S3 or the disk did not answer: the request may be sent again; the reason goes to the log only
    request.log.error({ err: error.cause ?? error, reqId: request.id }, error.message);
    return {
      status: 503,
      body: { message: 'The file store cannot be reached just now. Please try again in a moment.' },
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: Record<string, string[]> = {};
    for (const issue of error.validation) {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
      (errors[field] ??= []).push(issue.message ?? 'The value is not valid.');
    }
    return { status: 422, body: { message: summarise(errors), errors } };
  }
  if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
    return { status: 419, body: { message: CSRF_MISMATCH } };
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, reqId: request.id }, 'reply did not match its schema');
    return { status: 500, body: { message: 'Server Error' } };
  }
  // the last line of defence: a value the database refused as data (class 22: a number out of
  // its type's range, text it cannot hold, a malformed literal) is the request's fault. The
  // contract refuses these first; reaching here is logged so that a test can see it never does.
  const sqlState = pgError(error).code;
  if (typeof sqlState === 'string' && sqlState.startsWith('22')) {
    request.log.warn({ reqId: request.id, sqlState, route: request.routeOptions.url }, DATA_EXCEPTION_LOG);
    return { status: 422, body: { message: 'The given data was invalid.' } };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, body: { message: clientMessage(error, status) } };
  request.log.error({ err: error, reqId: request.id }, 'unexpected error');
  return { status: 500, body: { message: 'Server Error' } };
}

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
