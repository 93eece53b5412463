import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ROLES } from '../../contract/constants.ts';
import { HttpError } from '../errors.ts';
import {
  allows,
  permissionMessage,
  HIDDEN_FOR_TEAM,
  TRAVELLER_DATA,
  TRAVELLER_DATA_CHECKS,
  TRAVELLER_DATA_FIELDS,
} from '../../contract/team-constants.ts';

const FIELDS = new Set<string>(TRAVELLER_DATA_FIELDS);
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
    else if (CHECKS.has(key) && isRecord(v) && 'state' in v && 'reason' in v)
      out[key] = { ...v, reason: HIDDEN_FOR_TEAM };
    else out[key] = walk(v);
  }
  return out;
}

/** The booking list's medical filter says who has medical conditions: refused to a team without traveller data. */
export function refuseHiddenFilter(request: FastifyRequest, filter: { medical?: boolean | undefined }): void {
  if (filter.medical !== undefined && hidesTravellerData(request))
    throw new HttpError(403, permissionMessage(TRAVELLER_DATA, 'read'));
}

/** Every JSON reply to a member whose team may not read traveller data goes without it. */
export const travellerDataPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preSerialization', async (request, _reply, payload) =>
    hidesTravellerData(request) ? redactTravellerData(payload) : payload,
  );
});
