/** Text to find anywhere in a column with ILIKE: its own % and _ are characters, not wildcards. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);
export const containsPattern = (s: string) => `%${escapeLike(s)}%`;

/** The PostgreSQL error code and constraint behind a failed query (drizzle wraps the driver's error). */
export function pgError(error: unknown): { code?: string; constraint?: string } {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  return e.cause ?? e;
}
