import type { FastifyInstance, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import { type Level, type Permission, type PermissionArea, PERMISSIONS, TRAVELLER_DATA } from '../../contract/teams.ts';
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

export type RouteScope = {
  method: string;
  url: string;
  access: Access;
  scope: ScopeId | null;
  /** what a member's team needs, for staff routes */
  permissions: PermissionNeed[];
};

/** What a member's team needs for a route: an area's read or change, or nothing (their own record). */
export type PermissionNeed = { permission: Permission; level: Exclude<Level, 'none'> };

/** scope null: no token may call it */
type Row = readonly [prefix: string, scope: ScopeArea | null, permission: PermissionArea | 'own'];

/**
 * The one table of what a route needs, by its pattern ("/api/bookings/:id" — never the raw URL):
 * the longest matching prefix names the token scope's area and the team's permission area, the
 * method the level (GET and HEAD read, everything else writes or changes). A route no prefix
 * matches takes no token (fail closed) and, for staff, needs Full access.
 * Areas the eight scopes do not name fall to the nearest one (docs/decisions/007):
 * charities, countries, documents, custom fields and add-ons are trip set-up; discounts are
 * money; the overview is a summary of bookings; /api/me is the user's own record.
 * The teams' areas are issue 36's: charities with discounts and fundraising, people with users
 * and teams, settings with the templates, the fee scales, jobs and retention (decision 028).
 */
const AREAS: ReadonlyArray<Row> = [
  ['/api/bookings', 'bookings', 'bookings'],
  ['/api/bookings/:/invoices', 'finance', 'finance'],
  ['/api/bookingNotes', 'bookings', 'bookings'],
  ['/api/invoices', 'finance', 'finance'],
  ['/api/transactions', 'finance', 'finance'],
  ['/api/discounts', 'finance', 'charities'],
  ['/api/trips', 'trips', 'trips'],
  // payment plans and schedules are money
  ['/api/trips/:/payment-plan', 'finance', 'finance'],
  ['/api/bookings/:/schedule', 'finance', 'finance'],
  ['/api/schedule-rows', 'finance', 'finance'],
  ['/api/bookings/:/reminders', 'finance', 'finance'],
  ['/api/trips/:/reminders', 'finance', 'finance'],
  ['/api/email-templates', 'finance', 'settings'],
  ['/api/money-due', 'finance', 'finance'],
  // changes after booking: what is owed back is money; the fee scale is money's settings
  ['/api/refunds-owed', 'finance', 'finance'],
  ['/api/change-requests', 'bookings', 'bookings'],
  ['/api/settings/changes', 'finance', 'settings'],
  ['/api/trips/:/changes', 'finance', 'finance'],
  // a trip's readiness board reads its travellers' passport, medical and money facts
  ['/api/trips/:/readiness', 'bookings', 'bookings'],
  ['/api/trips/:/manifest', 'bookings', 'bookings'],
  // cancelling a departure cancels its bookings and owes their money back
  ['/api/trips/:/cancel', 'bookings', 'bookings'],
  // a school trip's groups are its pupils' bookings (issue 37)
  ['/api/trips/:/groups', 'bookings', 'bookings'],
  ['/api/groups', 'bookings', 'bookings'],
  // a group's invoice and the school's payments on it are money
  ['/api/groups/:/invoice', 'finance', 'finance'],
  ['/api/groups/:/payments', 'finance', 'finance'],
  // chasers and the trip's documents go to its travellers
  ['/api/trips/:/chasers', 'bookings', 'bookings'],
  ['/api/trips/:/documents/send', 'bookings', 'bookings'],
  // erasure after return: which travellers' passport and medical details go
  ['/api/retention', 'bookings', 'settings'],
  ['/api/reminders', 'finance', 'finance'],
  // fundraising is the travellers' own (bookings scope) and the charities' (their permission);
  // a trip's minimum and milestones are trip set-up
  ['/api/fundraising-entries', 'bookings', 'charities'],
  ['/api/bookings/:/fundraising', 'bookings', 'charities'],
  ['/api/trips/:/fundraising', 'trips', 'charities'],
  ['/api/charities/:/fundraisers', 'bookings', 'charities'],
  ['/api/addons', 'trips', 'trips'],
  ['/api/customFields', 'trips', 'trips'],
  ['/api/documents', 'trips', 'trips'],
  ['/api/countries', 'trips', 'trips'],
  ['/api/charities', 'trips', 'charities'],
  ['/api/users', 'users', 'people'],
  ['/api/teams', 'users', 'people'],
  ['/api/me', 'users', 'own'],
  // the whole history says who did what across the office: read with users:read
  ['/api/audit', 'users', 'people'],
  ['/audit/export', null, 'people'],
  ['/api/overview', 'bookings', 'bookings'],
  // the dashboard's numbers are mostly money
  ['/api/dashboard', 'finance', 'finance'],
  ['/api/reports', 'finance', 'finance'],
  ['/api/admin/jobs', null, 'settings'],
  // the spreadsheet download is a read of bookings, outside /api because it is a form GET
  ['/bookings/export', 'bookings', 'bookings'],
  // the charity portal's API for a charity's own systems: one scope reads its
  // fundraisers and records what they raised; the routes let only a Charity user through
  ['/api/charity', 'fundraising', 'own'],
];

/**
 * Routes that need a second permission besides their area's, at the same level: those that show
 * or change the travellers' health and passport data as such (the passport images, the traveller
 * form, the manifest), and a departure's cancellation, which ends the trip as well as its bookings.
 */
const ALSO_NEEDS: ReadonlyArray<readonly [prefix: string, permission: Permission]> = [
  ['/api/bookings/:/passport-image', TRAVELLER_DATA],
  ['/api/bookings/:/traveller-form', TRAVELLER_DATA],
  ['/api/trips/:/manifest', TRAVELLER_DATA],
  ['/api/trips/:/cancel', 'trips'],
];

// "/api/bookings/:bookingId/invoices" and "/api/bookings/:id/invoices" are the same route shape
const shape = (url: string) => url.replace(/:[^/]+/g, ':').replace(/\/+$/, '');

const under = (path: string, prefix: string) => path === prefix || path.startsWith(prefix + '/');

/** The table's row for a route pattern: its longest matching prefix. */
function rowOf(url: string): Row | null {
  const path = shape(url);
  let best: Row | null = null;
  for (const row of AREAS) if (under(path, row[0]) && row[0].length > (best?.[0].length ?? -1)) best = row;
  return best;
}

const isRead = (method: string) => {
  const m = method.toUpperCase();
  return m === 'GET' || m === 'HEAD';
};

/**
 * What a member's team needs to call a staff route: the permission area and level, with the
 * traveller data permission besides for the routes about that data. null: their own record.
 * A route the table does not know needs Full access (every permission at change).
 */
export function requiredPermissions(method: string, url: string | undefined): PermissionNeed[] {
  const level = isRead(method) ? 'read' : 'change';
  const row = url ? rowOf(url) : null;
  if (!row) return PERMISSIONS.map((permission) => ({ permission, level: 'change' as const }));
  const needs: PermissionNeed[] = row[2] === 'own' ? [] : [{ permission: row[2], level }];
  for (const [prefix, permission] of ALSO_NEEDS)
    if (url && under(shape(url), prefix)) needs.push({ permission, level });
  return needs;
}

/** The scope a bearer token needs to call a route, or null when no token may. */
export function requiredScope(method: string, url: string | undefined, override?: ScopeId | null): ScopeId | null {
  if (override !== undefined) return override;
  if (!url) return null;
  const path = shape(url);
  const best = rowOf(url)?.[1] ?? null;
  if (!best) return null;
  if (best === 'fundraising') return 'fundraising';
  const level = isRead(method) ? 'read' : 'write';
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
        permissions: requiredPermissions(method, route.url),
      });
    }
  });
});
