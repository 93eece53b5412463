import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { bookings } from './bookings.ts';
import { users } from './users.ts';

/**
 * The emailed sign-in links of the traveller's pages: single use, short lived. Only a digest of
 * each link's secret is kept, so a copy of the database signs no one in.
 */
export const signInLinks = pgTable(
  'sign_in_links',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** sha256 of the secret in the link, hex */
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the booking the link opens at (a link from an email about one booking), or the traveller's home */
    bookingId: bigint('booking_id', { mode: 'number' }).references(() => bookings.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('sign_in_links_user_idx').on(t.userId), index('sign_in_links_expires_idx').on(t.expiresAt)],
);
