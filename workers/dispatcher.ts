import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { recordEdiDeliveryOutcomes } from '../core/edi/delivery-outcomes.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import { assignFeedPositions } from '../core/events/feed.repository.js';
import { attemptDelivery } from '../core/webhooks/attempt-delivery.js';
import { AttemptLog } from '../core/webhooks/attempt-log.js';
import { claimDue, dropDeliveries, type Delivery } from '../core/webhooks/delivery.repository.js';
import { loadTargets } from '../core/webhooks/delivery-targets.js';
import { fanOut } from '../core/webhooks/fan-out.js';
import type { Db } from '../db/create-db.js';

export interface DispatcherLogger {
  error(details: object, message: string): void;
}

export interface DispatcherOptions {
  db: Db;
  config: Config;
  clock: Clock;
  logger?: DispatcherLogger;
  /** Attempts in flight at once (each waits at most the webhook timeout). */
  concurrency?: number;
  /** Outbox entries fanned out per transaction. */
  fanOutBatch?: number;
  /** How long an idle loop waits before looking for work again. */
  pollIntervalMs?: number;
}

export interface TickResult {
  /** Outbox entries turned into deliveries. */
  fannedOut: number;
  /** Delivery attempts made (skipped turns included). */
  attempted: number;
}

/**
 * The webhook and visibility dispatcher (ARCHITECTURE "workers/"): fans outbox entries out to
 * deliveries, then sends due deliveries (events, and outbound EDI documents, whose outcome it
 * writes back on the document), signed, with retries, up to `concurrency` at once.
 * Everything it knows lives in the database, so any number of dispatchers (the API process's
 * and `npm run worker`s) can run side by side and a restarted one carries on where a killed
 * one stopped.
 */
export class Dispatcher {
  private readonly db: Db;
  private readonly config: Config;
  private readonly clock: Clock;
  private readonly logger: DispatcherLogger | undefined;
  private readonly concurrency: number;
  private readonly fanOutBatch: number;
  private readonly pollIntervalMs: number;
  private readonly log: AttemptLog;
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** The last claim took as many deliveries as there were free slots: more may be due. */
  private slotsWereTheLimit = false;

  constructor(options: DispatcherOptions) {
    this.db = options.db;
    this.config = options.config;
    this.clock = options.clock;
    this.logger = options.logger;
    this.concurrency = options.concurrency ?? 64;
    this.fanOutBatch = options.fanOutBatch ?? 200;
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.log = new AttemptLog(this.db, this.clock, this.config, [recordEdiDeliveryOutcomes]);
  }

  /** Runs until `stop()`. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming work and waits for the attempts in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * One full pass at the clock's current time, for tests: fans out every pending outbox entry,
   * then attempts every due delivery until none is left (retries wait for the clock to move).
   */
  async tick(): Promise<TickResult> {
    const result: TickResult = { fannedOut: await this.fanOutAll(), attempted: 0 };
    for (;;) {
      const claimed = await claimDue(this.db, this.clock, this.config, this.concurrency);
      if (claimed.length === 0) return result;
      await Promise.all(await this.attemptAll(claimed));
      result.attempted += claimed.length;
    }
  }

  private async fanOutAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const taken = await fanOut(this.db, formatStoredDateTime(this.clock.now()), this.fanOutBatch);
      total += taken;
      if (taken < this.fanOutBatch) break;
    }
    // Positions the events for the feed too, so a long poll in another process finds them positioned.
    if (total > 0) await assignFeedPositions(this.db);
    return total;
  }

  /**
   * Starts an attempt of each claimed delivery; their receivers are read once for the batch,
   * and the deliveries whose receiver was deleted are dropped together.
   */
  private async attemptAll(claimed: Delivery[]): Promise<Promise<void>[]> {
    const targetOf = await loadTargets(this.db, this.config, claimed, this.clock.now());
    const gone = claimed.filter((delivery) => targetOf(delivery) === null);
    const started: Promise<void>[] = [];
    if (gone.length > 0) {
      started.push(dropDeliveries(this.db, gone).catch((error: unknown) => this.logger?.error({ err: error }, 'dropping deliveries to deleted receivers failed')));
    }
    for (const delivery of claimed) {
      const target = targetOf(delivery);
      if (target === null) continue;
      started.push(
        attemptDelivery(this.log, this.config, delivery, target).catch((error: unknown) => {
          // The lease runs out and the delivery is attempted again: nothing is lost.
          this.logger?.error({ err: error, deliveryId: delivery.id }, 'webhook delivery attempt failed unexpectedly');
        }),
      );
    }
    return started;
  }

  private async run(): Promise<void> {
    let lastFanOut = 0;
    let outboxBacklog = true;
    while (this.running) {
      let claimedFull = false;
      try {
        // The outbox is looked at once per poll interval, or at once while it has a backlog.
        if (outboxBacklog || Date.now() - lastFanOut >= this.pollIntervalMs) {
          lastFanOut = Date.now();
          outboxBacklog = (await this.fanOutAll()) > 0;
        }
        // Claim in batches (a quarter of the slots at least) rather than one slot at a time.
        const free = this.concurrency - this.inFlight.size;
        if (free > 0 && (free >= this.concurrency / 4 || this.inFlight.size === 0)) {
          const claimed = await claimDue(this.db, this.clock, this.config, free);
          for (const attempt of await this.attemptAll(claimed)) {
            const tracked: Promise<void> = attempt.finally(() => {
              this.inFlight.delete(tracked);
              // A freed slot is worth a claim only when the slots held work back. Otherwise nothing
              // more is due before the next poll brings new deliveries or retries: a claim per
              // finished attempt was a transaction per delivery, beside the API's own requests.
              if (this.slotsWereTheLimit) this.wake?.();
            });
            this.inFlight.add(tracked);
          }
          claimedFull = claimed.length === free;
          this.slotsWereTheLimit = claimedFull;
        }
      } catch (error) {
        this.logger?.error({ err: error }, 'webhook dispatcher pass failed; retrying');
      }
      if (!this.running) break;
      // More is due and slots are free: go on. Otherwise wait for the poll or a finished attempt.
      const free = this.concurrency - this.inFlight.size;
      if ((claimedFull || outboxBacklog) && free >= this.concurrency / 4) continue;
      await this.sleep(this.pollIntervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}
