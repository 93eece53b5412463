import { sql, type SQL } from 'drizzle-orm';
import { ERASED_FIELDS } from '../../../contract/retention.ts';
import { queryRows, type Tx } from '../../../db/client.ts';

/** What stands in for an erased value in the copies the history and the chasers keep. */
export const ERASED = '(erased)';

/** Shorter values (a dietary "Yes") are found by their field in the changes, not by their text. */
const SHORTEST_TEXT = 4;

const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });
const ordinal = (d: number) =>
  `${d}${d % 10 === 1 && d !== 11 ? 'st' : d % 10 === 2 && d !== 12 ? 'nd' : d % 10 === 3 && d !== 13 ? 'rd' : 'th'}`;

/**
 * Every way Tripdesk writes a day into a text that is kept (an email, a chaser's reason, an
 * event's summary): 2030-01-09, 9 Jan 2030, 09 Jan 2030, 9th Jan 2030 and 09/01/2030.
 */
export function writtenDays(iso: string): string[] {
  const [y, m, d] = iso.slice(0, 10).split('-');
  const day = Number(d);
  const month = MONTH.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
  return [
    iso.slice(0, 10),
    `${day} ${month} ${y}`,
    `${d} ${month} ${y}`,
    `${ordinal(day)} ${month} ${y}`,
    `${d}/${m}/${y}`,
  ];
}

/** The texts to look for: each value as it was held, and each day as it is written. */
export function textsOf(values: Record<string, unknown>): string[] {
  const out = new Set<string>();
  for (const value of Object.values(values)) {
    if (value === null || value === undefined || typeof value === 'boolean') continue;
    const text = value instanceof Date ? value.toISOString().slice(0, 10) : String(value).trim();
    if (/^\d{4}-\d{2}-\d{2}/.test(text)) for (const written of writtenDays(text)) out.add(written);
    else if (text.length >= SHORTEST_TEXT) out.add(text);
  }
  // longest first, so that a value inside another is not left half replaced
  return [...out].sort((a, b) => b.length - a.length);
}

/** The text with every one of `texts` replaced. */
const redactText = (text: string, texts: string[]) => texts.reduce((out, t) => out.split(t).join(ERASED), text);

/** A JSON value with the texts replaced in its strings only (never in its numbers or its shape). */
function redactJson(value: unknown, texts: string[]): unknown {
  if (typeof value === 'string') return redactText(value, texts);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, texts));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactJson(v, texts)]));
  return value;
}

/** `replace(replace(expr, a, ERASED), b, ERASED)…` over a text column. */
function replaceAll(expr: SQL, texts: string[]) {
  return texts.reduce((inner, text) => sql`replace(${inner}, ${text}, ${ERASED})`, expr);
}

/** The changes' keys of erased fields, as the history names them. */
const CHANGED_KEYS: string[] = [...ERASED_FIELDS, 'passport_image_file', 'passport_issue', 'passport_expiry'];
const KEYS = sql.raw(`array[${CHANGED_KEYS.map((k) => `'${k}'`).join(', ')}]::text[]`);

/**
 * Erasure reaches the copies: in the same transaction as the booking's fields, every event of the
 * booking's history (the text of each email sent, chasers' reasons, summaries) has the erased
 * values replaced, and its changes of erased fields masked whatever they held; so do the chasers'
 * own reasons. `values`: the erased fields as they were, before the erasure.
 */
export async function redactCopies(tx: Tx, bookingId: number, values: Record<string, unknown>): Promise<void> {
  // and the values the fields held before, as the history's changes recorded them
  const earlier = await queryRows<{ v: string | null }>(
    tx,
    sql`select distinct jsonb_array_elements_text(changes -> k) as v from audit_events, unnest(${KEYS}) as k
      where booking_id = ${bookingId} and changes ? k and jsonb_typeof(changes -> k) = 'array'`,
  );
  const texts = textsOf({ ...values, ...Object.fromEntries(earlier.map((r, i) => [`earlier${i}`, r.v])) });
  const events = await queryRows<{
    id: string | number;
    changes: Record<string, unknown> | null;
    details: unknown;
    summary: string;
  }>(tx, sql`select id, changes, details, summary from audit_events where booking_id = ${bookingId}`);
  // the history's trigger lets this transaction rewrite the copies, and nothing else of an event
  await tx.execute(sql`select set_config('tripdesk.audit_redaction', 'erase', true)`);
  for (const event of events) {
    const changes =
      event.changes &&
      (redactJson(
        Object.fromEntries(
          Object.entries(event.changes).map(([k, v]) => [k, CHANGED_KEYS.includes(k) ? [ERASED, ERASED] : v]),
        ),
        texts,
      ) as Record<string, unknown>);
    const details = redactJson(event.details, texts);
    const summary = redactText(event.summary, texts);
    if (
      JSON.stringify(changes) === JSON.stringify(event.changes) &&
      JSON.stringify(details) === JSON.stringify(event.details) &&
      summary === event.summary
    )
      continue;
    await tx.execute(
      sql`update audit_events set changes = ${changes === null ? null : JSON.stringify(changes)}::jsonb, details = ${details === null || details === undefined ? null : JSON.stringify(details)}::jsonb, summary = ${summary} where id = ${event.id}`,
    );
  }
  await tx.execute(sql`select set_config('tripdesk.audit_redaction', '', true)`);
  if (texts.length)
    await tx.execute(
      sql`update chasers set reason = ${replaceAll(sql`reason`, texts)} where booking_id = ${bookingId} and reason is not null`,
    );
}
