export const E2E_USERS = {
  admin: { email: 'admin@e2e.test', password: 'e2e-admin-password' },
  charity: { email: 'charity@e2e.test', password: 'e2e-charity-password' },
  endUser: { email: 'traveller@e2e.test', password: 'e2e-traveller-password' },
  // a second Charity user, for the charity portal's spec alone (the first is linked by charity-link.spec.ts)
  partner: { email: 'partner@e2e.test', password: 'e2e-partner-password' },
};
