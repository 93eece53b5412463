import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifySession, { type FastifySessionOptions } from '@fastify/session';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ROLES } from '../../contract/constants.ts';
import { allows, permissionMessage } from '../../contract/teams.ts';
import { watchAuth, type Db } from '../../db/client.ts';
import { forbidden, HttpError, unauthenticated } from '../errors.ts';
import { type AuthUser, findAuthUser } from '../modules/auth/service.ts';
import { authenticateBearer, bearerToken } from './bearer.ts';
import { defaultAccess } from './access.ts';
import { requiredPermissions } from './scopes.ts';
import { compareSessionsByTheirJson } from './session-changes.ts';
import { DbSessionStore, type SessionTimeouts } from './session-store.ts';
import { keptSignatures } from './session-signer.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** false: the route never reads or writes the session (probes, metrics, static files, a trip's public page) */
    session?: false;
  }
}

declare module '@fastify/session' {
  interface FastifySessionObject {
    userId?: number;
    createdAt?: number;
    lastSeenAt?: number;
    /** one-time messages for the next page, from a form post or a redirect */
    flash?: string[];
  }
}

export const SESSION_COOKIE = 'tripdesk_session';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// lastSeenAt is written at most this often, so most requests cost no session write
const TOUCH_EVERY_MS = 60_000;

export type AuthOptions = { db: Db; secret: string; timeouts: SessionTimeouts };

export const authPlugin = fp(async (app: FastifyInstance, opts: AuthOptions) => {
  await app.register(fastifyCookie);
  const store = new DbSessionStore(opts.db, opts.timeouts);
  // the sessions read are remembered only while every change to them is heard (decision 036)
  const stopWatching = await watchAuth(opts.db)?.(store.remembered);
  if (stopWatching) app.addHook('onClose', stopWatching);
  await app.register(sessionsWhereUsed, {
    secret: keptSignatures(opts.secret),
    cookieName: SESSION_COOKIE,
    store,
    saveUninitialized: false,
    // idle and absolute timeouts are kept on the server (lastSeenAt, createdAt), not by the cookie
    rolling: false,
    cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', path: '/' },
  });
  await app.register(fastifyCsrf, { sessionPlugin: '@fastify/session' });

  app.decorateRequest('user', null);
  app.decorateRequest('bearer', null);

  app.addHook('onRequest', async (request) => {
    if (needsNoSession(request)) return;
    const session = request.session;
    // the user row read with the session, in the same query (always taken, used or not)
    const prefetched = store.takeUser(session.sessionId);
    // a request with a bearer token is the token's alone: a session cookie beside it is ignored
    if (bearerToken(request) !== undefined) return;
    if (!session.userId) return;
    const now = Date.now();
    const expired =
      now - (session.lastSeenAt ?? 0) > opts.timeouts.idleMs ||
      now - (session.createdAt ?? 0) > opts.timeouts.absoluteMs;
    const user = expired
      ? null
      : prefetched !== undefined && (prefetched === null || prefetched.id === session.userId)
        ? prefetched
        : await findAuthUser(opts.db, session.userId);
    // a session that "sign out everywhere" ended, even one written back by a request in flight
    if (!user || (user.sessionsEndedAt && (session.createdAt ?? 0) < user.sessionsEndedAt.getTime())) {
      await session.destroy();
      return;
    }
    request.user = user;
    if (now - (session.lastSeenAt ?? 0) > TOUCH_EVERY_MS) session.lastSeenAt = now;
  });

  // after the body is parsed (a form may carry _csrf) and before validation, so that an
  // unauthenticated or forged request is refused before its content is even looked at
  app.addHook('preValidation', async (request, reply) => {
    if (request.is404) return;
    // from the matched route's pattern, never the raw URL: the router decodes "/%61pi/…" to "/api/…"
    const access = request.routeOptions.config?.access ?? defaultAccess(request.routeOptions.url ?? request.url);
    if (access === 'public') return;
    if (access === 'guest') {
      if (UNSAFE.has(request.method)) await checkCsrf(app, request, reply);
      return;
    }
    const token = bearerToken(request);
    if (access === 'traveller') {
      // a traveller's pages are theirs in a browser: no token reaches them
      if (token !== undefined) throw forbidden("A traveller's own pages are reached signed in, not with a token.");
      if (!request.user) throw unauthenticated();
      if (UNSAFE.has(request.method)) await checkCsrf(app, request, reply);
      if (request.user.roleId !== ROLES.endUser) throw forbidden("These are a traveller's own pages.");
      return;
    }
    if (token !== undefined) {
      await authenticateBearer(opts.db, request, token);
    } else {
      if (!request.user) throw unauthenticated();
      if (UNSAFE.has(request.method)) await checkCsrf(app, request, reply);
    }
    if (!request.user) throw unauthenticated();
    if (access === 'admin') {
      if (request.user.roleId !== ROLES.administrator) throw forbidden();
      // what the member's team may do, as it is now: a changed team counts from the next request
      for (const need of requiredPermissions(request.method, request.routeOptions.url)) {
        if (!allows(request.user.team?.permissions, need.permission, need.level))
          throw new HttpError(403, permissionMessage(need.permission, need.level), undefined, {
            'x-permission-needed': `${need.permission}:${need.level}`,
          });
      }
    }
    if (access === 'charity') {
      if (request.user.roleId !== ROLES.charity)
        throw forbidden('The charity portal is for the accounts of charity partners.');
      if (request.user.charityId === null)
        throw forbidden('Your account is not linked to a charity yet: ask the office to link it.');
    }
  });
});

/** A request whose route never reads or writes the session: a probe, a static file, a trip's public page. */
function needsNoSession(request: FastifyRequest): boolean {
  return request.routeOptions.config?.session === false || request.routeOptions.url?.startsWith('/assets/') === true;
}

/**
 * @fastify/session, its hooks left out of the requests that need no session (decision 032). It
 * makes a session for every request, even one without a cookie whose route never reads it (an id,
 * its signature, two hashes: a seventh of what a cached public page costs the server). And a
 * request that needs none does not read its cookie: no database round trip, and no answer that
 * clears or rewrites the cookie. Were it read, a request in flight when a sign-in replaces the
 * session would find the old one gone and clear the new cookie in its answer, signing the browser
 * out again.
 */
const sessionsWhereUsed = fp(
  (app: FastifyInstance, options: FastifySessionOptions, done: (error?: Error) => void) => {
    compareSessionsByTheirJson();
    type Hook = (this: unknown, request: FastifyRequest, ...rest: unknown[]) => void;
    const skipped = (hook: Hook): Hook =>
      function (request, ...rest) {
        // the session's hooks take a callback last: (request, reply, done), (request, reply, payload, done)
        if (needsNoSession(request)) return (rest.at(-1) as () => void)();
        // a request that may change something reads its session from the database, not from memory:
        // a session ended a moment ago on another server (whose word is still on its way) does nothing
        return store.reading(UNSAFE.has(request.method), () => hook.call(this, request, ...rest));
      };
    const store = options.store as DbSessionStore;
    // what the plugin calls of its instance, and no more: a version that calls more fails at start
    const facade = {
      decorate: app.decorate.bind(app),
      decorateRequest: app.decorateRequest.bind(app),
      addHook: (name: string, hook: Hook) => app.addHook(name as 'onRequest', skipped(hook) as never),
    };
    fastifySession(facade as unknown as FastifyInstance, options, done);
  },
  { name: '@fastify/session', fastify: '5.x', dependencies: ['@fastify/cookie'] },
);

function checkCsrf(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  return new Promise((resolve, reject) => {
    // csrfProtection either calls next() or sends its error through the error handler
    const send = reply.send.bind(reply);
    reply.send = ((payload: unknown) => {
      reply.send = send;
      reject(payload instanceof Error ? payload : new HttpError(419, 'CSRF token mismatch.'));
      return reply;
    }) as typeof reply.send;
    app.csrfProtection(request, reply, () => {
      reply.send = send;
      resolve();
    });
  });
}
