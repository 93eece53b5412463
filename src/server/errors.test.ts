import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('error replies', () => {
  it('answers an unknown /api path with 404 JSON', async () => {
    const c = await t.signedIn(1);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await c.request({ method, url: '/api/no-such-thing' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not Found' });
    }
  });

  it('answers malformed JSON with 400 and no detail of the parser', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a'.repeat(2 * 1024 * 1024), password: 'x' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'The request body is too large.' });
  });

  it('never puts a stack trace in a reply', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<x/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.body).not.toMatch(/at .+\.(ts|js):\d+/);
    expect(Object.keys(res.json())).toEqual(['message']);
  });

  it('serves the OpenAPI description at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/login', '/api/countries', '/api/me']));
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});

describe('unexpected errors', () => {
  it('answer 500 "Server Error" and are logged with the request id, the detail only in the log', async () => {
    const { Writable } = await import('node:stream');
    const { buildApp } = await import('./app.ts');
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({ config: t.config, db: t.db, logger: { level: 'error', stream } });
    app.get('/boom', { config: { access: 'public' } }, async () => {
      throw new Error('database password is hunter2');
    });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/boom', headers: { 'x-request-id': 'req-42' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Server Error' });
    expect(res.body).not.toContain('hunter2');
    const logged = lines.map((l) => JSON.parse(l) as { reqId?: string; err?: { message?: string } });
    expect(logged.some((l) => l.reqId === 'req-42' && l.err?.message === 'database password is hunter2')).toBe(true);
    await app.close();
  });
});
