import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ROLES } from '../../contract/constants.ts';
import type { Bootstrap } from '../../contract/auth.ts';
import { isAppPath } from '../../contract/paths.ts';
import { toCurrentUser } from '../modules/auth/service.ts';

export const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/web');

// used when the web app has not been built (API tests); still a page with its CSRF token
const FALLBACK_TEMPLATE = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>Tripdesk</title><!--app-head--></head>
<body><div id="root"><p>The Tripdesk web app has not been built: run npm run build.</p></div></body></html>`;

export type WebOptions = { reloadTemplate: boolean; cardPayments: boolean };

/**
 * Serves the built web app. Every HTML page is the app's index.html with the page's
 * CSRF token in <meta name="csrf-token"> and a JSON bootstrap (who is signed in, flash).
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: WebOptions) => {
  const cached = new Map<string, string>();
  const template = (file: string) => {
    const kept = cached.get(file);
    if (kept && !opts.reloadTemplate) return kept;
    const full = path.join(webRoot, file);
    const text = existsSync(full) ? readFileSync(full, 'utf8') : FALLBACK_TEMPLATE;
    cached.set(file, text);
    return text;
  };

  if (existsSync(path.join(webRoot, 'assets'))) {
    await app.register(fastifyStatic, {
      root: path.join(webRoot, 'assets'),
      prefix: '/assets/',
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      index: false,
    });
  }
  for (const file of ['favicon.svg']) {
    app.get(`/${file}`, { config: { access: 'public', session: false }, schema: { hide: true } }, (_req, reply) => {
      const full = path.join(webRoot, file);
      if (!existsSync(full)) return reply.status(404).send({ message: 'Not Found' });
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(readFileSync(full));
    });
  }

  const render = (request: FastifyRequest, reply: FastifyReply, status: number, file = 'index.html') => {
    const flash = request.session.flash ?? [];
    if (flash.length) request.session.flash = [];
    const boot: Bootstrap = {
      user: request.user ? toCurrentUser(request.user) : null,
      flash,
      card_payments: opts.cardPayments,
    };
    const head =
      `<meta name="csrf-token" content="${reply.generateCsrf()}">` +
      `<script id="tripdesk-bootstrap" type="application/json">${jsonForHtml(boot)}</script>`;
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(template(file).replace('<!--app-head-->', () => head));
  };

  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname.startsWith('/api/') || pathname.startsWith('/oauth/') || pathname.startsWith('/assets/')) {
      return reply.status(404).send({ message: 'Not Found' });
    }
    // the traveller's side: its own small entry, for anyone (a pay link needs no sign-in)
    if (isTravellerPath(pathname)) return render(request, reply, 200, 'traveller.html');
    const known = isAppPath(pathname);
    if (!request.user && pathname !== '/login' && known) {
      return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 302);
    }
    // a traveller's home is their own pages; the developer area stays open to them
    const traveller = request.user?.roleId === ROLES.endUser;
    if (request.user && pathname === '/login') return reply.redirect(traveller ? '/my' : '/', 302);
    if (traveller && pathname === '/') return reply.redirect('/my', 302);
    return render(request, reply, known ? 200 : 404);
  });
});

/** The pages of the traveller's side, served by traveller.html: /pay/{token}, /book/{slug}, and /my with its pages. */
export function isTravellerPath(pathname: string): boolean {
  return (
    /^\/pay\/[^/]+\/?$/.test(pathname) || /^\/book\/[^/]+\/?$/.test(pathname) || /^\/my(\/[^/]+)*\/?$/.test(pathname)
  );
}

/** JSON that cannot close the script element it sits in. */
function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}
