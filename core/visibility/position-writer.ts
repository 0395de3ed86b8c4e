import { plannedOnce, type Db } from '../../db/create-db.js';
import { GroupCommit, type Refusal } from '../shared/group-commit.js';
import { observations } from '../shared/observations.js';
import { checkPositions, type AcceptedPosition, type PositionRequest } from './check-positions.js';
import { commitPositions, type PositionOutcome } from './commit-positions.js';

/** Bound on readings per batch (SQLite allows 32,766 bound values per statement; a history row has 20). */
const MAX_BATCH = 500;

/**
 * Position ingestion in batches. A telematics feed posts thousands of small readings a second;
 * handled one by one, each spends most of its time on round trips and commits, not on work.
 * Readings that arrive while a batch is being written wait for the next one, so the batch size
 * follows the load: one reading at a time when traffic is light, hundreds when it is heavy.
 *
 * Two stages of plain data, overlapped: while one batch's transaction commits, the next batch's
 * lookups run (`checkPositions`, on Postgres on another pooled connection). Transactions
 * (`commitPositions`) take turns, in arrival order, so batches never wait on each other's row
 * locks; each round trip in one is time the writer waits (issue 19). On Postgres a batch's
 * transaction is opened while the one before it commits (`openBeforeTurn`: its connection is
 * taken from the pool off that path; BEGIN itself goes out with the held-position statement,
 * db/postgres-statement-cache.ts), and a transaction hands the turn on once its held-position
 * statement has answered (`release`): the next batch waits only for unfinished batches it
 * shares an asset, a trip or a load with (commit-positions.ts), and otherwise goes while they
 * write their Live ETAs and commit. A batch costs a fixed number of statements:
 * one asset lookup and one trip lookup (one statement for both on Postgres), then one
 * transaction: the held-position upsert, the history insert and the reads the next steps need
 * (the chosen trips' loads, their share state, the trips' stops), one statement on Postgres;
 * the Live ETAs with the trips' version bump, one statement on Postgres; the tracking shares
 * (statements only when something is due); and one commit for all of them.
 *
 * On Postgres the writer runs on connections of its own whose statements are planned once
 * (`plannedOnce` of db/create-db.ts, made by `positionWriterFor`): they take the batch's
 * readings as arrays, and a plan made for each batch's lengths cost about as much as running them.
 *
 * Every reading keeps its own outcome. Nothing is acknowledged early: a reading's promise
 * settles after the transaction holding it commits. If a batch fails, its readings are
 * processed again one by one, so one bad reading fails only its own request.
 */
export class PositionWriter {
  private readonly group: GroupCommit<PositionRequest, PositionOutcome, (AcceptedPosition | Refusal)[]>;

  constructor(readonly db: Db) {
    this.group = new GroupCommit({
      maxBatch: MAX_BATCH,
      serial: true,
      retryAlone: true,
      check: (batch) => {
        observations().positionBatch(batch.length);
        return checkPositions(db, batch);
      },
      openBeforeTurn: true,
      commit: (checked, turn, release) => commitPositions(db, checked, turn, release),
    });
  }

  record(request: PositionRequest): Promise<PositionOutcome> {
    return this.group.push(request);
  }
}

const writers = new WeakMap<Db, PositionWriter>();

/**
 * The writer of a database: one per Kysely instance, so every caller's readings share its
 * batches. On Postgres it has connections of its own whose statements are planned once
 * (`plannedOnce`): a batch's statements have one good plan whatever its size.
 */
export function positionWriterFor(db: Db): PositionWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = new PositionWriter(plannedOnce(db));
    writers.set(db, writer);
  }
  return writer;
}
