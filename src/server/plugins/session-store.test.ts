import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUTH_LISTENER, createDb, LISTENER_HEARTBEAT_MS, queryRows, type Db } from '../../db/client.ts';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.ts';
import { buildApp } from '../app.ts';
import { SESSION_COOKIE } from './auth.ts';
import { DbSessionStore } from './session-store.ts';

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

describe('sessions remembered (decision 036)', () => {
  const sessionsOf = (email: string) =>
    sql`delete from sessions where user_id = (select id from users where email = ${email})`;
  /** ends the user's sessions without the database telling anyone: only memory still holds them */
  async function endUnheard(db: Db, email: string) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`alter table sessions disable trigger sessions_auth_changed`);
      await tx.execute(sessionsOf(email));
      await tx.execute(sql`alter table sessions enable trigger sessions_auth_changed`);
    });
  }

  it('answers a read from memory, a write from the database, and forgets a session the database ends', async () => {
    const email = 'remembered@example.test';
    const client = await t.signedIn(1, email);
    expect((await client.get('/api/me')).statusCode).toBe(200);
    await endUnheard(t.db, email);
    // the read is answered from memory: the database was never asked, so it never said
    expect((await client.get('/api/me')).statusCode).toBe(200);
    // a request that may change something is never answered from memory
    expect((await client.post('/api/charities', {})).statusCode).toBe(401);
    expect((await client.get('/api/me')).statusCode).toBe(401);

    // ended as the database tells: forgotten before the change returns
    const other = await t.signedIn(1, 'told@example.test');
    expect((await other.get('/api/me')).json().first_name).toBe('Sam');
    await t.db.execute(sql`update users set first_name = 'Samira' where email = 'told@example.test'`);
    expect((await other.get('/api/me')).json().first_name).toBe('Samira');
    await t.db.execute(sessionsOf('told@example.test'));
    expect((await other.get('/api/me')).statusCode).toBe(401);
  });

  it('never writes back a session ended elsewhere while a request here was answering from it', async () => {
    const store = new DbSessionStore(t.db, { idleMs: 3_600_000, absoluteMs: 7_200_000 });
    const save = (id: string, data: Record<string, unknown>) =>
      new Promise<void>((resolve, reject) => store.set(id, data as never, (e) => (e ? reject(e) : resolve())));
    const load = (id: string) =>
      new Promise<unknown>((resolve, reject) => store.get(id, (e, s) => (e ? reject(e) : resolve(s))));
    const rows = async (id: string) =>
      (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from sessions where id = ${id}`))[0]!.n;
    const now = Date.now();
    // a new session is made
    await save('ended-elsewhere', { createdAt: now, lastSeenAt: now });
    expect(await rows('ended-elsewhere')).toBe(1);
    // read by a request here; ended on another server; then the request here saves it (a touch, a CSRF secret)
    expect(await load('ended-elsewhere')).toMatchObject({ createdAt: now });
    await t.db.execute(sql`delete from sessions where id = 'ended-elsewhere'`);
    await save('ended-elsewhere', { createdAt: now, lastSeenAt: now + 61_000 });
    expect(await rows('ended-elsewhere')).toBe(0);
  });

  it("forgets a session another server ends, and refuses that server's session a write at once", async () => {
    // another server on the same database: its own connections, as behind a load balancer
    const database =
      'connectionString' in t.database.connection
        ? await createDb({ databaseUrl: t.database.connection.connectionString, poolSize: 2 })
        : undefined;
    const two = await buildApp({ config: t.config, db: database?.db ?? t.db });
    try {
      const client = await t.signedIn(1, 'two-servers@example.test');
      const onTwo = new TestClient(two);
      onTwo.cookies.set(SESSION_COOKIE, client.cookies.get(SESSION_COOKIE)!);
      onTwo.csrfToken = client.csrfToken;
      expect((await onTwo.get('/api/me')).statusCode).toBe(200);
      expect((await client.post('/logout')).statusCode).toBeLessThan(400);
      expect((await onTwo.post('/api/charities', {})).statusCode).toBe(401);
      await expect.poll(async () => (await onTwo.get('/api/me')).statusCode, { timeout: 2000 }).toBe(401);
    } finally {
      await two.close();
      await database?.close();
    }
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'remembers nothing while its listening connection is lost, and listens again',
    async () => {
      const email = 'unheard@example.test';
      const client = await t.signedIn(1, email);
      expect((await client.get('/api/me')).statusCode).toBe(200);
      const listeners = sql`select count(*)::int as n from pg_stat_activity where application_name = ${AUTH_LISTENER} and datname = current_database()`;
      await t.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${AUTH_LISTENER} and datname = current_database()`,
      );
      await expect.poll(async () => (await queryRows<{ n: number }>(t.db, listeners))[0]!.n, { timeout: 500 }).toBe(0);
      await endUnheard(t.db, email);
      expect((await client.get('/api/me')).statusCode).toBe(401);
      // listening again a second later: remembered again
      await expect.poll(async () => (await queryRows<{ n: number }>(t.db, listeners))[0]!.n, { timeout: 5000 }).toBe(1);
      let tries = 0;
      await expect
        .poll(
          async () => {
            const address = `heard-again${++tries}@example.test`;
            const again = await t.signedIn(1, address);
            await again.get('/api/me');
            await endUnheard(t.db, address);
            return (await again.get('/api/me')).statusCode;
          },
          { timeout: 5000 },
        )
        .toBe(200);
    },
  );

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'finds a listening connection cut without a word, and remembers nothing until it listens again',
    async () => {
      const listener = sql`select pid from pg_stat_activity where application_name = ${AUTH_LISTENER} and datname = current_database()`;
      const [{ pid }] = (await queryRows<{ pid: number }>(t.db, listener)) as [{ pid: number }];
      const email = 'cut-off@example.test';
      const client = await t.signedIn(1, email);
      expect((await client.get('/api/me')).statusCode).toBe(200);
      // the listening connection's server process stops answering, as behind a NAT that dropped it
      process.kill(pid, 'SIGSTOP');
      try {
        // a new one is opened once the heartbeat goes unanswered
        await expect
          .poll(async () => (await queryRows<{ pid: number }>(t.db, listener)).some((r) => r.pid !== pid), {
            timeout: 3 * LISTENER_HEARTBEAT_MS,
            interval: 200,
          })
          .toBe(true);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      // what was remembered was forgotten when it was found lost
      await endUnheard(t.db, email);
      expect((await client.get('/api/me')).statusCode).toBe(401);
    },
    30_000,
  );
});
