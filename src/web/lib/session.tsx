import { createContext, useContext } from 'react';
import type { CurrentUser } from '../../contract/auth.ts';
import { ROLES } from '../../contract/constants.ts';
import { allows, type Level, type Permission } from '../../contract/permissions.ts';

export const SessionContext = createContext<CurrentUser | null>(null);

export const useCurrentUser = () => useContext(SessionContext);

export const isStaff = (user: CurrentUser | null) => user?.user_role_id === ROLES.administrator;

/** Whether the signed-in member's team may do this (issue 36): screens show only what it may. */
export const can = (user: CurrentUser | null, permission: Permission, level: Level = 'change') =>
  isStaff(user) && allows(user?.permissions, permission, level);

/** `can` for the signed-in member: `const may = useCan(); may('bookings')` (change), `may('finance', 'read')`. */
export function useCan() {
  const user = useCurrentUser();
  return (permission: Permission, level: Level = 'change') => can(user, permission, level);
}

/** A Charity user linked to a charity, whose own screen is the charity portal. */
export const isCharityPartner = (user: CurrentUser | null) =>
  user?.user_role_id === ROLES.charity && user.charity_id !== null;
