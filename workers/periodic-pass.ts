export interface PassLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface PeriodicPass {
  /** Stops the schedule and waits for a pass in flight. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` (never two at once in this process), logging what a pass did
 * when it counted something and a failure as a warning: the next pass retries. The jobs of
 * `npm start` and `npm run worker` (tender expiry, idempotency-key expiry, event retention).
 */
export function startPeriodicPass(options: {
  pass: () => Promise<number>;
  intervalMs: number;
  logger: PassLogger;
  /** The log of a pass that counted something: the count's name and the message. */
  done: { field: string; message: string };
  failed: string;
}): PeriodicPass {
  let inFlight: Promise<void> | undefined;
  const run = () => {
    inFlight ??= options
      .pass()
      .then((count) => {
        if (count > 0) options.logger.info({ [options.done.field]: count }, options.done.message);
      })
      .catch((error: unknown) => options.logger.warn({ err: error }, options.failed))
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
