import type { FastifyInstance } from 'fastify';
import type { JobQueue } from '../jobs/queue.ts';

export type ShutdownParts = {
  /** the web server, when this process has one (the worker has none) */
  app?: FastifyInstance;
  jobs?: Pick<JobQueue, 'stop'>;
  database: { close(): Promise<void> };
  /** how long in-flight requests and the job in hand get (SHUTDOWN_GRACE_SECONDS) */
  graceMs: number;
  log?: (message: string) => void;
  /** told as soon as the server no longer accepts connections (main.ts prints it) */
  onStoppedListening?: () => void;
};

/**
 * Stops a process the way an orchestrator expects on SIGTERM: no new connections at once; the
 * requests in hand and the job in hand finish, both within the grace; then the database closes.
 * Resolves with the exit code: 0 when everything finished in time, 1 when something was cut.
 */
export async function shutDown(parts: ShutdownParts): Promise<number> {
  const log = parts.log ?? (() => {});
  const [httpClean, jobsClean] = await Promise.all([
    parts.app ? closeHttp(parts.app, parts.graceMs, log, parts.onStoppedListening) : true,
    parts.jobs
      ? parts.jobs.stop(parts.graceMs).then(
          () => true,
          (error: unknown) => {
            log(`the job queue did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
            return false;
          },
        )
      : true,
  ]);
  let dbClean = true;
  try {
    await parts.database.close();
  } catch (error) {
    log(`the database did not close cleanly: ${error instanceof Error ? error.message : String(error)}`);
    dbClean = false;
  }
  return httpClean && jobsClean && dbClean ? 0 : 1;
}

/**
 * The listening socket is closed first, at once (app.close() would run its hooks before), then
 * app.close() waits for the open connections. Node closes the connections idle at that moment
 * only: a keep-alive connection whose request finishes later would stay open until its keep-alive
 * timeout, so idle ones are closed as they appear. Past the grace, the rest are cut.
 */
async function closeHttp(
  app: FastifyInstance,
  graceMs: number,
  log: (message: string) => void,
  onStoppedListening?: () => void,
): Promise<boolean> {
  // the callback would only say when the last connection ended: app.close() below waits for that
  if (app.server.listening) app.server.close(() => {});
  onStoppedListening?.();
  const closed = app.close().then(() => 'closed' as const);
  const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  try {
    if ((await Promise.race([closed, late])) === 'closed') return true;
    log(`requests still open after ${Math.round(graceMs / 1000)} s: closing their connections`);
    app.server.closeAllConnections();
    await closed;
    return false;
  } finally {
    clearInterval(reaper);
    clearTimeout(timer);
  }
}
