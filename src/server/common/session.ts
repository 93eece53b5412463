import type { FastifyRequest } from 'fastify';

/**
 * Signs this browser in as the user: a new session id (so an id planted before sign-in is worth
 * nothing after it), its idle and absolute timeouts counted from now. The session's fields are
 * declared with the session plugin (plugins/auth.ts).
 */
export async function startSession(request: FastifyRequest, userId: number): Promise<void> {
  await request.session.regenerate();
  const now = Date.now();
  request.session.userId = userId;
  request.session.createdAt = now;
  request.session.lastSeenAt = now;
}
