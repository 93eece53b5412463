// The one list of tables, for drizzle-kit and for the typed client.
export * from './users.ts';
export * from './charities.ts';
export * from './countries.ts';
export * from './trips.ts';
export * from './discounts.ts';
export * from './bookings.ts';
export * from './invoices.ts';
export * from './oauth.ts';
export * from './audit.ts';
export * from './schedules.ts';
export * from './emails.ts';
export * from './money-owed.ts';
export * from './fundraising.ts';
export * from './rollups.ts';
export * from './card-payments.ts';
export * from './traveller.ts';
export * from './waiting-list.ts';
