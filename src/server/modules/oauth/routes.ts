import OAuth2Server from '@node-oauth/oauth2-server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { ROLES } from '../../../contract/constants.ts';
import {
  authorizedApplicationSchema,
  authorizeDecisionSchema,
  authorizeQuerySchema,
  clientInputSchema,
  clientSchema,
  createdPersonalTokenSchema,
  oauthErrorSchema,
  oauthIdParam,
  personalTokenInputSchema,
  personalTokenSchema,
  scopeSchema,
  tokenReplySchema,
  tokenRequestSchema,
} from '../../../contract/oauth.ts';
import type { Db } from '../../../db/client.ts';
import {
  type AuthorizeRequest,
  authorizeErrorPage,
  checkAuthorizeRequest,
  consentPage,
  errorRedirect,
} from './authorize.ts';
import { createModel, GRANTS } from './model.ts';
import { ClientService, GrantService, listScopes, PersonalTokenService } from './service.ts';
import { ACCESS_TOKEN_SECONDS, AUTH_CODE_SECONDS, REFRESH_TOKEN_SECONDS } from './tokens.ts';

const tags = ['oauth'];

/** Token requests a minute from one address (per app server): guessing secrets or codes is hopeless anyway. */
export const TOKEN_RATE_LIMIT = 60;

export type OAuthOptions = { db: Db; personalTokenDays: number };

function oauthServer(db: Db) {
  return new OAuth2Server({
    model: createModel(db),
    accessTokenLifetime: ACCESS_TOKEN_SECONDS,
    refreshTokenLifetime: REFRESH_TOKEN_SECONDS,
    authorizationCodeLifetime: AUTH_CODE_SECONDS,
    allowEmptyState: true,
    alwaysIssueNewRefreshToken: true,
  });
}

const html = (reply: FastifyReply, status: number, body: string, formAction = "'self'") =>
  reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    // the consent form's post is answered with a redirect to the client's callback, which
    // form-action must allow; nothing on these pages runs script
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .send(body);

export async function oauthRoutes(app: FastifyInstance, opts: OAuthOptions) {
  const { db } = opts;
  const clients = new ClientService(db);
  const personal = new PersonalTokenService(db, opts.personalTokenDays);
  const grants = new GrantService(db);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const userId = (request: FastifyRequest) => request.user!.id;
  const notFound = { 404: messageSchema };

  // ---- spec §7: the developer area's calls; every signed-in user, their own records only ----

  r.get(
    '/oauth/scopes',
    {
      schema: {
        tags,
        summary: 'The scopes a token can carry; fundraising (the charity portal’s) is offered to Charity users only',
        response: { 200: z.array(scopeSchema) },
      },
    },
    // fundraising opens only the charity portal, which only a Charity user may call
    async (request) =>
      (await listScopes(db)).filter((s) => s.id !== 'fundraising' || request.user!.roleId === ROLES.charity),
  );

  r.get(
    '/oauth/clients',
    { schema: { tags, summary: 'Your OAuth clients', response: { 200: z.array(clientSchema) } } },
    async (request) => clients.list(userId(request)),
  );
  r.post(
    '/oauth/clients',
    {
      schema: {
        tags,
        summary: 'Create an OAuth client',
        body: clientInputSchema,
        response: { 201: clientSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await clients.create(userId(request), request.body)),
  );
  r.put(
    '/oauth/clients/:id',
    {
      schema: {
        tags,
        summary: 'Change an OAuth client',
        params: oauthIdParam,
        body: clientInputSchema,
        response: { 200: clientSchema, ...notFound, 422: validationErrorSchema },
      },
    },
    async (request) => clients.update(userId(request), request.params.id, request.body),
  );
  r.delete(
    '/oauth/clients/:id',
    {
      schema: {
        tags,
        summary: 'Delete an OAuth client and revoke its tokens',
        params: oauthIdParam,
        response: { 204: z.null(), ...notFound },
      },
    },
    async (request, reply) => {
      await clients.delete(userId(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/oauth/personal-access-tokens',
    { schema: { tags, summary: 'Your personal access tokens', response: { 200: z.array(personalTokenSchema) } } },
    async (request) => personal.list(userId(request)),
  );
  r.post(
    '/oauth/personal-access-tokens',
    {
      schema: {
        tags,
        summary: 'Create a personal access token (its text is in this reply only)',
        body: personalTokenInputSchema,
        response: { 201: createdPersonalTokenSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await personal.create(userId(request), request.body)),
  );
  r.delete(
    '/oauth/personal-access-tokens/:id',
    {
      schema: {
        tags,
        summary: 'Revoke a personal access token',
        params: oauthIdParam,
        response: { 204: z.null(), ...notFound },
      },
    },
    async (request, reply) => {
      await personal.delete(userId(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/oauth/tokens',
    {
      schema: {
        tags,
        summary: 'Applications you have authorized',
        response: { 200: z.array(authorizedApplicationSchema) },
      },
    },
    async (request) => grants.list(userId(request)),
  );
  r.delete(
    '/oauth/tokens/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an authorized application (all its tokens)',
        params: oauthIdParam,
        response: { 204: z.null(), ...notFound },
      },
    },
    async (request, reply) => {
      await grants.revoke(userId(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  // ---- the authorization server ----

  /** Issues a code through the library and sends the browser back to the client with it. */
  const issueCode = async (request: FastifyRequest, reply: FastifyReply, a: AuthorizeRequest, status: 302 | 303) => {
    const req = new OAuth2Server.Request({
      method: 'POST',
      headers: {},
      query: {},
      body: {
        response_type: 'code',
        client_id: a.client.id,
        redirect_uri: a.redirectUri,
        // the library refuses an empty scope parameter; none asked is none given
        ...(a.scopes.length ? { scope: a.scopes.map((s) => s.id).join(' ') } : {}),
        state: a.state,
        code_challenge: a.codeChallenge,
        code_challenge_method: 'S256',
      },
    });
    const res = new OAuth2Server.Response({});
    const user = { id: request.user!.id };
    await oauthServer(db).authorize(req, res, {
      authenticateHandler: { handle: async () => user },
    } as OAuth2Server.AuthorizeOptions);
    return reply.redirect(res.get('location') as string, status);
  };

  r.get(
    '/oauth/authorize',
    {
      // not "user": a visitor who is not signed in is sent to sign in and brought back
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Authorization endpoint (code + PKCE S256): the consent page',
        querystring: authorizeQuerySchema,
      },
    },
    async (request, reply) => {
      if (!request.user) return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 302);
      const check = await checkAuthorizeRequest(db, request.query);
      if (check.kind === 'page') return html(reply, 400, authorizeErrorPage(check.message));
      if (check.kind === 'redirect') return reply.redirect(check.location, 302);
      const a = check.request;
      const scopeIds = a.scopes.map((s) => s.id);
      if (await grants.hasGranted(request.user.id, a.client.id, scopeIds)) return issueCode(request, reply, a, 302);
      const u = request.user;
      return html(
        reply,
        200,
        consentPage(a, { name: `${u.firstName} ${u.lastName}`, email: u.email }, reply.generateCsrf()),
        `'self' ${new URL(a.redirectUri).origin}`,
      );
    },
  );

  r.post(
    '/oauth/authorize',
    {
      // the session's CSRF token (the form's _csrf) is checked by the auth plugin
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Approve or deny an authorization request (the consent form)',
        body: authorizeDecisionSchema,
      },
    },
    async (request, reply) => {
      // the form's fields are checked again: only the CSRF token vouches that they came from our page
      const check = await checkAuthorizeRequest(db, request.body);
      if (check.kind === 'page') return html(reply, 400, authorizeErrorPage(check.message));
      if (check.kind === 'redirect') return reply.redirect(check.location, 303);
      if (request.body.decision !== 'approve') {
        const a = check.request;
        return reply.redirect(
          errorRedirect(a.redirectUri, 'access_denied', 'The user denied the request.', a.state),
          303,
        );
      }
      // 303: the browser follows a form post's answer with a GET
      return issueCode(request, reply, check.request, 303);
    },
  );

  r.post(
    '/oauth/token',
    {
      config: { access: 'public', errorShape: 'oauth', rateLimit: { max: TOKEN_RATE_LIMIT, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Token endpoint: authorization_code (with PKCE), refresh_token, client_credentials (form-encoded)',
        response: {
          200: tokenReplySchema,
          400: oauthErrorSchema,
          401: oauthErrorSchema,
          429: messageSchema,
          500: oauthErrorSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      const parsed = tokenRequestSchema.safeParse(request.body ?? {});
      if (!parsed.success)
        return reply
          .status(400)
          .send({ error: 'invalid_request', error_description: 'The request has a malformed parameter.' });
      const grant = parsed.data.grant_type;
      // Laravel Passport's documentation sends scope: '' — the same as no scope (RFC 6749 §3.3)
      const { scope, ...rest } = parsed.data;
      const body = scope?.trim() ? { ...rest, scope } : rest;
      if (grant && !GRANTS.includes(grant)) {
        return reply.status(400).send({
          error: 'unsupported_grant_type',
          error_description: 'Supported: authorization_code, refresh_token, client_credentials.',
        });
      }
      const req = new OAuth2Server.Request({
        method: request.method,
        headers: request.headers as Record<string, string>,
        query: {},
        body,
      });
      const res = new OAuth2Server.Response({});
      try {
        await oauthServer(db).token(req, res);
      } catch (error) {
        if (error instanceof OAuth2Server.OAuthError && error.code < 500) {
          const challenge = res.get('www-authenticate');
          if (challenge) reply.header('www-authenticate', challenge);
          return reply
            .status(error.code === 401 ? 401 : 400)
            .send({ error: error.name, error_description: error.message });
        }
        const cause =
          error instanceof OAuth2Server.OAuthError ? ((error as { inner?: unknown }).inner ?? error) : error;
        request.log.error({ err: cause, reqId: request.id }, 'token endpoint failed');
        return reply.status(500).send({ error: 'server_error', error_description: 'Server Error' });
      }
      return reply.status(200).send(res.body as z.infer<typeof tokenReplySchema>);
    },
  );
}
