export interface PassLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface PassSchedule {
  /** Stops the pass and waits for one in flight. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs`, never two at once in this process; a pass that counts
 * something logs it, a failed one is logged and retried by the next. Each pass must be safe
 * beside another process's (the worker and `npm start` both run them).
 */
export function startPeriodicPass(options: {
  pass: () => Promise<number>;
  intervalMs: number;
  logger: PassLogger;
  /** What the count of a pass is, for the log: `tenders expired`. */
  done: string;
  failed: string;
}): PassSchedule {
  let inFlight: Promise<void> | undefined;
  const run = () => {
    inFlight ??= options
      .pass()
      .then((count) => {
        if (count > 0) options.logger.info({ count }, options.done);
      })
      .catch((error: unknown) => options.logger.warn({ err: error }, `${options.failed}; retrying at the next pass`))
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
  const timer = setInterval(() => void run(), options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}
