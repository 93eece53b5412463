import type { FastifyInstance, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import { type Access, defaultAccess } from './access.ts';

export type ScopeArea = 'bookings' | 'trips' | 'finance' | 'users' | 'fundraising';
/** An area's read or write scope; the charity portal's one scope, fundraising, does both. */
export type ScopeId = `${Exclude<ScopeArea, 'fundraising'>}:${'read' | 'write'}` | 'fundraising';

/* eslint-disable @typescript-eslint/consistent-type-definitions -- module augmentation needs interfaces */
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scope a bearer token needs for this route when the table below does not say it right;
     * null: no token may call it, whatever its scopes.
     */
    scope?: ScopeId | null;
  }
  interface FastifyInstance {
    /** Every route with what a bearer token needs to call it (filled as routes are added). */
    routeScopes: RouteScope[];
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

export type RouteScope = { method: string; url: string; access: Access; scope: ScopeId | null };

/**
 * The one table of what a token needs, by the route's pattern ("/api/bookings/:id" — never the
 * raw URL): the longest matching prefix names the area, the method the level (GET and HEAD
 * read, everything else writes). A route no prefix matches takes no token at all (fail closed).
 * Areas the eight scopes do not name fall to the nearest one (docs/decisions/007):
 * charities, countries, documents, custom fields and add-ons are trip set-up; discounts are
 * money; the overview is a summary of bookings; /api/me is the user's own record.
 */
const AREAS: ReadonlyArray<readonly [string, ScopeArea]> = [
  ['/api/bookings', 'bookings'],
  ['/api/bookings/:/invoices', 'finance'],
  ['/api/bookingNotes', 'bookings'],
  ['/api/invoices', 'finance'],
  ['/api/transactions', 'finance'],
  ['/api/discounts', 'finance'],
  ['/api/trips', 'trips'],
  // payment plans and schedules are money
  ['/api/trips/:/payment-plan', 'finance'],
  ['/api/bookings/:/schedule', 'finance'],
  ['/api/schedule-rows', 'finance'],
  ['/api/bookings/:/reminders', 'finance'],
  ['/api/trips/:/reminders', 'finance'],
  ['/api/email-templates', 'finance'],
  ['/api/money-due', 'finance'],
  // changes after booking: what is owed back is money; the fee scale is money's settings
  ['/api/refunds-owed', 'finance'],
  ['/api/change-requests', 'bookings'],
  ['/api/settings/changes', 'finance'],
  ['/api/trips/:/changes', 'finance'],
  // a trip's readiness board reads its travellers' passport, medical and money facts
  ['/api/trips/:/readiness', 'bookings'],
  ['/api/trips/:/manifest', 'bookings'],
  // cancelling a departure cancels its bookings and owes their money back
  ['/api/trips/:/cancel', 'bookings'],
  // chasers and the trip's documents go to its travellers
  ['/api/trips/:/chasers', 'bookings'],
  ['/api/trips/:/documents/send', 'bookings'],
  // erasure after return: which travellers' passport and medical details go
  ['/api/retention', 'bookings'],
  ['/api/reminders', 'finance'],
  // fundraising is the travellers' own: bookings; a trip's minimum and milestones are trip set-up
  ['/api/fundraising-entries', 'bookings'],
  ['/api/charities/:/fundraisers', 'bookings'],
  ['/api/addons', 'trips'],
  ['/api/customFields', 'trips'],
  ['/api/documents', 'trips'],
  ['/api/countries', 'trips'],
  ['/api/charities', 'trips'],
  ['/api/users', 'users'],
  ['/api/me', 'users'],
  // the whole history says who did what across the office: read with users:read
  ['/api/audit', 'users'],
  ['/api/overview', 'bookings'],
  // the dashboard's numbers are mostly money
  ['/api/dashboard', 'finance'],
  ['/api/reports', 'finance'],
  // the spreadsheet download is a read of bookings, outside /api because it is a form GET
  ['/bookings/export', 'bookings'],
  // the charity portal's API for a charity's own systems: one scope reads its
  // fundraisers and records what they raised; the routes let only a Charity user through
  ['/api/charity', 'fundraising'],
];

// "/api/bookings/:bookingId/invoices" and "/api/bookings/:id/invoices" are the same route shape
const shape = (url: string) => url.replace(/:[^/]+/g, ':').replace(/\/+$/, '');

/** The scope a bearer token needs to call a route, or null when no token may. */
export function requiredScope(method: string, url: string | undefined, override?: ScopeId | null): ScopeId | null {
  if (override !== undefined) return override;
  if (!url) return null;
  const path = shape(url);
  let best: ScopeArea | null = null;
  let bestLength = -1;
  for (const [prefix, area] of AREAS) {
    const matches = path === prefix || path.startsWith(prefix + '/');
    if (matches && prefix.length > bestLength) {
      best = area;
      bestLength = prefix.length;
    }
  }
  if (!best) return null;
  if (best === 'fundraising') return 'fundraising';
  const m = method.toUpperCase();
  const level = m === 'GET' || m === 'HEAD' ? 'read' : 'write';
  // creating, changing and deleting accounts sets passwords and roles: through a token that would
  // let an application widen its own access (make an Administrator, reset its user's password),
  // so these stay with a signed-in Administrator and there is no users:write scope
  if (best === 'users' && level === 'write') return null;
  // the emails' wording goes to every traveller under the operator's name: changed, previewed
  // and test-sent by a signed-in Administrator only, never through a finance:write token
  if (level === 'write' && (path === '/api/email-templates' || path.startsWith('/api/email-templates/'))) return null;
  return `${best}:${level}`;
}

/** Records every route's scope as it is added; a test walks them (scopes.test.ts). */
export const scopesPlugin = fp(async (app: FastifyInstance) => {
  const table: RouteScope[] = [];
  app.decorate('routeScopes', table);
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethods[];
    const config = route.config as { access?: Access; scope?: ScopeId | null } | undefined;
    for (const method of methods) {
      table.push({
        method,
        url: route.url,
        access: config?.access ?? defaultAccess(route.url),
        scope: requiredScope(method, route.url, config?.scope),
      });
    }
  });
});
