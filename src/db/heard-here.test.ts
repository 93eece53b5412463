import { describe, expect, it } from 'vitest';
import { HEARD_HERE_KEPT, HeardHere } from './client.ts';

describe('the changes a server heard as it made them', () => {
  it('skips each once for each time it was heard, and only from the connection that made it', () => {
    const heard = new HeardHere();
    heard.add(41, 's:abc');
    heard.add(41, 's:abc');
    expect(heard.take(42, 's:abc')).toBe(false);
    expect(heard.take(41, 'u:7')).toBe(false);
    expect(heard.take(41, 's:abc')).toBe(true);
    expect(heard.take(41, 's:abc')).toBe(true);
    expect(heard.take(41, 's:abc')).toBe(false);
  });

  it(`forgets them all once it holds ${HEARD_HERE_KEPT.toLocaleString('en-GB')}, so one never heard again does not stay for good`, () => {
    const heard = new HeardHere();
    heard.add(1, 's:first');
    for (let i = 1; i < HEARD_HERE_KEPT; i++) heard.add(2, `u:${i}`);
    // full, and not yet forgotten: the first is still there
    expect(heard.take(1, 's:first')).toBe(true);
    heard.add(1, 's:first');
    // one more: all forgotten, and the new one kept
    heard.add(3, 's:last');
    expect(heard.take(1, 's:first')).toBe(false);
    expect(heard.take(2, 'u:1')).toBe(false);
    expect(heard.take(3, 's:last')).toBe(true);
  });
});
