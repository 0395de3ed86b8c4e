import type { Logger } from '../adapters/logger.js';

/**
 * Stops the process once on SIGTERM or SIGINT: runs `steps` in order (finish what is in
 * flight, close the database), or exits with 1 when they take longer than `graceMs`.
 */
export function stopOnSignals(logger: Logger, what: string, graceMs: number, steps: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `shutting down: finishing ${what}`);
    const force = setTimeout(() => process.exit(1), graceMs);
    force.unref();
    await steps();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
