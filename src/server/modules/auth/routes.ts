import { audit } from '../../audit/audit.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserSchema, loginSchema } from '../../../contract/auth.ts';
import { safeNextPath } from '../../../contract/safe-next-path.ts';
import { messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import type { Db } from '../../../db/client.ts';
import { HttpError } from '../../errors.ts';
import { assertSameOrigin } from '../../common/same-origin.ts';
import { startSession } from '../../common/session.ts';
import { attemptLogin, toCurrentUser } from './service.ts';

/** Only a path of this site may follow a sign-in (the one rule, shared with the web app). */
export const safeNext = (next: string | undefined): string => safeNextPath(next);

export async function authRoutes(app: FastifyInstance, opts: { db: Db; loginRateLimit: number }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/login',
    {
      // besides 5 failures a minute per email and address: LOGIN_RATE_LIMIT (30) tries a minute
      // from one address at all, against one password tried on many accounts (per app server)
      config: { access: 'public', rateLimit: { max: opts.loginRateLimit, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with an email and password (JSON or a form post)',
        body: loginSchema,
        response: { 204: z.null(), 422: validationErrorSchema, 429: messageSchema },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request);
      const isForm = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false;
      let user;
      try {
        user = await attemptLogin(opts.db, request.body.email, request.body.password, request.ip);
      } catch (error) {
        if (isForm && error instanceof HttpError) {
          request.session.flash = [error.errors?.email?.[0] ?? error.message];
          const next = request.body.next ? `?next=${encodeURIComponent(safeNext(request.body.next))}` : '';
          return reply.redirect(`/login${next}`, 303);
        }
        throw error;
      }
      await startSession(request, user.id);
      request.log.info({ userId: user.id }, 'signed in');
      if (isForm) return reply.redirect(safeNext(request.body.next), 303);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/logout',
    {
      config: { access: 'user' },
      schema: { tags: ['auth'], summary: 'Sign out and end the session', response: { 204: z.null() } },
    },
    async (request, reply) => {
      await audit(opts.db, {
        action: 'auth.signed_out',
        subject: { type: 'user', id: request.user!.id },
        summary: 'signed out',
      });
      await request.session.destroy();
      if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
        return reply.redirect('/login', 303);
      }
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/me',
    {
      config: { access: 'user' },
      schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: currentUserSchema } },
    },
    async (request) => toCurrentUser(request.user!),
  );
}
