import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../tests/support/test-app.ts';
import { countHit } from './rate-limit-store.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the database rate-limit counter', () => {
  it('counts the hits that come at once in their order, each key on its own', async () => {
    const hits = await Promise.all([
      ...Array.from({ length: 5 }, () => countHit(t.db, 'together:a', 600)),
      ...Array.from({ length: 3 }, () => countHit(t.db, 'together:b', 600)),
      countHit(t.db, 'together:a', 600),
    ]);
    expect(hits.map((h) => h.hits)).toEqual([1, 2, 3, 4, 5, 1, 2, 3, 6]);
    for (const h of hits) expect(h.ttl).toBeGreaterThan(590_000);
    // and the next one, on its own, after them
    expect((await countHit(t.db, 'together:b', 600)).hits).toBe(4);
    const [row] = await t.db.select().from(rateLimits).where(eq(rateLimits.key, 'together:a'));
    expect(row!.hits).toBe(6);
  });

  it('starts a window again once it has closed, for hits that come at once too', async () => {
    await countHit(t.db, 'closed:a', 600);
    await t.db
      .update(rateLimits)
      .set({ resetAt: sql`now() - interval '1 second'` })
      .where(eq(rateLimits.key, 'closed:a'));
    const hits = await Promise.all([countHit(t.db, 'closed:a', 60), countHit(t.db, 'closed:a', 60)]);
    expect(hits.map((h) => h.hits)).toEqual([1, 2]);
    expect(hits[0]!.ttl).toBeLessThanOrEqual(60_000);
    expect(hits[0]!.ttl).toBeGreaterThan(50_000);
  });
});
