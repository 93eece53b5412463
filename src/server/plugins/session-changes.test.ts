import { describe, expect, it } from 'vitest';
import { compareSessionsByTheirJson, LibrarySession } from './session-changes.ts';

const store = { get() {}, set() {}, destroy() {} };
const signer = { sign: (v: string) => `${v}.signed`, unsign: (v: string) => ({ valid: true, renew: false, value: v }) };
const restore = (data: Record<string, unknown>) =>
  new LibrarySession(
    store,
    { protocol: 'http' },
    () => 'new-id',
    { path: '/' },
    signer,
    data,
    'the-id',
  ) as InstanceType<typeof LibrarySession> & Record<string, unknown>;

describe('a session tells whether it changed by its JSON, not a hash of it', () => {
  compareSessionsByTheirJson();

  it('is unchanged as read, changed by any field, and not by its cookie', () => {
    const data = { userId: 4, createdAt: 1, lastSeenAt: 2, _csrf: 'secret', flash: ['Saved.'] };
    const session = restore(data);
    // what it compares with: the JSON itself, its keys sorted, without the cookie
    const persisted = Object.getOwnPropertySymbols(session).find((s) => s.description === 'persistedHash')!;
    expect((session as unknown as Record<symbol, unknown>)[persisted]).toBe(
      '{"_csrf":"secret","createdAt":1,"flash":["Saved."],"lastSeenAt":2,"userId":4}',
    );
    expect(session.isModified()).toBe(false);
    session.lastSeenAt = 3;
    expect(session.isModified()).toBe(true);
    const other = restore(data);
    (other.flash as string[]).length = 0;
    expect(other.isModified()).toBe(true);
    const cookieOnly = restore(data);
    (cookieOnly.cookie as { path: string }).path = '/elsewhere';
    expect(cookieOnly.isModified()).toBe(false);
  });

  it('the same fields in another order are the same session', () => {
    const session = restore({ b: 1, a: 2 });
    delete session.b;
    session.b = 1;
    expect(session.isModified()).toBe(false);
  });
});
