import SQLite from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { withStatementCache } from '../db/sqlite-statement-cache.js';

describe('SQLite statement cache', () => {
  const open = () => {
    const raw = new SQLite(':memory:');
    raw.exec('create table t (n integer)');
    raw.exec('insert into t values (1), (2), (3)');
    return raw;
  };

  it('prepares a statement once and reuses it for the same SQL text', () => {
    const raw = open();
    const prepare = vi.spyOn(raw, 'prepare');
    const cached = withStatementCache(raw);
    const first = cached.prepare('select n from t where n > ?');
    const second = cached.prepare('select n from t where n > ?');
    expect(second).toBe(first);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(second.all([1])).toEqual([{ n: 2 }, { n: 3 }]);
  });

  it('gives a fresh statement while the cached one is held by an open iterator (a streamed read)', () => {
    const raw = open();
    const cached = withStatementCache(raw);
    const streaming = cached.prepare('select n from t order by n');
    const seen: number[][] = [];
    for (const row of streaming.iterate([]) as Iterable<{ n: number }>) {
      // The same SQL again mid-stream: better-sqlite3 refuses to rerun a busy statement.
      const inner = cached.prepare('select n from t order by n');
      expect(inner).not.toBe(streaming);
      seen.push([row.n, (inner.all([]) as { n: number }[]).length]);
    }
    expect(seen).toEqual([[1, 3], [2, 3], [3, 3]]);
  });

  it('keeps at most its capacity, dropping the oldest', () => {
    const raw = open();
    const prepare = vi.spyOn(raw, 'prepare');
    const cached = withStatementCache(raw, 2);
    cached.prepare('select 1');
    cached.prepare('select 2');
    cached.prepare('select 3');
    cached.prepare('select 3');
    cached.prepare('select 2');
    expect(prepare).toHaveBeenCalledTimes(3);
    cached.prepare('select 1');
    expect(prepare).toHaveBeenCalledTimes(4);
  });
});
