import { createContext, useContext } from 'react';
import type { CurrentUser } from '../../contract/auth.ts';
import { ROLES } from '../../contract/constants.ts';

export const SessionContext = createContext<CurrentUser | null>(null);

export const useCurrentUser = () => useContext(SessionContext);

export const isStaff = (user: CurrentUser | null) => user?.user_role_id === ROLES.administrator;

/** A Charity user linked to a charity, whose own screen is the charity portal. */
export const isCharityPartner = (user: CurrentUser | null) =>
  user?.user_role_id === ROLES.charity && user.charity_id !== null;
