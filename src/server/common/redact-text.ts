/**
 * Finding a traveller's values in the texts Tripdesk keeps (an email's text, a chaser's reason,
 * an event's summary) and putting something else in their place: erasure after return rewrites
 * the copies for good (retention/redact.ts); a team without traveller data reads them with the
 * values hidden (traveller-data.ts).
 */

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
export function textsOf(values: Iterable<unknown>): string[] {
  const out = new Set<string>();
  for (const value of values) {
    if (value === null || value === undefined || typeof value === 'boolean') continue;
    const text = value instanceof Date ? value.toISOString().slice(0, 10) : String(value).trim();
    if (/^\d{4}-\d{2}-\d{2}/.test(text)) for (const written of writtenDays(text)) out.add(written);
    else if (text.length >= SHORTEST_TEXT) out.add(text);
  }
  // longest first, so that a value inside another is not left half replaced
  return [...out].sort((a, b) => b.length - a.length);
}

/** The text with every one of `texts` replaced by `by`. */
export const replaceTexts = (text: string, texts: string[], by: string) =>
  texts.reduce((out, t) => out.split(t).join(by), text);

/** A JSON value with the texts replaced in its strings only (never in its numbers or its shape). */
export function replaceInJson(value: unknown, texts: string[], by: string): unknown {
  if (!texts.length) return value;
  if (typeof value === 'string') return replaceTexts(value, texts, by);
  if (Array.isArray(value)) return value.map((v) => replaceInJson(v, texts, by));
  if (value && typeof value === 'object' && !(value instanceof Date))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceInJson(v, texts, by)]));
  return value;
}
