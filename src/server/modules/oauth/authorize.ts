import type { AuthorizeQuery, Scope } from '../../../contract/oauth.ts';
import type { Db } from '../../../db/client.ts';
import { createModel } from './model.ts';
import { listScopes } from './service.ts';
import { escapeHtml } from '../../html.ts';

export type AuthorizeRequest = {
  client: { id: string; name: string };
  redirectUri: string;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string;
};

/**
 * What an authorization request comes to. RFC 6749 §4.1.2.1: while the client or its
 * redirect_uri is in doubt the browser must not be sent anywhere, so those failures are a page
 * of ours (`page`); every other failure goes back to the client's callback (`redirect`).
 */
export type AuthorizeCheck =
  | { kind: 'ok'; request: AuthorizeRequest }
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; location: string };

// RFC 7636 §4.2: base64url of a SHA-256 is 43 characters; the ABNF allows 43–128
const CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
// RFC 6749 Appendix A: state is printable ASCII
const VSCHAR = /^[\x20-\x7e]+$/;

/** The client's callback with an error (and the state back), as RFC 6749 §4.1.2.1 says. */
export function errorRedirect(
  redirectUri: string,
  error: string,
  description: string | undefined,
  state: string | undefined,
): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  if (description) url.searchParams.set('error_description', description);
  if (state) url.searchParams.set('state', state);
  return url.toString();
}

export async function checkAuthorizeRequest(db: Db, q: AuthorizeQuery): Promise<AuthorizeCheck> {
  const client = q.client_id ? await createModel(db).getClient(q.client_id, null) : null;
  if (!client)
    return {
      kind: 'page',
      message: 'The application asking for access is not known here: its client_id is missing or wrong.',
    };
  const registered = (client.redirectUris as string[])[0]!;
  if (!q.redirect_uri || q.redirect_uri !== registered) {
    return {
      kind: 'page',
      message: `The redirect_uri of this request is not the callback URL registered for ${client.name as string}.`,
    };
  }
  const state = q.state && VSCHAR.test(q.state) ? q.state : undefined;
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    location: errorRedirect(registered, error, description, state),
  });

  if (q.state !== undefined && q.state !== '' && !state)
    return fail('invalid_request', 'The state is not printable ASCII.');
  if (q.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  if (!q.code_challenge) return fail('invalid_request', 'A PKCE code_challenge is required.');
  if (q.code_challenge_method !== 'S256') return fail('invalid_request', 'The code_challenge_method must be S256.');
  if (!CHALLENGE.test(q.code_challenge))
    return fail('invalid_request', 'The code_challenge is not a valid S256 challenge.');

  // no scope (absent or empty, as Laravel Passport's clients send it) asks for none
  const ids = [...new Set((q.scope ?? '').split(/\s+/).filter(Boolean))];
  const defined = new Map((await listScopes(db)).map((s) => [s.id, s]));
  const unknown = ids.filter((id) => !defined.has(id));
  if (unknown.length) return fail('invalid_scope', `Unknown scope: ${unknown.join(', ')}.`);

  return {
    kind: 'ok',
    request: {
      client: { id: client.id, name: client.name as string },
      redirectUri: registered,
      scopes: ids.sort().map((id) => defined.get(id)!),
      state,
      codeChallenge: q.code_challenge,
    },
  };
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f1f3f5;
font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#212529;line-height:1.55;padding:16px}
main{background:#fff;border:1px solid #dee2e6;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.05);padding:32px;width:460px;max-width:100%}
.brand{font-weight:700;color:#1864ab;margin:0 0 16px;font-size:14px;letter-spacing:.02em}
h1{font-size:22px;margin:0 0 12px;line-height:1.3}
p{margin:0 0 12px}
.muted{color:#495057;font-size:14px}
ul{margin:0 0 16px;padding:0;list-style:none;border:1px solid #e9ecef;border-radius:6px}
li{padding:10px 12px;border-top:1px solid #e9ecef}
li:first-child{border-top:0}
li code{display:block;font-size:12px;color:#495057}
.actions{display:flex;gap:8px;justify-content:flex-end;margin-top:20px}
button{font:inherit;font-size:14px;font-weight:600;border-radius:4px;padding:8px 18px;cursor:pointer;border:1px solid #ced4da;background:#fff;color:#212529}
button.primary{background:#1971c2;border-color:#1971c2;color:#fff}
button:focus-visible{outline:2px solid #1971c2;outline-offset:2px}
.error{border-left:4px solid #e03131;padding-left:12px}
`;

const page = (title: string, body: string) => `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Tripdesk</title><style>${STYLE}</style></head>
<body><main>
<p class="brand">Tripdesk</p>
${body}
</main></body></html>`;

/** The consent page: no script (the CSP forbids inline ones); the session's CSRF token guards the post. */
export function consentPage(r: AuthorizeRequest, user: { name: string; email: string }, csrf: string): string {
  const hidden: Array<[string, string]> = [
    ['_csrf', csrf],
    ['response_type', 'code'],
    ['client_id', r.client.id],
    ['redirect_uri', r.redirectUri],
    ['scope', r.scopes.map((s) => s.id).join(' ')],
    ['code_challenge', r.codeChallenge],
    ['code_challenge_method', 'S256'],
    ...(r.state ? ([['state', r.state]] as Array<[string, string]>) : []),
  ];
  const name = escapeHtml(r.client.name);
  return page(
    `Authorize ${r.client.name}`,
    `<h1>Authorization Request</h1>
<p><strong>${name}</strong> is requesting permission to access your account.</p>
${
  r.scopes.length
    ? `<p class="muted">This application will be able to:</p>
<ul>${r.scopes.map((s) => `<li>${escapeHtml(s.description)}<code>${escapeHtml(s.id)}</code></li>`).join('')}</ul>`
    : '<p class="muted">It asks for no scopes: it will not be able to read or change anything in Tripdesk.</p>'
}
<p class="muted">Signed in as ${escapeHtml(user.name)} (${escapeHtml(user.email)}). You will be sent back to ${escapeHtml(new URL(r.redirectUri).origin)}.</p>
<form method="post" action="/oauth/authorize">
${hidden.map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`).join('\n')}
<div class="actions">
<button type="submit" name="decision" value="deny">Cancel</button>
<button type="submit" name="decision" value="approve" class="primary">Authorize</button>
</div>
</form>`,
  );
}

export function authorizeErrorPage(message: string): string {
  return page(
    'Authorization request not valid',
    `<h1>This authorization request cannot be completed</h1>
<p class="error">${escapeHtml(message)}</p>
<p class="muted">Please tell the makers of the application that sent you here. Nothing has been shared with it.</p>
<p class="muted"><a href="/">Go to Tripdesk</a></p>`,
  );
}
