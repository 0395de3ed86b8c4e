import type { Db } from '../../db/create-db.js';
import type { AssetPositionColumns } from '../../db/tables/asset-positions.js';
import { refreshLiveEtas, type LiveEtaUpdate } from '../trips/trip-etas.js';
import { appendPositionHistory, holdLatestPosition } from './position.repository.js';

/**
 * Group commit for positions. A telematics feed posts thousands of small readings a second;
 * one transaction each spends most of its time beginning and committing (and, on Postgres,
 * flushing the WAL), not writing. Readings that arrive while a batch is being written wait for
 * the next one, so the batch size follows the load: one reading at a time when traffic is
 * light, hundreds when it is heavy, with one commit for all of them.
 *
 * Nothing is acknowledged early: a request's promise settles only after the transaction holding
 * its reading has committed. Each reading keeps its own outcome: the held-position check is
 * still one guarded upsert per reading, in arrival order, so a stale reading is refused alone
 * and an older one never replaces a newer one. If a batch fails, its readings are written again
 * one transaction each, so one bad reading fails only its own request.
 */

export interface PendingPosition {
  row: AssetPositionColumns;
  /** Set when the reading's trip is InTransit: its Live ETAs follow in the same transaction. */
  liveEtas: LiveEtaUpdate | null;
}

interface Queued extends PendingPosition {
  resolve(held: boolean): void;
  reject(error: unknown): void;
}

/** Bound on readings per transaction (SQLite allows 32,766 bound values per statement; a history row has 20). */
const MAX_BATCH = 500;

export class PositionWriter {
  private queue: Queued[] = [];
  private scheduled = false;
  private writing = false;

  constructor(private readonly db: Db) {}

  /** Resolves after commit: true when the reading is now the held position, false when it was stale. */
  write(position: PendingPosition): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...position, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    // setImmediate: readings parsed in the same turn of the event loop share the first batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await this.writeBatch(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeBatch(batch: Queued[]): Promise<void> {
    let outcomes: boolean[];
    try {
      outcomes = await writePositions(this.db, batch);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const one of batch) await this.writeBatch([one]);
      return;
    }
    batch.forEach((queued, index) => queued.resolve(outcomes[index]!));
  }
}

/** One transaction: hold each reading that is newer than the held one, append those to history, refresh Live ETAs. */
async function writePositions(db: Db, batch: readonly PendingPosition[]): Promise<boolean[]> {
  return db.transaction().execute(async (trx) => {
    const outcomes: boolean[] = [];
    for (const position of batch) outcomes.push(await holdLatestPosition(trx, position.row));
    const held = batch.filter((_, index) => outcomes[index]);
    await appendPositionHistory(
      trx,
      held.map((position) => position.row),
    );
    for (const position of held) if (position.liveEtas) await refreshLiveEtas(trx, position.liveEtas);
    return outcomes;
  });
}

const writers = new WeakMap<Db, PositionWriter>();

/** The writer of a database: one per Kysely instance, so every caller's readings share its batches. */
export function positionWriterFor(db: Db): PositionWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = new PositionWriter(db);
    writers.set(db, writer);
  }
  return writer;
}
