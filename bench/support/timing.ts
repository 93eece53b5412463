// What bench/lists.ts and bench/request-stages.ts share: calls timed from a worker thread, and
// every statement a pg client sends timed from its call to its answer.
import { Worker } from 'node:worker_threads';
import pg from 'pg';

/** Now, in absolute ms: comparable between threads (the worker times its calls the same way). */
export const at = () => performance.timeOrigin + performance.now();

/** How long, between `from` and `to`, at least one of the spans was open (overlaps counted once). */
export function timeInside(spans: ReadonlyArray<readonly [number, number]>, from: number, to: number): number {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let inside = 0;
  let reached = from;
  for (const [start, end] of sorted) {
    const s = Math.max(start, reached);
    const e = Math.min(end, to);
    if (e > s) {
      inside += e - s;
      reached = e;
    }
  }
  return inside;
}

type Sent = { text?: string; values?: unknown[]; name?: string };
/**
 * Every statement of every pg.Client from now on: `each` is told of it as it is sent (the query,
 * and its values when given apart), and returns what to do with its [start, end] once answered,
 * or nothing to leave it untimed. Whether the statement is sent with a callback (as the pool
 * sends it) or not.
 */
export function timeStatements(
  each: (client: pg.Client, query: Sent) => ((start: number, end: number) => void) | undefined,
): void {
  const clientQuery = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const given = typeof args[0] === 'string' ? { text: args[0] } : (args[0] as Sent);
    const values = Array.isArray(args[1]) ? (args[1] as unknown[]) : given.values;
    const done = each(this, { ...given, ...(values ? { values } : {}) });
    if (!done) return clientQuery.apply(this, args);
    const start = at();
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (...a: unknown[]) => void;
      args[last] = (...a: unknown[]) => {
        done(start, at());
        callback(...a);
      };
      return clientQuery.apply(this, args);
    }
    const result = clientQuery.apply(this, args);
    if (result instanceof Promise) void result.finally(() => done(start, at())).catch(() => {});
    return result;
  } as typeof pg.Client.prototype.query;
}

export type Timed = { times: number[]; spans: Array<[number, number]>; status: number };
export type Calls = {
  port: number;
  path: string;
  headers: Record<string, string>;
  calls: number;
  /** how many in flight at a time */
  inFlight: number;
  /** stop after this long (and at least 10 calls); 0: never */
  untilMs?: number;
};

// `calls` GETs of one address on keep-alive connections, `inFlight` at a time, each timed in the
// worker from its request to its answer's end: a client elsewhere, whose own work is not the server's
const clientSource = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const get = (port, path, headers) => new Promise((resolve, reject) => {
  const t0 = performance.now();
  const req = http.request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
    res.on('data', () => {});
    res.on('end', () => resolve([res.statusCode, performance.now() - t0, performance.timeOrigin + t0]));
  });
  req.on('error', reject);
  req.end();
});
parentPort.on('message', async ({ port, path, headers, calls, inFlight, untilMs }) => {
  const times = [];
  const spans = [];
  let next = 0;
  let status = 200;
  const began = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < calls && !(untilMs && performance.now() - began > untilMs && next > 10)) {
      next++;
      const [code, ms, from] = await get(port, path, headers);
      if (code !== 200) status = code;
      times.push(ms);
      spans.push([from, from + ms]);
    }
  }));
  parentPort.postMessage({ times, spans, status });
});`;

/**
 * A client in a worker thread. `timed` answers each call's time (ms), its [from, to] (absolute
 * ms, as `at`), and a status other than 200 when any call had one; a request that fails ends the
 * worker, and `timed` with its error.
 */
export function startClient(): { timed(calls: Calls): Promise<Timed>; close(): Promise<number> } {
  const worker = new Worker(clientSource, { eval: true });
  worker.unref();
  return {
    timed: (calls) =>
      new Promise<Timed>((resolve, reject) => {
        worker.once('error', reject);
        worker.once('message', (answer: Timed) => {
          worker.off('error', reject);
          resolve(answer);
        });
        worker.postMessage({ untilMs: 0, ...calls });
      }),
    close: () => worker.terminate(),
  };
}
