import type { Clock } from '../core/clock.js';
import { startDueDetentions } from '../core/detention/start-due-detentions.js';
import type { Db } from '../db/create-db.js';
import { startPeriodicPass, type PassLogger, type PeriodicPass } from './periodic-pass.js';

/**
 * For `npm start` and `npm run worker`: the detention start pass (core/detention) every 15
 * seconds, well inside the 60 seconds docs/api-rules.md#detention allows after free time runs out.
 */
export function startDetentionStarts(options: { db: Db; clock: Clock; logger: PassLogger; intervalMs?: number }): PeriodicPass {
  return startPeriodicPass({
    pass: () => startDueDetentions(options.db, { clock: options.clock }),
    intervalMs: options.intervalMs ?? 15_000,
    logger: options.logger,
    done: { field: 'started', message: 'detentions started' },
    failed: 'detention start pass failed; retrying at the next pass',
  });
}
