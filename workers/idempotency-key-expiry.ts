import type { Clock } from '../core/clock.js';
import type { Db } from '../db/create-db.js';
import { deleteExpiredKeys } from '../core/idempotency/request-idempotency-key.repository.js';
import { startPeriodicPass, type PassLogger, type PassSchedule } from './periodic-pass.js';

/**
 * For `npm start` and `npm run worker`: deletes Idempotency-Keys past their 24 hours, every 10
 * minutes. Only storage depends on it: an expired key is treated as new when it is used again,
 * whether or not a pass has deleted it. Passes in several processes delete the same rows
 * harmlessly. A failed pass is logged and retried by the next one.
 */
export function startIdempotencyKeyExpiry(options: { db: Db; clock: Clock; logger: PassLogger; intervalMs?: number }): PassSchedule {
  return startPeriodicPass({
    pass: () => deleteExpiredKeys(options.db, options.clock.now()),
    intervalMs: options.intervalMs ?? 10 * 60_000,
    logger: options.logger,
    done: 'expired idempotency keys deleted',
    failed: 'idempotency key expiry failed',
  });
}
