import type { Clock } from '../core/clock.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import { appendTenderEvent } from '../core/tenders/tender-events.js';
import { claimExpiry, dueForExpiry, toTender } from '../core/tenders/tender.repository.js';
import type { Db } from '../db/create-db.js';
import { startPeriodicPass, type PassLogger, type PassSchedule } from './periodic-pass.js';

/**
 * The expiry of tenders (docs/api-rules.md#tenders): a Pending tender past RespondBy already reads
 * Expired; this pass writes it and emits `tender.expired`, once per tender. Each tender is
 * claimed with a conditional update in its own transaction with its event, so passes in several
 * processes (workers on one Postgres database) never emit one twice, and a pass that dies
 * midway leaves the rest for the next one.
 */
export async function expireTenders(db: Db, options: { clock: Clock; batchSize?: number }): Promise<number> {
  const now = formatStoredDateTime(options.clock.now());
  let expired = 0;
  for (;;) {
    const due = await dueForExpiry(db, now, options.batchSize ?? 100);
    for (const tender of due) {
      const claimed = await db.transaction().execute(async (trx) => {
        const row = await claimExpiry(trx, tender, now);
        if (row) await appendTenderEvent(trx, options.clock, { tenantId: row.tenant_id, type: 'tender.expired', tender: toTender(row, now) });
        return row !== undefined;
      });
      if (claimed) expired += 1;
    }
    if (due.length < (options.batchSize ?? 100)) return expired;
  }
}

/**
 * For `npm start` and `npm run worker`: a pass every 15 seconds, well inside the 60 seconds
 * docs/api-rules.md#tenders allows after RespondBy. A failed pass is logged and retried by the next one.
 */
export function startTenderExpiry(options: { db: Db; clock: Clock; logger: PassLogger; intervalMs?: number }): PassSchedule {
  return startPeriodicPass({
    pass: () => expireTenders(options.db, { clock: options.clock }),
    intervalMs: options.intervalMs ?? 15_000,
    logger: options.logger,
    done: 'tenders expired',
    failed: 'tender expiry failed',
  });
}
