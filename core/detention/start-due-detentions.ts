import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { appendDetentionEvent } from './detention-events.js';
import { claimStart, dueDetentions, toDetention } from './stop-detention.repository.js';

/**
 * The start pass of docs/api-rules.md#detention: a stop still there when its free time runs
 * out gets its Detention and `stop.detention.started`, once. Each stop is claimed with a
 * conditional update in its own transaction with its event, so passes in several processes
 * never emit one twice, and a pass that dies midway leaves the rest for the next one. Answers
 * how many it started.
 */
export async function startDueDetentions(db: Db, options: { clock: Clock; batchSize?: number }): Promise<number> {
  const batchSize = options.batchSize ?? 100;
  const now = formatStoredDateTime(options.clock.now());
  let started = 0;
  for (;;) {
    const due = await dueDetentions(db, now, batchSize);
    for (const stop of due) {
      const claimed = await db.transaction().execute(async (trx) => {
        const row = await claimStart(trx, stop, now);
        if (row) await appendDetentionEvent(trx, options.clock, 'stop.detention.started', row, toDetention(row));
        return row !== undefined;
      });
      if (claimed) started += 1;
    }
    if (due.length < batchSize) return started;
  }
}
