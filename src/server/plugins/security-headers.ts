import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every reply, its middleware made once (decision 032): @fastify/helmet
 * 13 makes it again for every request, parsing its Content-Security-Policy each time, a twelfth of
 * what a cached public page costs the server.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: HelmetOptions) => {
  const setHeaders = helmet(options);
  app.addHook('onRequest', (request, reply, done) =>
    setHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
});
