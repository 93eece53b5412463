import type { RouteName } from '../../contract/paths.ts';
import type { Permission } from '../../contract/permissions.ts';

/**
 * What each back-office screen needs to be read (issue 36): the router shows a member whose team
 * lacks it a page that says so, and the menus leave it out.
 */
export const SCREEN_NEEDS: Partial<Record<RouteName, Permission>> = {
  'booking-list': 'bookings',
  'booking-view': 'bookings',
  'trip-list': 'trips',
  'trip-edit': 'trips',
  'trip-readiness': 'bookings',
  'charity-list': 'charities',
  'charity-edit': 'charities',
  'discount-list': 'charities',
  'discount-new': 'charities',
  'discount-edit': 'charities',
  'user-list': 'people',
  'user-edit': 'people',
  'invoice-view': 'finance',
  audit: 'people',
  'admin-jobs': 'settings',
  'admin-retention': 'settings',
  'settings-emails': 'settings',
  'settings-countries': 'trips',
  'settings-changes': 'settings',
  'settings-teams': 'people',
  'money-due': 'finance',
  reports: 'finance',
  'change-requests': 'bookings',
};

/** The back office's menu, in order; each shown only to a team that may read its screen. */
export const STAFF_NAV: ReadonlyArray<{ name: RouteName; label: string }> = [
  { name: 'booking-list', label: 'Bookings' },
  { name: 'trip-list', label: 'Trips' },
  { name: 'money-due', label: 'Money' },
  { name: 'reports', label: 'Reports' },
  { name: 'charity-list', label: 'Charities' },
  { name: 'discount-list', label: 'Discounts' },
  { name: 'user-list', label: 'Users' },
  { name: 'audit', label: 'History' },
  { name: 'admin-jobs', label: 'Jobs' },
];

/** The settings screens, in their menu's order. */
export const SETTINGS_PAGES: ReadonlyArray<{ name: RouteName; label: string }> = [
  { name: 'settings-emails', label: 'Email templates' },
  { name: 'settings-countries', label: 'Passport rules' },
  { name: 'settings-changes', label: 'Fees for changes' },
  { name: 'settings-teams', label: 'Teams' },
];

/** Whether a member who may read these areas may open the screen. */
export const mayOpen = (name: RouteName, may: (permission: Permission, level: 'read') => boolean) => {
  const needs = SCREEN_NEEDS[name];
  return !needs || may(needs, 'read');
};
