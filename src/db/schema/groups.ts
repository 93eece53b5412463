import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { trips } from './trips.ts';
import { users } from './users.ts';

/**
 * A school's group on a school trip (issue 37): its group leader (an End User, found or made by
 * their email) and how many places it has; its pupils are bookings of the trip with its id.
 */
export const schoolGroups = pgTable(
  'school_groups',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    tripId: integer('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'cascade' }),
    school: text().notNull(),
    leaderName: text('leader_name').notNull(),
    leaderEmail: text('leader_email').notNull(),
    leaderPhone: text('leader_phone'),
    leaderUserId: integer('leader_user_id').references(() => users.id, { onDelete: 'set null' }),
    places: integer().notNull(),
    /** who pays (contract/groups.ts GROUP_PAYERS): parents, school, or split */
    payer: text().notNull().default('parents'),
    /** what the school pays for each pupil when the payer is split; null otherwise */
    schoolSharePence: integer('school_share_pence'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('school_groups_trip_idx').on(t.tripId),
    index('school_groups_leader_idx').on(t.leaderUserId),
    check('school_groups_payer', sql`${t.payer} in ('parents', 'school', 'split')`),
    check('school_groups_places', sql`${t.places} between 1 and 1000`),
    check(
      'school_groups_share',
      sql`(${t.payer} = 'split') = (${t.schoolSharePence} is not null) and coalesce(${t.schoolSharePence}, 0) >= 0`,
    ),
  ],
);
