import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../errors.ts';
import { type BearerGrant, findBearer } from '../modules/oauth/token-lookup.ts';
import { requiredScope } from './scopes.ts';

/* eslint-disable @typescript-eslint/consistent-type-definitions -- module augmentation needs interfaces */
declare module 'fastify' {
  interface FastifyRequest {
    /** set when the request was authenticated by an access token instead of a session */
    bearer: BearerGrant | null;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

const REALM = 'realm="Tripdesk"';

/** The token of an `Authorization: Bearer …` header ('' for a bare "Bearer"), else undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}

/**
 * RFC 6750: the token alone authenticates (no session, no CSRF token: a cross-site page cannot
 * make a browser send it). 401 invalid_token for a token we do not honour; 403
 * insufficient_scope when the route's scope (plugins/scopes.ts) is not among the token's.
 * What the user's role allows is checked after this, as for a session.
 */
export async function authenticateBearer(db: Db, request: FastifyRequest, token: string): Promise<void> {
  const grant = token ? await findBearer(db, token) : null;
  if (!grant) {
    throw new HttpError(401, 'Unauthenticated.', undefined, {
      'www-authenticate': `Bearer ${REALM}, error="invalid_token", error_description="The access token is not valid, or has expired or been revoked."`,
    });
  }
  const scope = requiredScope(request.method, request.routeOptions.url, request.routeOptions.config?.scope);
  if (!scope) {
    throw new HttpError(403, 'This address cannot be called with an access token.', undefined, {
      'www-authenticate': `Bearer ${REALM}, error="insufficient_scope"`,
    });
  }
  if (!grant.scopes.includes(scope)) {
    throw new HttpError(403, `This token does not have the ${scope} scope.`, undefined, {
      'www-authenticate': `Bearer ${REALM}, error="insufficient_scope", scope="${scope}"`,
    });
  }
  request.user = grant.user;
  request.bearer = grant;
}
