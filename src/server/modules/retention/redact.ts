import { sql, type SQL } from 'drizzle-orm';
import { ERASED_FIELDS } from '../../../contract/retention.ts';
import { queryRows, type Tx } from '../../../db/client.ts';
import { replaceInJson, replaceTexts, textsOf } from '../../common/redact-text.ts';

/** What stands in for an erased value in the copies the history and the chasers keep. */
export const ERASED = '(erased)';

/** The text with every one of `texts` erased. */
const redactText = (text: string, texts: string[]) => replaceTexts(text, texts, ERASED);
const redactJson = (value: unknown, texts: string[]) => replaceInJson(value, texts, ERASED);

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
  const texts = textsOf([...Object.values(values), ...earlier.map((r) => r.v)]);
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
