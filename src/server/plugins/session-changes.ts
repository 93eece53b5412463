import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);
const sessionModule = load.resolve('@fastify/session');
/** @fastify/session's Session class (not exported by its index), and the stringify it uses */
export const LibrarySession = load('@fastify/session/lib/session.js') as new (...args: unknown[]) => {
  isModified(): boolean;
};
const { configure } = createRequire(sessionModule)('safe-stable-stringify') as {
  configure(options: {
    bigint: boolean;
  }): (value: unknown, replacer: (key: string, value: unknown) => unknown) => string;
};
const stringify = configure({ bigint: false });

/**
 * @fastify/session tells whether a session changed (and must be written) by a sha256 of its
 * stable JSON, made when the session is read and again as the reply goes out: two hashes on every
 * signed-in request, 37 µs each in a server whose caches a 10 ms statement has just emptied, a
 * twentieth of what a one-row list spends outside its SQL (issue 33). The stable JSON itself is
 * kept and compared instead: the same answer, without the hash. The library's private method is
 * replaced once; a version of the library without it fails when the server starts.
 */
export function compareSessionsByTheirJson(): void {
  const prototype = LibrarySession.prototype as unknown as Record<symbol, unknown>;
  const hash = Object.getOwnPropertySymbols(prototype).find((s) => s.description === 'hash');
  if (!hash || typeof prototype[hash] !== 'function')
    throw new Error('@fastify/session no longer has the hash this server replaces: see session-changes.ts');
  prototype[hash] = function (this: object) {
    return jsonOf(this);
  };
}

/** As the library's: every field of the session but its cookie, in a stable order. */
function jsonOf(session: object): string {
  return stringify(session, function (this: unknown, key, value) {
    return this === session && key === 'cookie' ? undefined : value;
  });
}
