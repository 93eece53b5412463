import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { TeamPermissions } from '../../contract/teams.ts';
import { charities } from './charities.ts';

/** Spec §6: 1 Administrator, 2 Charity, 3 End User. Rows are reference data loaded by a migration. */
export const userRoles = pgTable('user_roles', {
  id: smallint().primaryKey(),
  name: text().notNull().unique(),
  displayName: text('display_name').notNull(),
});

/**
 * Issue 36: what each member of staff may do. Every Administrator is in one team; Full access (the
 * one row with full_access) has every permission and always keeps one member.
 */
export const teams = pgTable(
  'teams',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    permissions: jsonb().$type<TeamPermissions>().notNull(),
    fullAccess: boolean('full_access').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('teams_name_lower_unique').on(sql`lower(${t.name})`),
    uniqueIndex('teams_one_full_access')
      .on(t.fullAccess)
      .where(sql`${t.fullAccess}`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text().notNull(),
    // argon2id PHC string; null for travellers who have never been given a sign-in
    passwordHash: text('password_hash'),
    userRoleId: smallint('user_role_id')
      .notNull()
      .default(3)
      .references(() => userRoles.id),
    // the charity a Charity-role user speaks for
    charityId: integer('charity_id').references(() => charities.id, { onDelete: 'set null' }),
    /** an Administrator's team (issue 36); null for every other role. A team with members is not deleted. */
    teamId: integer('team_id').references(() => teams.id, { onDelete: 'restrict' }),
    stripeCustomerId: text('stripe_customer_id'),
    /** "Sign out everywhere" (the traveller's, or staff's for them): every emailed link made before it is refused */
    sessionsEndedAt: timestamp('sessions_ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`),
    index('users_role_idx').on(t.userRoleId),
    index('users_team_idx').on(t.teamId),
    index('users_name_trgm_idx').using('gin', sql`(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    check('users_email_not_blank', sql`length(trim(${t.email})) > 0`),
  ],
);

/** Server-side sessions, shared by every app server that uses the same database. */
export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    data: jsonb().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_expires_idx').on(t.expiresAt), index('sessions_user_idx').on(t.userId)],
);

/** Failed sign-in attempts, counted per email and IP across app servers. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    email: text().notNull(),
    ip: text().notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_key_idx').on(t.email, t.ip, t.attemptedAt)],
);

/**
 * The request limits of routes that have one (sign-in per address, the OAuth token endpoint),
 * counted here so that every app server counts the same: one row per route and key,
 * its hits in the current window and when the window ends.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text().primaryKey(),
    hits: integer().notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_idx').on(t.resetAt)],
);
