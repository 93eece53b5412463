import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * The history: one row per change, sensitive read or email, written in the same transaction as
 * what it records. Append-only: a trigger (migration 0009) refuses UPDATE and DELETE. No foreign
 * keys, so that history outlives what it speaks of; names are kept as they were at the time.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    // user (signed in), personal_token, oauth_client, system (a job), anonymous (sign-in)
    actorType: text('actor_type').notNull(),
    actorUserId: integer('actor_user_id'),
    actorName: text('actor_name').notNull(),
    // the personal access token or OAuth client that acted, when one did
    actorTokenId: text('actor_token_id'),
    actorClientId: text('actor_client_id'),
    // the team the acting member of staff was in at the time (issue 36)
    actorTeam: text('actor_team'),
    source: text('source').notNull(),
    ipAddress: text('ip_address'),
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id'),
    bookingId: bigint('booking_id', { mode: 'number' }),
    tripId: integer('trip_id'),
    changes: jsonb('changes').$type<Record<string, [unknown, unknown]>>(),
    summary: text('summary').notNull(),
    // what else the event needs (an email's recipient, subject and text; an export's filters and row count)
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at, t.id),
    index('audit_events_booking_idx').on(t.bookingId, t.at, t.id),
    // a trip's own history (its bookings have theirs): only the few events with no booking, so
    // that a page and its count read the trip's own events and not every booking's beside them
    index('audit_events_trip_own_idx')
      .on(t.tripId, t.at, t.id)
      .where(sql`${t.bookingId} is null and ${t.tripId} is not null`),
    index('audit_events_actor_idx').on(t.actorUserId, t.at, t.id),
    // text_pattern_ops: serves "booking." (LIKE 'booking.%') as a range under any collation, as
    // well as an exact action; a plain index serves LIKE only under the C collation
    index('audit_events_action_idx').on(t.action.op('text_pattern_ops'), t.at, t.id),
    index('audit_events_subject_idx').on(t.subjectType, t.subjectId, t.at),
    check(
      'audit_events_actor_type',
      sql`${t.actorType} in ('user', 'personal_token', 'oauth_client', 'system', 'anonymous')`,
    ),
    check('audit_events_source', sql`${t.source} in ('web', 'api', 'system', 'webhook', 'portal', 'online')`),
  ],
);
