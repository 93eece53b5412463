/**
 * Who may call a route: anyone, anyone from one of our pages (guest: a POST carries the page's
 * CSRF token, as the pay page's does), any signed-in user, staff (Administrator) only, or a
 * Charity user linked to a charity (the charity portal: its routes find the charity from the user),
 * or a traveller (an End User) signed in to their own pages, never with a token.
 */
export type Access = 'public' | 'guest' | 'user' | 'admin' | 'charity' | 'traveller';

/* eslint-disable @typescript-eslint/consistent-type-definitions -- module augmentation needs interfaces */
declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

/** What a route needs when it does not say: /api/charity the portal, /api/my a traveller, the rest of /api the back office, /oauth any signed-in user. */
export function defaultAccess(url: string): Access {
  // the API's documentation is no secret
  if (url === '/api/docs' || url.startsWith('/api/docs/')) return 'public';
  if (url === '/api/charity' || url.startsWith('/api/charity/')) return 'charity';
  if (url === '/api/my' || url.startsWith('/api/my/')) return 'traveller';
  if (url.startsWith('/api/public/')) return 'guest';
  if (url.startsWith('/api/') || url === '/api') return 'admin';
  if (url.startsWith('/oauth/')) return 'user';
  return 'public';
}
