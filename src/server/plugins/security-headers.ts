import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every reply. They are the same for every request (no directive
 * here depends on it), so helmet works them out once when the app starts, and each reply is given
 * them as they are: @fastify/helmet 13 made its middleware again for every request, parsing its
 * Content-Security-Policy each time (decision 032), and running helmet's dozen middlewares on
 * every request cost a signed-in list a tenth of its time outside SQL (issue 33). A route may still
 * set its own (the OAuth consent page's Content-Security-Policy).
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: HelmetOptions) => {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
});

/** The headers helmet sets with these options, by name (lower case). */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  if (dependsOnRequest(options))
    throw new Error('A security header that depends on the request (a function in its options) cannot be set once.');
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not set its headers at once');
  return headers;
}

function dependsOnRequest(value: unknown): boolean {
  if (typeof value === 'function') return true;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(dependsOnRequest);
}
