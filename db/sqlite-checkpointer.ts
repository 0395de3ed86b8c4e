import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * WAL checkpoints off the event loop. better-sqlite3 is synchronous, and SQLite runs an
 * automatic checkpoint inside the commit that takes the WAL past 1,000 pages: that commit then
 * copies 4 MB into the database file and fsyncs it, on the event loop, and every request of the
 * process waits. Under a position feed that was the whole tail: with the big tenant of
 * `npm run bench -- lists`, the feed alone had p99 52 ms with automatic checkpoints and 16 ms
 * without (947 against 1,597 accepted/s).
 *
 * So a worker thread with a connection of its own runs a PASSIVE checkpoint every
 * CHECKPOINT_EVERY_MS (PASSIVE never waits on, and never blocks, the main connection's readers
 * or writers; what it cannot copy yet it copies next time), and the main connection keeps an
 * automatic checkpoint only as a safety net far above what the worker lets the WAL reach, should
 * the worker ever stop. Durability is unchanged: a commit is in the WAL either way.
 *
 * A PASSIVE checkpoint copies pages but never starts the WAL over: SQLite starts the log over
 * only when a write begins with every frame already copied, and under a steady feed a commit
 * lands while every checkpoint runs. The WAL grew without end: 421 MB after 20 s of the position
 * bench, and it would have grown all day at a carrier. So once a checkpoint leaves the WAL at
 * RESTART_AT_PAGES or more, the worker says so, and the main connection, right after its next
 * commit (`afterCommit`: no transaction of its own open, the worker's copy just done), runs a
 * RESTART checkpoint itself: it copies the few frames written since and makes the next write
 * start the log over. It never waits: should the worker be checkpointing at that moment, it
 * tries again after the next commit.
 *
 * That restart holds the event loop while it syncs the WAL and the database file, and a sync
 * waits for whatever the feed has written and not yet flushed: 45 to 100 ms at the big tenant
 * of `npm run bench -- writes` (about 15 KB of WAL a reading). At 32 MiB it came about once a
 * second under the feed, 27 stalls in 33 s, and every reading in flight waited on each: they
 * were the feed's p99. At 128 MiB they are four times rarer (5 in the same run).
 *
 * The worker's code is evaluated from a string, so it runs the same from the TypeScript sources
 * (tests) and the compiled build.
 */
const CHECKPOINT_EVERY_MS = 200;

/** Pages (4 KiB): a WAL this long is started over (128 MiB). */
export const RESTART_AT_PAGES = 32_768;

/** Pages (4 KiB): the main connection checkpoints itself only if the WAL reaches 400 MiB. */
export const SAFETY_NET_PAGES = 100_000;

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.path);
db.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
    if (passive && passive.log >= workerData.restartAtPages) parentPort.postMessage('restart');
  } catch {
    // Busy or locked this time: the next turn tries again, and the safety net is there.
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Call after each commit of the main connection: starts the WAL over when the worker found it long. */
  afterCommit(): void;
  /** Stops the worker: it closes its connection and exits; the caller need not wait for it. */
  stop(): void;
}

/**
 * Starts the checkpointing worker of a WAL database file whose main connection is `database`.
 * `restartAtPages`: RESTART_AT_PAGES unless a test wants fewer.
 */
export function startCheckpointer(database: SQLite.Database, path: string, restartAtPages = RESTART_AT_PAGES): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, module, everyMs: CHECKPOINT_EVERY_MS, restartAtPages } });
  // Never the reason a process stays alive; a failure leaves the safety net in charge.
  worker.unref();
  worker.on('error', () => {});
  let restartDue = false;
  worker.on('message', () => (restartDue = true));
  let stopped = false;
  return {
    afterCommit() {
      if (!restartDue || stopped) return;
      const timeout = database.pragma('busy_timeout', { simple: true }) as number;
      database.pragma('busy_timeout = 0');
      try {
        const [result] = database.pragma('wal_checkpoint(RESTART)') as { busy: number }[];
        if (result && result.busy === 0) restartDue = false;
      } catch {
        // Locked this time (the worker's checkpoint): after the next commit.
      } finally {
        database.pragma(`busy_timeout = ${timeout}`);
      }
    },
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage('stop');
    },
  };
}
