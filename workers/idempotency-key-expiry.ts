import type { Clock } from '../core/clock.js';
import type { Db } from '../db/create-db.js';
import { deleteExpiredKeys } from '../core/idempotency/request-idempotency-key.repository.js';

export interface IdempotencyKeyExpiryLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface IdempotencyKeyExpirySchedule {
  /** Stops the pass and waits for one in flight. */
  stop(): Promise<void>;
}

/**
 * For `npm start` and `npm run worker`: deletes Idempotency-Keys past their 24 hours, every 10
 * minutes. Only storage depends on it: an expired key is treated as new when it is used again,
 * whether or not a pass has deleted it. Passes in several processes delete the same rows
 * harmlessly. A failed pass is logged and retried by the next one.
 */
export function startIdempotencyKeyExpiry(options: {
  db: Db;
  clock: Clock;
  logger: IdempotencyKeyExpiryLogger;
  intervalMs?: number;
}): IdempotencyKeyExpirySchedule {
  let inFlight: Promise<void> | undefined;
  const pass = () => {
    inFlight ??= deleteExpiredKeys(options.db, options.clock.now())
      .then((count) => {
        if (count > 0) options.logger.info({ deleted: count }, 'expired idempotency keys deleted');
      })
      .catch((error: unknown) => options.logger.warn({ err: error }, 'idempotency key expiry failed; retrying at the next pass'))
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
  const timer = setInterval(() => void pass(), options.intervalMs ?? 10 * 60_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}
