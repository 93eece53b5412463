import type { FastifyRequest } from 'fastify';
import { forbidden } from '../errors.ts';

/** Cross-site form posts to a public endpoint (the sign-in form) are refused by their Origin. */
export function assertSameOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (!origin) return;
  let host: string;
  try {
    // a sandboxed frame says "null", which new URL refuses
    host = new URL(origin).host;
  } catch {
    throw forbidden('Cross-site request refused.');
  }
  if (host !== request.host) throw forbidden('Cross-site request refused.');
}
