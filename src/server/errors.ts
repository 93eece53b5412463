import { pgError } from './sql.ts';

/** An error a route may throw to answer with a status and the DESIGN.md body shape. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 422 with field errors; the message is the first error, as Laravel words it. */
export function validationError(errors: Record<string, string[]>): HttpError {
  return new HttpError(422, summarise(errors), errors);
}

export function summarise(errors: Record<string, string[]>): string {
  const all = Object.values(errors).flat();
  const first = all[0] ?? 'The given data was invalid.';
  const more = all.length - 1;
  return more > 0 ? `${first} (and ${more} more error${more === 1 ? '' : 's'})` : first;
}

export const notFound = (message = 'Not Found') => new HttpError(404, message);
export const forbidden = (message = 'This action is unauthorized.') => new HttpError(403, message);
export const unauthenticated = () => new HttpError(401, 'Unauthenticated.');

/** The database refused a delete because a row still refers to it (a race with the check before). */
export function isForeignKeyViolation(error: unknown): boolean {
  return pgError(error).code === '23503';
}
