import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, PAGE_CACHE_KIB } from '../db/create-db.js';
import { SAFETY_NET_PAGES } from '../db/sqlite-checkpointer.js';

/**
 * A file database's WAL is checkpointed by the worker thread, not inside a commit on the event
 * loop (db/sqlite-checkpointer.ts). New pages live in the WAL until a checkpoint copies them
 * into the database file, so the file's size shows whether one ran.
 */
describe('SQLite WAL checkpoints off the event loop', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-checkpoint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const waitFor = async (check: () => boolean, ms: number) => {
    for (const until = Date.now() + ms; Date.now() < until && !check(); ) await new Promise((resolve) => setTimeout(resolve, 50));
    return check();
  };

  it('copies committed pages into the database file in the background, and leaves no WAL at close', async () => {
    const path = join(dir, 'freight.db');
    const db = createDb(`sqlite:${path}`);
    const autocheckpoint = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
    expect(autocheckpoint.rows[0]!.wal_autocheckpoint).toBe(SAFETY_NET_PAGES);
    const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
    expect(cache.rows[0]!.cache_size).toBe(-PAGE_CACHE_KIB);

    await sql`create table filler (body text)`.execute(db);
    await db.transaction().execute(async (trx) => {
      // About 2 MiB: under SQLite's default automatic checkpoint (1,000 pages), so only the worker can copy it.
      for (let i = 0; i < 64; i += 1) await sql`insert into filler values (${'x'.repeat(32_768)})`.execute(trx);
    });
    const wal = `${path}-wal`;
    expect(statSync(wal).size).toBeGreaterThan(2_000_000);

    expect(await waitFor(() => statSync(path).size > 2_000_000, 5_000)).toBe(true);
    const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(db);
    expect(Number(rows.rows[0]!.n)).toBe(64);

    await db.destroy();
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
    const reopened = createDb(`sqlite:${path}`);
    const again = await sql<{ n: number }>`select count(*) as n from filler`.execute(reopened);
    expect(Number(again.rows[0]!.n)).toBe(64);
    await reopened.destroy();
  });

  it('starts the WAL over while commits keep coming, so it stays bounded', async () => {
    const path = join(dir, 'steady.db');
    // Started over at 256 pages (1 MiB) instead of RESTART_AT_PAGES (128 MiB).
    const db = createDb(`sqlite:${path}`, { walRestartPages: 256 });
    const wal = `${path}-wal`;
    try {
      await sql`create table filler (body text)`.execute(db);
      let largest = 0;
      // About 24 MiB in back-to-back transactions that hold the write lock across turns of the
      // event loop, as the server's do: a passive checkpoint always meets a commit.
      for (let i = 0; i < 96; i += 1) {
        await db.transaction().execute(async (trx) => {
          for (let j = 0; j < 8; j += 1) {
            await sql`insert into filler values (${'x'.repeat(32_768)})`.execute(trx);
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
        });
        largest = Math.max(largest, statSync(wal).size);
      }
      const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(db);
      expect(Number(rows.rows[0]!.n)).toBe(768);
      // Without the restart the WAL held every page written (over 24 MiB).
      expect(largest).toBeLessThan(12_000_000);
    } finally {
      await db.destroy();
    }
  });
});
