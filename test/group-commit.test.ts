import { describe, expect, it } from 'vitest';
import { GroupCommit, Refusal } from '../core/shared/group-commit.js';
import { PendingKeys } from '../core/shared/pending-keys.js';

/** The group-commit building block alone: no database, no server. */

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A promise settled by hand, to hold a commit in flight. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('group commit', () => {
  it('commits the items pushed in one turn as one batch, each with its own result, in order', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, number>({
      commit: async (batch) => {
        batches.push([...batch]);
        return batch.map((n) => n * 10);
      },
    });
    const results = await Promise.all([group.push(1), group.push(2), group.push(3)]);
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('settles every item with undefined when the commit answers nothing', async () => {
    const group = new GroupCommit<string>({ commit: async () => {} });
    expect(await Promise.all([group.push('a'), group.push('b')])).toEqual([undefined, undefined]);
  });

  it('a failing commit rejects only its own batch', async () => {
    const group = new GroupCommit<number, number>({
      commit: async (batch) => {
        if (batch.includes(2)) throw new Error('refused');
        return batch;
      },
    });
    const first = Promise.allSettled([group.push(1), group.push(2)]);
    await nextTurn();
    const second = group.push(3);
    expect((await first).map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await second).toBe(3);
  });

  it('rejects an item refused alone and resolves the rest of its batch', async () => {
    const group = new GroupCommit<number, number>({
      commit: async (batch) => batch.map((n) => (n < 0 ? new Refusal(new Error(`negative ${n}`)) : n)),
    });
    const results = await Promise.allSettled([group.push(1), group.push(-1), group.push(2)]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual([1, 'negative -1', 2]);
  });

  it('serial: the next batch waits for the commit in flight and gathers everything pushed meanwhile', async () => {
    const batches: number[][] = [];
    const held = gate();
    const group = new GroupCommit<number, number>({
      serial: true,
      commit: async (batch) => {
        batches.push([...batch]);
        if (batches.length === 1) await held.promise;
        return batch;
      },
    });
    const first = group.push(1);
    await nextTurn();
    const later = [group.push(2)];
    await nextTurn();
    later.push(group.push(3));
    await nextTurn();
    expect(batches).toEqual([[1]]);
    held.open();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('not serial: each turn commits at once, beside a batch still in flight', async () => {
    const batches: number[][] = [];
    const held = gate();
    const group = new GroupCommit<number>({
      commit: async (batch) => {
        batches.push([...batch]);
        if (batches.length === 1) await held.promise;
      },
    });
    const first = group.push(1);
    await nextTurn();
    await group.push(2);
    expect(batches).toEqual([[1], [2]]);
    held.open();
    await first;
  });

  it('serial with a release: a commit that never settles stops holding up the next after the time given', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, number>({
      serial: true,
      releaseAfterMs: 20,
      commit: (batch) => {
        batches.push([...batch]);
        return batches.length === 1 ? new Promise<never>(() => {}) : Promise.resolve(batch);
      },
    });
    void group.push(1);
    await nextTurn();
    expect(await group.push(2)).toBe(2);
    expect(batches).toEqual([[1], [2]]);
  });

  it('takes at most maxBatch items a batch; the rest follow in order', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, number>({
      maxBatch: 2,
      serial: true,
      commit: async (batch) => {
        batches.push([...batch]);
        return batch;
      },
    });
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => group.push(n)))).toEqual([1, 2, 3, 4, 5]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('checks the next batch while the one before it commits; commits stay one at a time, in order', async () => {
    const events: string[] = [];
    const held = gate();
    const group = new GroupCommit<number, number, number[]>({
      serial: true,
      check: async (batch) => {
        events.push(`check ${batch.join(',')}`);
        return batch;
      },
      commit: async (checked) => {
        events.push(`commit ${checked.join(',')}`);
        if (checked[0] === 1) await held.promise;
        events.push(`committed ${checked.join(',')}`);
        return checked;
      },
    });
    const first = group.push(1);
    await nextTurn();
    const second = group.push(2);
    await nextTurn();
    await nextTurn();
    expect(events).toEqual(['check 1', 'commit 1', 'check 2']);
    held.open();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(events).toEqual(['check 1', 'commit 1', 'check 2', 'committed 1', 'commit 2', 'committed 2']);
  });

  /** A group whose commits open at once and write in their turn; the commit of 1 is held by `held`, and with `failMany` a batch of several fails before its turn. */
  function turnTakingGroup(events: string[], held: { promise: Promise<void> }, failMany = false) {
    return new GroupCommit<number, number, number[]>({
      serial: true,
      retryAlone: true,
      openBeforeTurn: true,
      check: async (batch) => {
        events.push(`check ${batch.join(',')}`);
        return batch;
      },
      commit: async (checked, turn) => {
        if (failMany && checked.length > 1) throw new Error('open failed');
        events.push(`open ${checked.join(',')}`);
        await turn;
        events.push(`write ${checked.join(',')}`);
        if (checked[0] === 1) await held.promise;
        return checked;
      },
    });
  }

  it('openBeforeTurn: a checked batch opens its commit while the one before it commits, and writes only in its turn', async () => {
    const events: string[] = [];
    const held = gate();
    const group = turnTakingGroup(events, held);
    const first = group.push(1);
    await nextTurn();
    const second = group.push(2);
    await nextTurn();
    await nextTurn();
    const third = group.push(3);
    await nextTurn();
    await nextTurn();
    // 2 is open but waits for 1; 3 is not taken until 2 has its turn.
    expect(events).toEqual(['check 1', 'open 1', 'write 1', 'check 2', 'open 2']);
    held.open();
    expect(await Promise.all([first, second, third])).toEqual([1, 2, 3]);
    expect(events).toEqual(['check 1', 'open 1', 'write 1', 'check 2', 'open 2', 'write 2', 'check 3', 'open 3', 'write 3']);
  });

  it('openBeforeTurn: a batch whose commit fails before its turn is tried again item by item only after the commit before it', async () => {
    const events: string[] = [];
    const held = gate();
    const group = turnTakingGroup(events, held, true);
    const first = group.push(1);
    await nextTurn();
    const rest = [group.push(2), group.push(3)];
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(events.filter((event) => event.startsWith('write'))).toEqual(['write 1']);
    held.open();
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3]);
    expect(events.filter((event) => event.startsWith('write'))).toEqual(['write 1', 'write 2', 'write 3']);
  });

  it('release: a commit that hands its turn on lets the next batch write before it settles; each keeps its own result', async () => {
    const events: string[] = [];
    const held = gate();
    const group = new GroupCommit<number, number, number[]>({
      serial: true,
      openBeforeTurn: true,
      check: async (batch) => {
        events.push(`check ${batch.join(',')}`);
        return batch;
      },
      commit: async (checked, turn, release) => {
        await turn;
        events.push(`write ${checked.join(',')}`);
        // 1 hands its turn on and then takes long to settle (its COMMIT); 2 does not.
        if (checked[0] === 1) {
          release();
          await held.promise;
        }
        events.push(`settled ${checked.join(',')}`);
        return checked.map((n) => n * 10);
      },
    });
    const first = group.push(1);
    await nextTurn();
    const second = group.push(2);
    for (let i = 0; i < 5; i++) await nextTurn();
    const third = group.push(3);
    for (let i = 0; i < 5; i++) await nextTurn();
    // 2 wrote and settled while 1 was still settling; 3 waits for 2, which did not release.
    expect(events).toEqual(['check 1', 'write 1', 'check 2', 'write 2', 'settled 2', 'check 3', 'write 3', 'settled 3']);
    expect(await Promise.all([second, third])).toEqual([20, 30]);
    held.open();
    expect(await first).toBe(10);
    expect(events.at(-1)).toBe('settled 1');
  });

  it('retryAlone: a failed batch is tried again item by item, so a bad item fails only itself', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, number>({
      serial: true,
      retryAlone: true,
      commit: async (batch) => {
        batches.push([...batch]);
        if (batch.includes(2)) throw new Error('bad 2');
        return batch;
      },
    });
    const results = await Promise.allSettled([group.push(1), group.push(2), group.push(3)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});

describe('PendingKeys: work that handed its turn on before it finished', () => {
  it('lets work that shares no key go at once, and holds work that shares one until every holder has finished', async () => {
    const pending = new PendingKeys();
    expect(pending.clear(new Set(['trk_1']))).toBeNull();
    const finishFirst = pending.hold(new Set(['trk_1', 'trp_1', 'lod_1']));
    const finishSecond = pending.hold(new Set(['trk_2', 'trp_2', 'lod_1']));
    expect(pending.clear(new Set(['trk_3', 'trp_3', 'lod_3']))).toBeNull();
    let cleared = false;
    void pending.clear(new Set(['trk_4', 'trp_4', 'lod_1']))!.then(() => (cleared = true));
    finishFirst();
    await nextTurn();
    expect(cleared).toBe(false);
    finishSecond();
    await nextTurn();
    expect(cleared).toBe(true);
    expect(pending.size).toBe(0);
    expect(pending.clear(new Set(['lod_1']))).toBeNull();
  });
});
