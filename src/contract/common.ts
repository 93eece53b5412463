import { z } from 'zod';

/** `{"message": "..."}` — every 4xx/5xx reply. */
export const messageSchema = z.object({ message: z.string() });
export type MessageReply = z.infer<typeof messageSchema>;

/**
 * 422: the message and, when fields are at fault, a map of field to list of messages
 * (Laravel's shape). A refusal by a rule that no one field breaks has the message only.
 */
export const validationErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ValidationErrorReply = z.infer<typeof validationErrorSchema>;

/**
 * The range of each PostgreSQL integer type a number from a request may feed. A number beyond
 * its column's type is refused as invalid here, never sent to the database to overflow there.
 * int8 stops at the largest integer JavaScript holds exactly.
 */
export const INT_LIMITS = {
  int2: { min: -32_768, max: 32_767 },
  int4: { min: -2_147_483_648, max: 2_147_483_647 },
  int8: { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
} as const;
export type IntColumn = keyof typeof INT_LIMITS;

/** The largest id a record can have (PostgreSQL integer); a bigger one names nothing. */
export const MAX_ID = INT_LIMITS.int4.max;

/**
 * A whole number for a column of that type, sent as a number or as text (a query, a form):
 * anything that is not a whole number within the type's range gets `error` (`missing` when
 * it is no number at all). Callers narrow it further (`.min(1, …)`, `.max(5, …)`) with messages
 * of their own.
 */
export const intFor = (column: IntColumn, error: string, missing = error) =>
  z.coerce
    .number({ error: missing })
    .int({ error })
    .min(INT_LIMITS[column].min, { error })
    .max(INT_LIMITS[column].max, { error });
/** smallint columns: countries, levels, roles, charity types */
export const int2 = (error: string, missing = error) => intFor('int2', error, missing);
/** integer columns: most ids, usage limits, page numbers */
export const int4 = (error: string) => intFor('int4', error);
/** bigint columns */
export const int8 = (error: string) => intFor('int8', error);

/** A page number: 1 up to the largest integer (an OFFSET beyond any table answers an empty page). */
export const pageParam = () =>
  int4('The page must be a whole number.').min(1, { error: 'The page must be at least 1.' }).default(1);

/**
 * The id of a record, sent as a number or as digits (a path, a query, a form): a whole number
 * from 1 to MAX_ID. true, 1.5 or "1e3" are not ids.
 */
export const recordId = (label: string) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)], {
      error: `The ${label} field is required.`,
    })
    .pipe(
      z
        .number()
        .int({ error: `The selected ${label} is invalid.` })
        .min(1, { error: `The selected ${label} is invalid.` })
        .max(MAX_ID, { error: `The selected ${label} is invalid.` }),
    );

/** What PostgreSQL cannot keep in text, and what is not a character at all. */
export const UNSTORABLE_TEXT_MESSAGE =
  'This field contains a character that cannot be stored (a NUL or a broken character).';
// NUL, or a UTF-16 surrogate without its pair
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * Every string in a request (body, query, form field, key or value, at any depth) that the
 * database could not store, as field errors keyed by its path (`items.0.description`). Applied
 * to every request before its schema, so no route can forget it.
 */
export function unstorableTextErrors(value: unknown, path = ''): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const visit = (v: unknown, at: string, depth: number) => {
    if (typeof v === 'string') {
      if (!isStorableText(v)) errors[at || '_'] = [UNSTORABLE_TEXT_MESSAGE];
    } else if (v && typeof v === 'object' && depth < 32) {
      for (const [key, inner] of Object.entries(v)) {
        const here = at ? `${at}.${key}` : key;
        if (!isStorableText(key)) errors[here] = [UNSTORABLE_TEXT_MESSAGE];
        else visit(inner, here, depth + 1);
      }
    }
  };
  visit(value, path, 0);
  return errors;
}

export const idParam = z.object({ id: recordId('id') });

/** A paged list reply. */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.number().int(),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
    per_page: z.number().int(),
    current_page: z.number().int(),
    last_page: z.number().int(),
  });
export type Paged<T> = {
  data: T[];
  total: number;
  from: number | null;
  to: number | null;
  per_page: number;
  current_page: number;
  last_page: number;
};
