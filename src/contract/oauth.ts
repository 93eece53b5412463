import { z } from 'zod';

/** Spec §3 Scope: a string id; the server also gives what the consent page says of it. */
export const scopeSchema = z.object({ id: z.string(), description: z.string() });
export type Scope = z.infer<typeof scopeSchema>;

/** The ids of OAuth clients, tokens and authorizations. A malformed one is simply not found. */
export const oauthIdParam = z.object({ id: z.string().max(100) });

const clientName = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, { error: 'The name field is required.' })
  .max(255, { error: 'The name must not be longer than 255 characters.' });

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A callback URL a browser will be sent to with an authorization code: absolute, no fragment
 * (RFC 6749 §3.1.2), and https unless it is this machine (a developer's local app).
 */
export const redirectUrl = z
  .string({ error: 'The redirect field is required.' })
  .trim()
  .min(1, { error: 'The redirect field is required.', abort: true })
  .max(2000, { error: 'The redirect must not be longer than 2000 characters.', abort: true })
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'The redirect must be a valid URL.' });
      return;
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
      ctx.addIssue({
        code: 'custom',
        message: 'The redirect must start with https:// (http:// is accepted for localhost only).',
      });
    } else if (value.includes('#')) {
      ctx.addIssue({ code: 'custom', message: 'The redirect must not contain a fragment (#).' });
    } else if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i.test(url.hostname)) {
      // letters, digits, dots and dashes only: the host also goes into the consent page's CSP
      ctx.addIssue({
        code: 'custom',
        message: 'The redirect’s host name may only contain letters, digits, dots and dashes.',
      });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'The redirect must not contain a user name or password.' });
    }
  });

/** Spec §7: POST /oauth/clients and PUT /oauth/clients/{id} (the edit form also carries id). */
export const clientInputSchema = z.object({
  id: z.unknown().optional(),
  name: clientName,
  redirect: redirectUrl,
});
export type ClientInput = z.input<typeof clientInputSchema>;

export const clientSchema = z.object({
  id: z.string(),
  name: z.string(),
  // shown to its owner in plain text (spec §2)
  secret: z.string(),
  redirect: z.string(),
  created_at: z.string(),
});
export type OAuthClient = z.infer<typeof clientSchema>;

/** Spec §7: POST /oauth/personal-access-tokens with name and scopes (ids). */
export const personalTokenInputSchema = z.object({
  name: clientName,
  scopes: z
    .array(z.string({ error: 'Each scope must be a scope id.' }).max(100), {
      error: 'The scopes must be a list of scope ids.',
    })
    .max(50, { error: 'Too many scopes.' })
    .default([]),
});
export type PersonalTokenInput = z.input<typeof personalTokenInputSchema>;

export const personalTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type PersonalToken = z.infer<typeof personalTokenSchema>;

/** Spec §3: the creation reply gives the record as token and the plain text as accessToken. */
export const createdPersonalTokenSchema = z.object({ token: personalTokenSchema, accessToken: z.string() });
export type CreatedPersonalToken = z.infer<typeof createdPersonalTokenSchema>;

/**
 * Spec §3 OAuth token (authorized application): id, client.name, scopes — one per application
 * the user has authorized; id is its newest token, and revoking it revokes every token the
 * application holds for the user.
 */
export const authorizedApplicationSchema = z.object({
  id: z.string(),
  client: z.object({ id: z.string(), name: z.string() }),
  scopes: z.array(z.string()),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type AuthorizedApplication = z.infer<typeof authorizedApplicationSchema>;

/** GET /oauth/authorize: the parameters of RFC 6749 §4.1.1 with PKCE (RFC 7636). */
export const authorizeQuerySchema = z.object({
  response_type: z.string().max(100).optional(),
  client_id: z.string().max(100).optional(),
  redirect_uri: z.string().max(2000).optional(),
  scope: z.string().max(1000).optional(),
  state: z.string().max(1000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
});
export type AuthorizeQuery = z.infer<typeof authorizeQuerySchema>;

/** POST /oauth/authorize: the same parameters, the user's decision and the form's CSRF token. */
export const authorizeDecisionSchema = authorizeQuerySchema.extend({
  decision: z.enum(['approve', 'deny']).optional(),
  _csrf: z.string().max(200).optional(),
});

/** POST /oauth/token (form-encoded, RFC 6749 §4.1.3, §4.4.2, §6); refused as invalid_request otherwise. */
export const tokenRequestSchema = z.object({
  grant_type: z.string().max(100).optional(),
  code: z.string().max(200).optional(),
  redirect_uri: z.string().max(2000).optional(),
  code_verifier: z.string().max(200).optional(),
  refresh_token: z.string().max(200).optional(),
  client_id: z.string().max(100).optional(),
  client_secret: z.string().max(200).optional(),
  scope: z.string().max(1000).optional(),
});

export const tokenReplySchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});

export const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });
