import { createHash, randomBytes } from 'node:crypto';

/** Access tokens live an hour, codes ten minutes (the spec). */
export const ACCESS_TOKEN_SECONDS = 3600;
export const AUTH_CODE_SECONDS = 600;
// not in the spec: long enough that a daily or weekly job keeps working, short enough to end
// forgotten integrations; every use rotates it
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;

/**
 * Every secret we hand out is an opaque random string with a prefix saying what it is, so a
 * leaked one is recognised by secret scanners and the bearer check knows which table to read.
 */
export const PREFIX = { personal: 'tdp_', access: 'tda_', refresh: 'tdr_' } as const;

export const randomToken = (prefix = ''): string => prefix + randomBytes(32).toString('base64url');

/** Only this is stored: a database leak gives no usable token. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Client secrets are shown to their owner (spec §2), so they are kept as they are. */
export const clientSecret = (): string => randomBytes(30).toString('base64url');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000);
