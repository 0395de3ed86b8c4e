/**
 * The keys of work that handed its turn on before it finished (a position batch that released
 * its turn after its first statement, core/visibility/commit-positions.ts): the next in turn
 * waits only for the unfinished work it shares a key with, and goes ahead of the rest.
 *
 * Turns come in order, and work registers its keys before handing its turn on, so when a turn
 * begins every earlier work is either finished or registered here: `clear` sees all of it, and
 * nothing registered later can be earlier work.
 */
export class PendingKeys {
  private readonly open = new Set<{ keys: ReadonlySet<string>; finished: Promise<void> }>();

  /** Settles once no unfinished work holds any of `keys` (at once when none does). */
  clear(keys: ReadonlySet<string>): Promise<void> | null {
    const waits: Promise<void>[] = [];
    for (const entry of this.open) {
      for (const key of entry.keys) {
        if (keys.has(key)) {
          waits.push(entry.finished);
          break;
        }
      }
    }
    return waits.length === 0 ? null : Promise.all(waits).then(() => undefined);
  }

  /** Registers unfinished work holding `keys`; call the answer once it has finished, whether it committed or not. */
  hold(keys: ReadonlySet<string>): () => void {
    let finish!: () => void;
    const entry = { keys, finished: new Promise<void>((resolve) => (finish = resolve)) };
    this.open.add(entry);
    return () => {
      this.open.delete(entry);
      finish();
    };
  }

  /** How many works are unfinished; for tests. */
  get size(): number {
    return this.open.size;
  }
}
