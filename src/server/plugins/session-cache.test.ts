import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../modules/auth/service.ts';
import { REMEMBERED_FOR_MS, REMEMBERED_SESSIONS, SessionCache } from './session-cache.ts';

const user = (id: number, teamId?: number): AuthUser => ({
  id,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: `u${id}@example.test`,
  roleId: 1,
  charityId: null,
  sessionsEndedAt: null,
  team: teamId ? { id: teamId, name: 'Desk', full_access: false, permissions: {} as never } : null,
});

function cache(start = 1_000_000) {
  let now = start;
  const c = new SessionCache(() => now);
  c.listening();
  const keep = (id: string, userId: number | null, expiresIn = 3_600_000) =>
    c.remember(c.mark(), id, {
      data: { userId, n: 1 },
      user: userId ? user(userId) : null,
      expiresAt: now + expiresIn,
    });
  return { c, keep, pass: (ms: number) => (now += ms) };
}

describe('the sessions a server remembers', () => {
  it('gives each reader its own copy of the data, and the user frozen', () => {
    const { c, keep } = cache();
    keep('a', 7);
    const first = c.recall('a')!;
    (first.data as { n: number }).n = 2;
    expect(() => {
      first.user!.firstName = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (first.user!.team as { name: string } | null) = null;
    }).toThrow(TypeError);
    expect(c.recall('a')).toMatchObject({ data: { userId: 7, n: 1 }, user: { id: 7, firstName: 'Ada' } });
  });

  it('keeps nothing read across a change to its session or its user heard while the read was under way', () => {
    const { c } = cache();
    const read = (id: string, userId: number, during: () => void) => {
      const mark = c.mark();
      during();
      c.remember(mark, id, { data: {}, user: user(userId), expiresAt: Date.now() + 60_000 });
      return c.recall(id) !== undefined;
    };
    expect(read('a', 1, () => c.notice('s:a'))).toBe(false);
    expect(read('b', 2, () => c.notice('u:2'))).toBe(false);
    expect(read('c', 3, () => c.notice('*'))).toBe(false);
    expect(read('d', 4, () => c.forget('d'))).toBe(false);
    // a change to someone else does not stop it
    expect(read('e', 5, () => (c.notice('s:other'), c.notice('u:6')))).toBe(true);
    // when more changes were heard than are kept, a read that began before the oldest kept is not kept
    const mark = c.mark();
    for (let i = 0; i <= REMEMBERED_SESSIONS; i++) c.notice(`s:busy${i}`);
    c.remember(mark, 'f', { data: {}, user: user(7), expiresAt: Date.now() + 60_000 });
    expect(c.recall('f')).toBeUndefined();
    c.remember(c.mark(), 'f', { data: {}, user: user(7), expiresAt: Date.now() + 60_000 });
    expect(c.recall('f')).toBeDefined();
  });

  it('forgets a session, every session of a user, or everything, as the database tells', () => {
    const { c, keep } = cache();
    keep('a', 1);
    keep('b', 1);
    keep('c', 2);
    keep('guest', null);
    c.notice('s:c');
    expect(c.recall('c')).toBeUndefined();
    expect(c.recall('a')).toBeDefined();
    c.notice('u:1');
    expect([c.recall('a'), c.recall('b')]).toEqual([undefined, undefined]);
    expect(c.recall('guest')).toBeDefined();
    c.notice('*');
    expect(c.size).toBe(0);
  });

  it('remembers nothing until it listens, and forgets everything when it can no longer hear', () => {
    const c = new SessionCache();
    c.remember(c.mark(), 'a', { data: {}, user: null, expiresAt: Date.now() + 60_000 });
    expect(c.recall('a')).toBeUndefined();
    c.listening();
    c.remember(c.mark(), 'a', { data: {}, user: null, expiresAt: Date.now() + 60_000 });
    expect(c.recall('a')).toBeDefined();
    c.lost();
    expect(c.recall('a')).toBeUndefined();
    c.remember(c.mark(), 'a', { data: {}, user: null, expiresAt: Date.now() + 60_000 });
    expect(c.size).toBe(0);
  });

  it('reads a session again when it has run out, and at least once a minute', () => {
    const { c, keep, pass } = cache();
    keep('short', 1, 5_000);
    keep('long', 2);
    pass(5_000);
    expect(c.recall('short')).toBeUndefined();
    expect(c.recall('long')).toBeDefined();
    pass(REMEMBERED_FOR_MS - 5_000);
    expect(c.recall('long')).toBeUndefined();
  });

  it('holds at most so many sessions, forgetting the oldest read first', () => {
    const { c, keep } = cache();
    for (let i = 0; i <= REMEMBERED_SESSIONS; i++) keep(`s${i}`, i + 1);
    expect(c.size).toBe(REMEMBERED_SESSIONS);
    expect(c.recall('s0')).toBeUndefined();
    expect(c.recall(`s${REMEMBERED_SESSIONS}`)).toBeDefined();
    // the user of the one forgotten is forgotten with it
    c.notice('u:1');
    expect(c.size).toBe(REMEMBERED_SESSIONS);
  });
});
