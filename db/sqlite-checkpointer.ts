import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

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
 * The worker's code is evaluated from a string, so it runs the same from the TypeScript sources
 * (tests) and the compiled build.
 */
const CHECKPOINT_EVERY_MS = 200;

/** Pages (4 KiB): the main connection checkpoints itself only if the WAL reaches 400 MiB. */
export const SAFETY_NET_PAGES = 100_000;

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.path);
db.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
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
  /** Stops the worker: it closes its connection and exits; the caller need not wait for it. */
  stop(): void;
}

/** Starts the checkpointing worker of a WAL database file. */
export function startCheckpointer(path: string): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, module, everyMs: CHECKPOINT_EVERY_MS } });
  // Never the reason a process stays alive; a failure leaves the safety net in charge.
  worker.unref();
  worker.on('error', () => {});
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage('stop');
    },
  };
}
