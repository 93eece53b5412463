import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLogoPng } from '../db/seed/images.ts';
import { multipart } from '../../tests/support/multipart.ts';
import { createTestApp, type TestApp, type TestClient } from '../../tests/support/test-app.ts';

/**
 * Uploads over a real connection (inject hands the whole body over at once, so it cannot see
 * this): a refused file's rest is read and dropped, so that the next request on the same
 * kept-alive connection is answered.
 */
let t: TestApp;
let admin: TestClient;
let port: number;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const run = promisify(execFile);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  agent.destroy();
  await t.close();
});

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; body: string; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, socket: req.socket }));
      },
    );
    req.setTimeout(5_000, () => req.destroy(new Error(`${method} ${path} was not answered within 5 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

describe('a refused upload', () => {
  it('is answered, and the next request on the same connection is too', async () => {
    const charity = (await admin.post('/api/charities', { name: 'Keep-alive Trust', charity_type_id: 1 })).json() as {
      id: number;
    };
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers = { cookie, 'x-csrf-token': admin.csrfToken!, 'x-requested-with': 'XMLHttpRequest' };
    const cases: Array<[string, Buffer, string]> = [
      // refused on its first bytes, with 1 MB still to come
      [
        'not an image',
        Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0x00]), Buffer.alloc(1024 * 1024)]),
        'The charity logo must be a JPG or PNG image.',
      ],
      // a PNG's head, then past the 5 MB limit
      [
        'too large',
        Buffer.concat([makeLogoPng(10, 10, [1, 2, 3]), Buffer.alloc(6 * 1024 * 1024)]),
        'The charity logo must not be greater than 5 MB.',
      ],
    ];
    for (const [what, bytes, message] of cases) {
      const form = multipart({}, { field: 'charity_logo', filename: 'logo.png', contentType: 'image/png', bytes });
      const refused = await send(
        'POST',
        `/api/charities/${charity.id}/logo`,
        { ...headers, ...form.headers },
        form.payload,
      );
      expect(refused.status, what).toBe(422);
      expect(JSON.parse(refused.body).errors.charity_logo, what).toEqual([message]);
      const next = await send('GET', '/healthz', {});
      expect(next.status, what).toBe(200);
      // the same connection
      expect(next.socket, what).toBe(refused.socket);
    }
    const ok = multipart(
      {},
      { field: 'charity_logo', filename: 'logo.png', contentType: 'image/png', bytes: makeLogoPng(10, 10, [1, 2, 3]) },
    );
    expect(
      (await send('POST', `/api/charities/${charity.id}/logo`, { ...headers, ...ok.headers }, ok.payload)).status,
    ).toBe(200);
  });
});

/**
 * A client in a process of its own (in this one, the server would have read the body before the
 * client's next write came round): it sends `bytes` of JSON or form at once, and prints what came
 * back and any error on its connection until it closed.
 */
const CLIENT = `
import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
const [port, path, type, bytes, cookie, csrf] = process.argv.slice(1);
const body = Buffer.alloc(Number(bytes), 'x');
body.write(type === 'application/json' ? '{"note_text":"' : 'note_text=');
if (type === 'application/json') body.write('"}', body.length - 2);
let reply = null;
let error = null;
const req = http.request({ host: '127.0.0.1', port: Number(port), method: 'POST', path, agent: false, headers: { 'content-type': type, 'content-length': String(body.length), cookie, 'x-csrf-token': csrf, 'x-requested-with': 'XMLHttpRequest' } }, (res) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (text += c));
  res.on('end', () => (reply = { status: res.statusCode, body: text }));
});
req.on('error', (e) => (error = e.code ?? e.message));
req.on('close', () => console.log(JSON.stringify({ reply, error })));
req.end(body);
`;

describe('a body over the limit', () => {
  it('is answered 413 with its message, which the client reads whole, with no broken pipe', async () => {
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
      const { stdout } = await run(process.execPath, [
        '--input-type=module',
        '-e',
        CLIENT,
        String(port),
        '/api/bookingNotes',
        type,
        String(40 * 1024 * 1024),
        cookie,
        admin.csrfToken!,
      ]);
      const seen = JSON.parse(stdout) as { reply: { status: number; body: string } | null; error: string | null };
      expect(seen.error, type).toBeNull();
      expect(seen.reply?.status, type).toBe(413);
      expect(JSON.parse(seen.reply!.body), type).toEqual({ message: 'The request body is too large.' });
    }
    expect((await send('GET', '/healthz', {})).status).toBe(200);
  });
});
