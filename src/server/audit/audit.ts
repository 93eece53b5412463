import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/index.ts';
import type { AUDIT_SOURCES } from '../../contract/constants.ts';
import { TRAVELLER_DATA_FIELDS } from '../../contract/team-constants.ts';

/**
 * The one way anything is written into the history. Services call `audit(tx, …)` inside the
 * transaction of the change it records, so a change without its event (or the other way round)
 * cannot happen. Who acted, from where and how comes from the request being served (or the job
 * running), carried by AsyncLocalStorage, so no route or service passes it by hand.
 */
export type ActorType = 'user' | 'personal_token' | 'oauth_client' | 'system' | 'anonymous';
export type Actor = {
  type: ActorType;
  userId: number | null;
  name: string;
  tokenId: string | null;
  clientId: string | null;
  /** a member of staff's team at the time */
  team?: string | null;
};
export type AuditSource = (typeof AUDIT_SOURCES)[number];
export type AuditContext = { actor: () => Actor; source: () => AuditSource; ip: string | null };

export type Changes = Record<string, [unknown, unknown]>;
export type AuditEvent = {
  /** namespaced verb: booking.updated, transaction.struck_out, export.bookings… */
  action: string;
  subject: { type: string; id: string | number | null };
  bookingId?: number | null;
  tripId?: number | null;
  changes?: Changes | null;
  /** what happened, after the actor's name: "changed status from provisional to confirmed" */
  summary: string;
  details?: Record<string, unknown> | null;
  /** who acted, when it is not the request's user (an OAuth client at the token endpoint) */
  actor?: Actor;
};

const storage = new AsyncLocalStorage<AuditContext>();

const SYSTEM: AuditContext = {
  actor: () => ({ type: 'system', userId: null, name: 'System', tokenId: null, clientId: null }),
  source: () => 'system',
  ip: null,
};

/** Runs `fn` as a job of the system: its events name the job. */
export function asSystem<T>(job: string, fn: () => Promise<T>): Promise<T> {
  return storage.run(
    {
      ...SYSTEM,
      actor: () => ({ type: 'system', userId: null, name: `System (${job})`, tokenId: null, clientId: null }),
    },
    fn,
  );
}

/**
 * Runs `fn` as the card provider: its events name Stripe, and the source is how the news came
 * (a webhook, a payer's return to the pay page, or the reconciliation job).
 */
export function asCardProvider<T>(source: AuditSource, fn: () => Promise<T>): Promise<T> {
  const ip = storage.getStore()?.ip ?? null;
  return storage.run(
    {
      actor: () => ({ type: 'system', userId: null, name: 'Stripe', tokenId: null, clientId: null }),
      source: () => source,
      ip,
    },
    fn,
  );
}

/**
 * Runs `fn` as a traveller booking on a trip's public page: the source is `online`, and the
 * events name the traveller (each passes its own actor once the traveller's account is known).
 */
export function asOnlineBooking<T>(fn: () => Promise<T>): Promise<T> {
  const ip = storage.getStore()?.ip ?? null;
  return storage.run(
    {
      actor: () => ({
        type: 'anonymous',
        userId: null,
        name: 'A traveller booking online',
        tokenId: null,
        clientId: null,
      }),
      source: () => 'online',
      ip,
    },
    fn,
  );
}

export function currentActor(): Actor {
  return (storage.getStore() ?? SYSTEM).actor();
}

/** Records one event in the transaction (or connection) given; returns its id. */
export async function audit(tx: Tx | Db, event: AuditEvent): Promise<number> {
  // written as plain SQL: every change writes one, and the query builder's insert cost more than the database did
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into ${auditEvents} (${AUDIT_COLUMNS}) values (${auditRow(event)}) returning id`,
  );
  return Number(row!.id);
}

const AUDIT_COLUMNS = sql.raw(`actor_type, actor_user_id, actor_name, actor_token_id, actor_client_id, actor_team,
  source, ip_address, action, subject_type, subject_id, booking_id, trip_id, changes, summary, details`);

/**
 * An event as the values of its row, in the columns' order; `subjectId`: the subject's (and
 * booking's) id as SQL, when it is made by the same statement (one round trip on launch day's
 * hottest route: `insert … select` from the statement's own insert).
 */
function auditRow(event: AuditEvent, subjectId?: SQL): SQL {
  const context = storage.getStore() ?? SYSTEM;
  const actor = event.actor ?? context.actor();
  const changes = event.changes && Object.keys(event.changes).length ? JSON.stringify(event.changes) : null;
  const details = event.details ? JSON.stringify(event.details) : null;
  const id = subjectId
    ? sql`${subjectId}::text, ${subjectId}`
    : sql`${event.subject.id === null ? null : String(event.subject.id)}, ${event.bookingId ?? null}::bigint`;
  // (typed, for a select's values have no columns to take their types from)
  return sql`${actor.type}, ${actor.userId}::int, ${actor.name}, ${actor.tokenId}, ${actor.clientId}, ${actor.team ?? null},
    ${context.source()}, ${context.ip}, ${event.action}, ${event.subject.type}, ${id}, ${event.tripId ?? null}::int,
    ${changes}::jsonb, ${`${actor.name} ${event.summary}`}, ${details}::jsonb`;
}

/**
 * The insert of an event about a booking the same statement makes: `bookingId` is its id as a
 * column of what `from` reads (e.g. \`b.id\` of a CTE \`b\` that inserted the booking).
 */
export function auditOfNewBooking(event: Omit<AuditEvent, 'bookingId' | 'subject'>, bookingId: SQL, from: SQL): SQL {
  const row = auditRow({ ...event, subject: { type: 'booking', id: null } }, bookingId);
  return sql`insert into ${auditEvents} (${AUDIT_COLUMNS}) select ${row} from ${from}`;
}

/**
 * One row of `auditOfNewBookings`, built in the context of the request it is about (its address):
 * `bookingId` is its booking's id as the statement reads it, e.g. a scalar subquery of the CTE that
 * inserted the bookings.
 */
export function newBookingEventRow(event: Omit<AuditEvent, 'bookingId' | 'subject'>, bookingId: SQL): SQL {
  return sql`(${auditRow({ ...event, subject: { type: 'booking', id: null } }, bookingId)})`;
}

/** The insert of the events of several bookings the same statement makes (rows from `newBookingEventRow`). */
export function auditOfNewBookings(rows: SQL[]): SQL {
  return sql`insert into ${auditEvents} (${AUDIT_COLUMNS}) values ${sql.join(rows, sql`, `)}`;
}

/** Who a request acts as, worked out when an event is written (after sign-in and token checks). */
function actorOf(request: FastifyRequest): Actor {
  const user = request.user;
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : 'Someone not signed in';
  const team = user?.team?.name ?? null;
  const grant = request.bearer;
  if (grant?.kind === 'personal')
    return {
      type: 'personal_token',
      userId: user?.id ?? null,
      name: `${name} (personal access token)`,
      tokenId: grant.tokenId,
      clientId: null,
      team,
    };
  if (grant?.kind === 'oauth')
    return {
      type: 'oauth_client',
      userId: user?.id ?? null,
      name: `${name} (through an OAuth client)`,
      tokenId: grant.tokenId,
      clientId: grant.clientId,
      team,
    };
  if (user) return { type: 'user', userId: user.id, name, tokenId: null, clientId: null, team };
  return { type: 'anonymous', userId: null, name, tokenId: null, clientId: null };
}

/** Every request runs inside its own audit context. */
export const auditPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', (request, _reply, done) => {
    storage.run(
      {
        actor: () => actorOf(request),
        // a traveller's own pages are the portal; the rest of the web is the office's
        source: () =>
          request.bearer ? 'api' : (request.routeOptions.url ?? request.url).startsWith('/api/my/') ? 'portal' : 'web',
        ip: request.ip,
      },
      done,
    );
  });
});

// ---- field diffs ----

/** Fields whose values never enter the history, and fields shown masked. */
const SECRET = /password|secret|token|hash/i;
const MASKED_KEEP_TAIL = new Set([
  'passport_number',
  'passportNumber',
  'insurance_policy_number',
  'insurancePolicyNumber',
]);
const MASKED_TEXT = new Set([
  'medical_detail',
  'medicalDetail',
  'medication',
  'dietary',
  'medical_conditions',
  'medicalConditions',
]);

export function maskValue(field: string, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value ?? null;
  if (MASKED_KEEP_TAIL.has(field)) {
    const s = String(value);
    return s.length <= 3 ? '•••' : `•••${s.slice(-3)}`;
  }
  if (MASKED_TEXT.has(field)) return '(hidden)';
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * `{field: [old, new]}` for the fields that changed, in the API's names: secrets left out,
 * passport and medical values masked. `fields` maps API name → [old, new].
 */
export function diff(fields: Record<string, [unknown, unknown]>): Changes {
  const out: Changes = {};
  for (const [field, [before, after]] of Object.entries(fields)) {
    if (SECRET.test(field) || same(before, after)) continue;
    out[field] = [maskValue(field, before), maskValue(field, after)];
  }
  return out;
}

/** diff of two records over the keys of `after` that the caller changed */
export function diffObjects(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  keys: string[] = Object.keys(after),
): Changes {
  return diff(Object.fromEntries(keys.filter((k) => k in after).map((k) => [k, [before[k], after[k]]])));
}

/** "changed status from provisional to confirmed" / "changed the name, url and logo" */
export function describeChanges(changes: Changes, noun = ''): string {
  const keys = Object.keys(changes);
  const what = noun ? ` of ${noun}` : '';
  if (!keys.length) return `saved ${noun || 'it'} without changes`;
  // the travellers' health and passport data never enters a summary: its values are in the
  // changes, which a team without traveller data does not see (issue 36)
  if (keys.length === 1 && !TRAVELLER_DATA_FIELDS.includes(keys[0] as never)) {
    const [field] = keys as [string];
    const [from, to] = changes[field]!;
    const show = (v: unknown) => (v === null || v === '' ? 'nothing' : typeof v === 'string' ? v : JSON.stringify(v));
    return `changed ${field.replaceAll('_', ' ')}${what} from ${show(from)} to ${show(to)}`;
  }
  const names = keys.map((k) => k.replaceAll('_', ' '));
  if (names.length === 1) return `changed ${names[0]}${what}`;
  return `changed ${names.slice(0, -1).join(', ')} and ${names.at(-1)}${what}`;
}
