/**
 * The app's history routes, keyed by route name. The spec's names (user-list, user-edit,
 * charity-list, charity-edit, discount-list, discount-edit, discount-new) are kept; the
 * others are ours. The server uses the patterns to answer 404 for a path no screen serves.
 */
export const routes = {
  home: '/',
  login: '/login',
  'booking-list': '/bookings',
  'booking-view': '/bookings/:id',
  'trip-list': '/trips',
  'trip-edit': '/trips/:id/edit',
  'trip-readiness': '/trips/:id/readiness',
  'charity-list': '/charities',
  'charity-edit': '/charities/:id/edit',
  'discount-list': '/discounts',
  'discount-new': '/discounts/new',
  'discount-edit': '/discounts/:discountID/edit',
  'user-list': '/users',
  'user-edit': '/users/:id/edit',
  'invoice-view': '/invoices/:id',
  developer: '/developer',
  audit: '/audit',
  'admin-jobs': '/admin/jobs',
  'admin-retention': '/admin/retention',
  'settings-emails': '/settings/emails',
  'settings-countries': '/settings/countries',
  'settings-changes': '/settings/changes',
  // teams and their permissions (issue 36)
  'settings-teams': '/settings/teams',
  'money-due': '/money',
  // travellers' asks to cancel or change (issue 35)
  'change-requests': '/requests',
  // the finance reports
  reports: '/reports',
  // the charity portal: a Charity user's own fundraisers
  'charity-portal': '/charity',
} as const;

export type RouteName = keyof typeof routes;

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type Params<N extends RouteName> = [ParamNames<(typeof routes)[N]>] extends [never]
  ? []
  : [Record<ParamNames<(typeof routes)[N]>, string | number>];

/** path('charity-edit', { id: 4 }) → '/charities/4/edit' */
export function path<N extends RouteName>(name: N, ...params: Params<N>): string {
  const values = (params[0] ?? {}) as Record<string, string | number>;
  return routes[name].replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(String(values[key])));
}

const matchers = Object.values(routes).map(
  (pattern) => new RegExp('^' + pattern.replace(/:[A-Za-z]+/g, '[^/]+') + '/?$'),
);

/** Whether a screen of the app answers this path. */
export function isAppPath(pathname: string): boolean {
  return matchers.some((re) => re.test(pathname));
}
