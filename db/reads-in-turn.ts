import { setImmediate as nextTurn } from 'node:timers/promises';
import { dialectOf, type Db } from './create-db.js';

type Reads<T extends readonly unknown[]> = { [K in keyof T]: () => Promise<T[K]> };

/**
 * Independent reads of one answer (a list page's stops, references, line items...), run so that
 * other requests are not held up behind all of them.
 *
 * On Postgres they run side by side, each on its own pool connection, as `Promise.all` would.
 * On SQLite better-sqlite3 runs a statement synchronously, so a page's statements, run back to
 * back, hold the event loop for their whole sum: every request that arrives meanwhile (a
 * position post, the position feed's 50 ms target) waits for the page to finish. There they run
 * one after the other, each after a turn of the event loop (setImmediate), so the requests
 * queued meanwhile are served between the statements, and the longest wait is one statement.
 * The page itself pays for the requests it lets through. Inside a transaction (a trip write
 * reading the trip back) they run back to back: the transaction holds SQLite's one connection,
 * so the requests let through would only queue for it while the write waited for them.
 */
export async function readsInTurn<T extends readonly unknown[]>(db: Db, ...reads: Reads<T>): Promise<T> {
  if (!takesTurns(db)) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) {
    await nextTurn();
    results.push(await read());
  }
  return results as unknown as T;
}

/** SQLite outside a transaction: where a turn of the event loop lets the requests queued meanwhile through. */
const takesTurns = (db: Db) => dialectOf(db) === 'sqlite' && !db.isTransaction;

/**
 * One turn of the event loop on SQLite outside a transaction (nothing on Postgres, whose
 * statements wait on the network and turn it anyway): between the stages of a write (its reads,
 * its transaction, its answer), so what arrived meanwhile waits for one stage, not for all of
 * them. A write transaction is one stage: it holds the one connection throughout.
 */
export async function turnBetweenStages(db: Db): Promise<void> {
  if (takesTurns(db)) await nextTurn();
}
