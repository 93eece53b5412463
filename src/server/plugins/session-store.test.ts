import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('sessions read together', () => {
  it('gives each of many requests at once its own session and user, and a signed-out one none', async () => {
    const people = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.signedIn(i % 2 ? 1 : 3, `together${i}@example.test`)),
    );
    const stranger = t.client();
    const replies = await Promise.all([...people, stranger].map((c) => c.get('/api/me')));
    expect(replies.slice(0, 8).map((r) => [r.statusCode, r.json().email])).toEqual(
      Array.from({ length: 8 }, (_, i) => [200, `together${i}@example.test`]),
    );
    expect(replies[8]!.statusCode).toBe(401);
    // one signed out while the others ask again: only that one is refused
    expect((await people[3]!.post('/logout')).statusCode).toBeLessThan(300);
    const again = await Promise.all(people.map((c) => c.get('/api/me')));
    expect(again.map((r) => r.statusCode)).toEqual([200, 200, 200, 401, 200, 200, 200, 200]);
  });
});
