import type { Logger } from '../adapters/logger.js';

/** Stops the process once: why (a signal's name or another reason) and the exit code it ends with. */
export type Stop = (reason: string, exitCode?: number) => Promise<void>;

/**
 * Stops the process once on SIGTERM or SIGINT: runs `steps` in order (finish what is in
 * flight, close the database), or exits with 1 when they take longer than `graceMs`. The
 * returned `stop` does the same for other reasons (a cluster worker whose primary is gone,
 * a primary whose workers keep dying).
 */
export function stopOnSignals(logger: Logger, what: string, graceMs: number, steps: () => Promise<void>): Stop {
  let stopping = false;
  const stop: Stop = async (reason, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal: reason }, `shutting down: finishing ${what}`);
    const force = setTimeout(() => process.exit(1), graceMs);
    force.unref();
    await steps();
    logger.info('stopped');
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  return stop;
}
