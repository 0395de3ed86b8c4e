import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../adapters/logger.js';
import { isListeningMessage } from './cluster-messages.js';

/** More unexpected exits than this within CRASH_WINDOW_MS and the primary stops restarting. */
const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 60_000;
/** A pause before each restart, so a worker that dies at once does not spin the CPU. */
const RESTART_DELAY_MS = 1_000;

export interface ApiWorkersOptions {
  count: number;
  logger: Logger;
  /** Called once when workers keep dying (the crash-loop brake): the primary stops with exit 1. */
  onGiveUp(reason: string): void;
}

/**
 * The primary's API workers (node:cluster): forks them, restarts one that dies unexpectedly
 * (with a brake: MAX_CRASHES within a minute and it gives up), and stops them on shutdown.
 * Each worker drains its own in-flight requests on SIGTERM (bin/api-worker.ts).
 */
export class ApiWorkers {
  private readonly live = new Set<Worker>();
  private readonly crashes: number[] = [];
  private startedUp = false;
  private stopping = false;
  private allExited: (() => void) | null = null;

  constructor(private readonly options: ApiWorkersOptions) {}

  /**
   * Forks the workers and resolves with the URLs they share once every one listens. A worker
   * that exits before then fails the start (a port in use, a bad setting: restarting would not help).
   */
  start(): Promise<{ apiUrl: string; authUrl: string }> {
    return new Promise((resolve, reject) => {
      const listening = new Set<number>();
      cluster.on('message', (worker, message) => {
        if (this.startedUp || !isListeningMessage(message)) return;
        listening.add(worker.id);
        if (listening.size < this.options.count) return;
        this.startedUp = true;
        resolve({ apiUrl: message.apiUrl, authUrl: message.authUrl });
      });
      cluster.on('exit', (worker, code, signal) => {
        this.live.delete(worker);
        if (this.stopping) {
          if (this.live.size === 0) this.allExited?.();
        } else if (!this.startedUp) {
          this.killAll();
          reject(new Error(`an API worker exited during start-up (${exitOf(code, signal)})`));
        } else {
          this.crashed(worker, code, signal);
        }
      });
      for (let i = 0; i < this.options.count; i++) this.fork();
    });
  }

  /** SIGTERM to every worker; resolves once all have exited (each finishes its requests first). */
  stop(): Promise<void> {
    this.stopping = true;
    if (this.live.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.allExited = resolve;
      this.killAll();
    });
  }

  /** The pids of the workers running now. */
  pids(): number[] {
    return [...this.live].map((worker) => worker.process.pid!).filter(Boolean);
  }

  private fork(): void {
    this.live.add(cluster.fork());
  }

  private killAll(): void {
    for (const worker of this.live) worker.process.kill('SIGTERM');
  }

  private crashed(worker: Worker, code: number | null, signal: string | null): void {
    const now = Date.now();
    this.crashes.push(now);
    while (this.crashes.length > 0 && this.crashes[0]! <= now - CRASH_WINDOW_MS) this.crashes.shift();
    const exit = { pid: worker.process.pid, code, signal };
    if (this.crashes.length >= MAX_CRASHES) {
      this.options.logger.fatal(exit, `API workers keep dying (${this.crashes.length} within ${CRASH_WINDOW_MS / 1000} s): stopping`);
      this.options.onGiveUp('workers keep dying');
      return;
    }
    this.options.logger.error(exit, 'an API worker died unexpectedly; starting another');
    setTimeout(() => {
      if (!this.stopping) this.fork();
    }, RESTART_DELAY_MS);
  }
}

function exitOf(code: number | null, signal: string | null): string {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}
