import { maintainPositionPartitions, type MaintainPositionPartitionsOptions } from '../core/visibility/position-partitions.repository.js';
import { dialectOf, type Db } from '../db/create-db.js';

export interface PartitionLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface PositionPartitionSchedule {
  /** Stops the hourly pass and waits for one in flight. */
  stop(): Promise<void>;
}

export interface StartPositionPartitionsOptions extends MaintainPositionPartitionsOptions {
  db: Db;
  logger: PartitionLogger;
  intervalMs?: number;
}

/**
 * For `npm start` and `npm run worker`: one pass now (awaited, so today's partition exists
 * before the process serves), then one an hour. A failed pass is logged as a warning and
 * retried by the next one; it never stops the process. Nothing is scheduled on SQLite.
 */
export async function startPositionPartitions(options: StartPositionPartitionsOptions): Promise<PositionPartitionSchedule> {
  if (dialectOf(options.db) !== 'postgres') return { stop: async () => {} };
  const { db, logger, intervalMs = 3_600_000, ...maintain } = options;
  let inFlight: Promise<void> | undefined;
  const pass = () => {
    inFlight ??= maintainPositionPartitions(db, maintain)
      .then((summary) => {
        if (summary.created.length || summary.dropped.length || summary.moved || summary.deleted) {
          logger.info({ ...summary, retentionDays: maintain.retentionDays }, 'position partitions maintained');
        }
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'position partition maintenance failed; retrying at the next pass'))
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
  await pass();
  const timer = setInterval(() => void pass(), intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}
