/**
 * Group commit: the items pushed in one turn of the event loop are written together, as one
 * batch, and each pusher's promise settles with its own item's result once its batch is
 * written. On a hot path (position readings, delivery attempts, rate-limit counters) most of a
 * write's cost is its round trips and its commit, not its rows, so a batch costs about what
 * one item would.
 *
 * Items and their callbacks wait in parallel arrays: pushing allocates nothing beyond the
 * pusher's promise.
 */

/** An item's own failure among a batch's results: its promise rejects with `error`, the rest of the batch is unaffected. */
export class Refusal {
  constructor(readonly error: unknown) {}
}

export interface GroupCommitOptions<Item, Result, Checked> {
  /** Most items a batch takes; later ones wait for the next batch. Unbounded when absent. */
  maxBatch?: number;
  /**
   * One commit in flight at a time: items arriving meanwhile gather for the next, larger batch
   * instead of a second transaction queueing behind the first one's row locks. Otherwise every
   * turn's batch commits at once.
   */
  serial?: boolean;
  /** With `serial`: a commit not settled after this many ms stops holding up the next (a database that never answers). */
  releaseAfterMs?: number;
  /**
   * With `serial`, a first stage for what needs no transaction (lookups): one batch at a time,
   * while the batch before it commits. Without it, `commit` is given the items themselves.
   */
  check?(items: Item[]): Promise<Checked>;
  /**
   * Writes a batch: one result per item in the batch's order (a `Refusal` for an item refused
   * alone), or nothing when every item's result is `undefined`. Throwing fails the whole batch.
   * With `openBeforeTurn`, `turn` settles when the commit before this one has (or released its
   * turn); otherwise it has already settled when `commit` is called.
   *
   * With `serial`, `release` hands the turn to the next batch before this one has committed:
   * for a commit whose remaining work cannot affect what the next batch reads or decides (on
   * Postgres, a transaction left with only its COMMIT: the next batch's statement then goes out
   * while it commits and waits on the row locks they share, instead of the commit's round trip
   * and the event loop's turn after it).
   */
  commit(checked: Checked, turn: Promise<void>, release: () => void): Promise<readonly (Result | Refusal)[] | void>;
  /**
   * With `check`: a checked batch's `commit` is called at once, while the commit before it is
   * still in flight, and must wait for `turn` before anything that may meet that commit's row
   * locks or needs its writes to be visible. Postgres opens its transaction meanwhile (BEGIN
   * takes no lock and, in READ COMMITTED, no snapshot), so the BEGIN round trip is off the
   * serial path. The next batch is still taken only once this one has its turn.
   */
  openBeforeTurn?: boolean;
  /** A failed batch of several items is tried again item by item (both stages), so a bad item fails only itself. */
  retryAlone?: boolean;
}

type CommitOf<Result> = (turn: Promise<void>, release: () => void) => Promise<readonly (Result | Refusal)[] | void>;

interface Batch<Item, Result> {
  items: Item[];
  resolves: ((result: Result) => void)[];
  rejects: ((error: unknown) => void)[];
}

export class GroupCommit<Item, Result = void, Checked = Item[]> {
  private items: Item[] = [];
  private resolves: ((result: Result) => void)[] = [];
  private rejects: ((error: unknown) => void)[] = [];
  private scheduled = false;
  /** A batch is in the check stage or waiting for the commit in flight. */
  private checking = false;
  /** The serial commit in flight, until it settles or is released. */
  private committing: Promise<void> | null = null;

  constructor(private readonly options: GroupCommitOptions<Item, Result, Checked>) {}

  push(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.items.push(item);
      this.resolves.push(resolve);
      this.rejects.push(reject);
      this.schedule();
    });
  }

  /** Takes the next batch at the end of this turn, once the stage it enters first is free. */
  private schedule(): void {
    if (this.scheduled || this.items.length === 0) return;
    if (this.options.check ? this.checking : this.options.serial && this.committing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run(this.take());
    });
  }

  private take(): Batch<Item, Result> {
    const { maxBatch } = this.options;
    if (maxBatch === undefined || this.items.length <= maxBatch) {
      const batch = { items: this.items, resolves: this.resolves, rejects: this.rejects };
      this.items = [];
      this.resolves = [];
      this.rejects = [];
      return batch;
    }
    return { items: this.items.splice(0, maxBatch), resolves: this.resolves.splice(0, maxBatch), rejects: this.rejects.splice(0, maxBatch) };
  }

  private async run(batch: Batch<Item, Result>): Promise<void> {
    const { check } = this.options;
    if (!check) {
      this.startCommit(batch, (turn, release) => this.options.commit(batch.items as unknown as Checked, turn, release), SETTLED);
      // Not serial, a batch cut at maxBatch leaves the rest for the next turn.
      this.schedule();
      return;
    }
    this.checking = true;
    let commit: CommitOf<Result>;
    try {
      const checked = await check(batch.items);
      commit = (turn, release) => this.options.commit(checked, turn, release);
    } catch (error) {
      // Failed in its lookups: the batch is tried again in its commit turn, so commits stay in order.
      commit = () => Promise.reject(error);
    }
    const turn = this.committing ?? SETTLED;
    if (this.options.openBeforeTurn) this.startCommit(batch, commit, turn);
    await turn;
    this.checking = false;
    if (!this.options.openBeforeTurn) this.startCommit(batch, commit, SETTLED);
    this.schedule();
  }

  private startCommit(batch: Batch<Item, Result>, commit: CommitOf<Result>, turn: Promise<void>): void {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const settled = this.commitBatch(batch, commit, turn, release);
    if (!this.options.serial) return;
    const { releaseAfterMs } = this.options;
    const done = Promise.race([settled, released]);
    const slot = releaseAfterMs === undefined ? done : releasedAfter(done, releaseAfterMs);
    this.committing = slot;
    void slot.then(() => {
      if (this.committing === slot) this.committing = null;
      this.schedule();
    });
  }

  /** Runs a batch's commit and settles its items; never rejects. */
  private async commitBatch(batch: Batch<Item, Result>, commit: CommitOf<Result>, turn: Promise<void>, release: () => void): Promise<void> {
    let results: readonly (Result | Refusal)[] | void;
    try {
      results = await commit(turn, release);
    } catch (error) {
      // A commit opened before its turn may fail before it: what follows waits for the turn too.
      await turn;
      if (this.options.retryAlone && batch.items.length > 1) {
        for (let i = 0; i < batch.items.length; i++) await this.alone(batch.items[i]!, batch.resolves[i]!, batch.rejects[i]!);
      } else {
        for (const reject of batch.rejects) reject(error);
      }
      return;
    }
    settle(batch, results);
  }

  private async alone(item: Item, resolve: (result: Result) => void, reject: (error: unknown) => void): Promise<void> {
    const { check, commit } = this.options;
    const batch = { items: [item], resolves: [resolve], rejects: [reject] };
    try {
      settle(batch, await commit(check ? await check(batch.items) : (batch.items as unknown as Checked), SETTLED, () => {}));
    } catch (error) {
      reject(error);
    }
  }
}

const SETTLED: Promise<void> = Promise.resolve();

function settle<Item, Result>(batch: Batch<Item, Result>, results: readonly (Result | Refusal)[] | void): void {
  for (let i = 0; i < batch.resolves.length; i++) {
    const result = results ? results[i] : undefined;
    if (result instanceof Refusal) batch.rejects[i]!(result.error);
    else batch.resolves[i]!(result as Result);
  }
}

/** Settles when `work` does or after `ms`, whichever comes first. */
function releasedAfter(work: Promise<void>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    void work.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
