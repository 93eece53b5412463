import http from 'node:http';
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

function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; body: string; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, socket: req.socket }));
    });
    req.setTimeout(5_000, () => req.destroy(new Error(`${method} ${path} was not answered within 5 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

describe('a refused upload', () => {
  it('is answered, and the next request on the same connection is too', async () => {
    const charity = (await admin.post('/api/charities', { name: 'Keep-alive Trust', charity_type_id: 1 })).json() as { id: number };
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers = { cookie, 'x-csrf-token': admin.csrfToken!, 'x-requested-with': 'XMLHttpRequest' };
    const cases: Array<[string, Buffer, string]> = [
      // refused on its first bytes, with 1 MB still to come
      ['not an image', Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0x00]), Buffer.alloc(1024 * 1024)]), 'The charity logo must be a JPG or PNG image.'],
      // a PNG's head, then past the 5 MB limit
      ['too large', Buffer.concat([makeLogoPng(10, 10, [1, 2, 3]), Buffer.alloc(6 * 1024 * 1024)]), 'The charity logo must not be greater than 5 MB.'],
    ];
    for (const [what, bytes, message] of cases) {
      const form = multipart({}, { field: 'charity_logo', filename: 'logo.png', contentType: 'image/png', bytes });
      const refused = await send('POST', `/api/charities/${charity.id}/logo`, { ...headers, ...form.headers }, form.payload);
      expect(refused.status, what).toBe(422);
      expect(JSON.parse(refused.body).errors.charity_logo, what).toEqual([message]);
      const next = await send('GET', '/healthz', {});
      expect(next.status, what).toBe(200);
      // the same connection
      expect(next.socket, what).toBe(refused.socket);
    }
    const ok = multipart({}, { field: 'charity_logo', filename: 'logo.png', contentType: 'image/png', bytes: makeLogoPng(10, 10, [1, 2, 3]) });
    expect((await send('POST', `/api/charities/${charity.id}/logo`, { ...headers, ...ok.headers }, ok.payload)).status).toBe(200);
  });
});
