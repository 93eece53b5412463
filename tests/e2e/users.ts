export const E2E_USERS = {
  admin: { email: 'admin@e2e.test', password: 'e2e-admin-password' },
  charity: { email: 'charity@e2e.test', password: 'e2e-charity-password' },
  endUser: { email: 'traveller@e2e.test', password: 'e2e-traveller-password' },
};
