import type { Clock } from '../core/clock.js';
import { pruneFeedEvents } from '../core/events/feed.repository.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import type { Db } from '../db/create-db.js';
import { startPeriodicPass, type PassLogger, type PeriodicPass } from './periodic-pass.js';

/** How long the events feed keeps an event (docs/api-rules.md#events-feed). */
export const EVENT_RETENTION_DAYS = 30;

/**
 * Deletes the events older than 30 days, in batches of `batchSize` (one short transaction
 * each), oldest position first, never one the dispatcher has not fanned out: pruning stops
 * at it until it has been. Passes in several processes are harmless: each batch deletes by a
 * range of positions and records the same horizon. Answers how many it deleted.
 */
export async function pruneEvents(db: Db, options: { clock: Clock; batchSize?: number }): Promise<number> {
  const before = formatStoredDateTime(options.clock.now().getTime() - EVENT_RETENTION_DAYS * 24 * 3600_000);
  const batchSize = options.batchSize ?? 1000;
  let deleted = 0;
  for (;;) {
    const count = await pruneFeedEvents(db, before, batchSize);
    deleted += count;
    if (count < batchSize) return deleted;
  }
}

/**
 * For `npm start` and `npm run worker`: a pass every 10 minutes. An event may outlive its 30
 * days by that long; a cursor is 410 only once its events are actually gone.
 */
export function startEventRetention(options: { db: Db; clock: Clock; logger: PassLogger; intervalMs?: number }): PeriodicPass {
  return startPeriodicPass({
    pass: () => pruneEvents(options.db, { clock: options.clock }),
    intervalMs: options.intervalMs ?? 10 * 60_000,
    logger: options.logger,
    done: { field: 'deleted', message: 'events past retention deleted' },
    failed: 'event retention failed; retrying at the next pass',
  });
}
