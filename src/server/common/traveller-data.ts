import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ROLES } from '../../contract/constants.ts';
import { ERASED_FIELDS } from '../../contract/retention.ts';
import { inArray, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/index.ts';
import { HttpError } from '../errors.ts';
import { replaceInJson, textsOf } from './redact-text.ts';
import {
  allows,
  permissionMessage,
  HIDDEN_FOR_TEAM,
  hideTravellerLabels,
  TRAVELLER_DATA,
  TRAVELLER_DATA_CHECKS,
  TRAVELLER_DATA_FIELDS,
} from '../../contract/team-constants.ts';

const FIELDS = new Set<string>(TRAVELLER_DATA_FIELDS);
const ERASED = new Set<string>(ERASED_FIELDS);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isErasedFields = (v: unknown) => isStrings(v) && v.length > 0 && v.every((x) => ERASED.has(x));
const CHECKS = new Set<string>(TRAVELLER_DATA_CHECKS);

/** Whether the member of staff behind this request may not read the travellers' health and passport data. */
export function hidesTravellerData(request: FastifyRequest): boolean {
  const user = request.user;
  return user?.roleId === ROLES.administrator && !allows(user.team?.permissions, TRAVELLER_DATA, 'read');
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !Buffer.isBuffer(v);

/**
 * A copy of a reply without the travellers' health and passport data (issue 36): each such field
 * null, each History change of one "Hidden for your team", each readiness check that quotes one
 * keeps its colour but not its reason. Whatever the reply's shape: a field added later to any reply
 * is covered by its name.
 */
export function redactTravellerData<T>(value: T): T {
  return walk(value) as T;
}

function walk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(walk);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (FIELDS.has(key)) out[key] = null;
    else if (key === 'changes' && isRecord(v))
      out[key] = Object.fromEntries(
        Object.entries(v).map(([field, change]) => [
          field,
          FIELDS.has(field) ? [HIDDEN_FOR_TEAM, HIDDEN_FOR_TEAM] : walk(change),
        ]),
      );
    // which of a traveller's details are held (erasure's fields, a transfer's list) says as much as their values
    else if (key === 'fields' && isErasedFields(v)) out[key] = [];
    else if (key === 'erased' && isStrings(v)) out[key] = hideTravellerLabels(v);
    else if (CHECKS.has(key) && isRecord(v) && 'state' in v && 'reason' in v)
      out[key] = { ...v, reason: HIDDEN_FOR_TEAM };
    else out[key] = walk(v);
  }
  return out;
}

/**
 * The booking list's medical and passport filters say who has medical conditions and whose
 * passport is missing or runs out: refused to a team without traveller data.
 */
export function refuseHiddenFilter(
  request: FastifyRequest,
  filter: { medical?: boolean | undefined; passport?: string | undefined },
): void {
  if ((filter.medical !== undefined || filter.passport) && hidesTravellerData(request))
    throw new HttpError(403, permissionMessage(TRAVELLER_DATA, 'read'));
}

/** Every JSON reply to a member whose team may not read traveller data goes without it. */
export const travellerDataPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preSerialization', async (request, _reply, payload) =>
    hidesTravellerData(request) ? redactTravellerData(payload) : payload,
  );
});

/** What stands in for a traveller's value found in a kept text (an email, a summary) for such a team. */
export const HIDDEN_IN_TEXT = `(${HIDDEN_FOR_TEAM.toLowerCase()})`;

/** The History's names for those fields' changes: the reply's names, and erasure's column names. */
const CHANGED_KEYS = [...TRAVELLER_DATA_FIELDS, 'passport_issue_date', 'passport_expiry_date'];
const KEYS = sql.raw(`array[${CHANGED_KEYS.map((k) => `'${k}'`).join(', ')}]::text[]`);

/**
 * Each booking's traveller data as it can appear in a text kept about it: the values it holds
 * now, the values its History's changes say it held before, each day as Tripdesk writes days.
 * The texts (an email's, a chaser's reason, a summary written before issue 36) quote them as
 * they were, so they are found by value, as erasure after return finds them.
 */
export async function travellerTexts(db: Db, bookingIds: Iterable<number>): Promise<Map<number, string[]>> {
  const ids = [...new Set(bookingIds)];
  if (!ids.length) return new Map();
  const [now, earlier] = await Promise.all([
    db
      .select({
        id: bookings.id,
        a: bookings.passportNumber,
        b: bookings.passportIssueDate,
        c: bookings.passportExpiryDate,
        d: bookings.nationality,
        e: bookings.insuranceCompany,
        f: bookings.insurancePolicyNumber,
        g: bookings.insuranceTelephone,
        h: bookings.nokName,
        i: bookings.nokRelationship,
        j: bookings.nokEmail,
        k: bookings.nokTelephone,
        l: bookings.nokAddress,
        m: bookings.dietary,
        n: bookings.medication,
        o: bookings.medicalDetail,
      })
      .from(bookings)
      .where(inArray(bookings.id, ids)),
    queryRows<{ booking_id: number | string; v: string | null }>(
      db,
      sql`select distinct booking_id, jsonb_array_elements_text(changes -> k) as v from audit_events, unnest(${KEYS}) as k
        where booking_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) and changes ? k and jsonb_typeof(changes -> k) = 'array'`,
    ),
  ]);
  const values = new Map<number, unknown[]>();
  for (const { id, ...held } of now) values.set(id, Object.values(held));
  for (const row of earlier) values.get(Number(row.booking_id))?.push(row.v);
  return new Map([...values].map(([id, v]) => [id, textsOf(v).filter((t) => t !== HIDDEN_IN_TEXT)]));
}

/** A History event, or an email it keeps, with its booking's traveller data hidden in its texts. */
export async function hideTravellerValues<T extends object>(
  db: Db,
  items: T[],
  bookingOf: (item: T) => number | null,
  fields: ReadonlyArray<keyof T>,
): Promise<T[]> {
  const texts = await travellerTexts(
    db,
    items.map(bookingOf).filter((id): id is number => id !== null),
  );
  return items.map((item) => {
    const id = bookingOf(item);
    const t = id === null ? undefined : texts.get(id);
    if (!t?.length) return item;
    const out = { ...item };
    for (const field of fields) out[field] = replaceInJson(item[field], t, HIDDEN_IN_TEXT) as T[typeof field];
    return out;
  });
}

/** The booking a History event is about: its own, or the one a template's test was previewed with. */
export const eventBooking = (e: { booking_id: number | null; details: unknown }): number | null => {
  if (e.booking_id !== null) return e.booking_id;
  const preview = isRecord(e.details) ? e.details.preview_booking_id : undefined;
  return typeof preview === 'number' ? preview : null;
};

/** History events as a team without traveller data reads them: its values hidden in their texts. */
export const hideInEvents = <
  T extends { booking_id: number | null; details: unknown; summary: string; changes: unknown },
>(
  db: Db,
  events: T[],
) => hideTravellerValues(db, events, eventBooking, ['summary', 'details', 'changes']);
