/**
 * In-process wake-ups of the events feed's long polls (docs/api-rules.md#events-feed): every
 * transaction that appended an event announces it once it has committed, so a waiting
 * GET /events in this process reads again at once. Other processes' events are found by the
 * waiters' own polling; a wake-up is only a hint to read now, never the data.
 */
const waiters = new Set<() => void>();

/** Called after a commit that appended events (outbox.repository.ts, through db/after-commit.ts). */
export function announceEvents(): void {
  for (const wake of [...waiters]) wake();
}

/** What a waiting request watches to stop early: its client's connection. */
export interface Disconnection {
  readonly destroyed: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * Resolves at the first of: an event announced in this process, `ms` elapsed, the client
 * disconnecting. Holds no database connection and nothing but a timer and a listener.
 */
export function nextFeedChange(ms: number, connection?: Disconnection): Promise<void> {
  return new Promise((resolve) => {
    if (connection?.destroyed) return resolve();
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      connection?.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    waiters.add(done);
    connection?.once('close', done);
  });
}
