import { ConfigError, loadConfig, type Config } from '../config.ts';

/** The configuration, or the process ends with the message naming every bad value. */
export function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * SIGTERM (an orchestrator, a deploy) or SIGINT (Ctrl-C) runs `stop` once and exits with the
 * code it gives; should stopping itself hang, the process exits 1 a few seconds past the grace.
 */
export function onStopSignals(graceSeconds: number, stop: (signal: string) => Promise<number>): void {
  let stopping = false;
  const handle = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), graceSeconds * 1000 + 5_000).unref();
    process.exit(await stop(signal));
  };
  process.on('SIGINT', () => void handle('SIGINT'));
  process.on('SIGTERM', () => void handle('SIGTERM'));
}
