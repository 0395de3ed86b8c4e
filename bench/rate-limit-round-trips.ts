/**
 * What one lease statement (`leaseBudgets`) costs the Postgres server by its size: rounds of
 * 8, 100 and 1,000 budgets (the ingestion benchmark's lease rounds and a window's renewal of
 * every budget), each on rows that exist (the update path), timed and with the server's CPU
 * (its backend's /proc stat: run it on the database's machine). Medians of BENCH_ROUNDS (30).
 *
 *   npx tsc -p tsconfig.bench.json && BENCH_DATABASE_URL=postgres://… node .bench-build/bench/rate-limit-round-trips.js
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { leaseBudgets } from '../adapters/http/rate-limit-store-leasing.js';
import { tokenRule } from '../adapters/http/rate-rules.js';
import { createDb, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { createBenchDatabase, dropBenchDatabases } from './server-process.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

/** CPU ticks (utime + stime, 100 a second) of the server process behind the pool's one connection. */
async function backendTicks(db: Db): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
  const fields = readFileSync(`/proc/${rows[0]!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('BENCH_DATABASE_URL (or TEST_DATABASE_URL) must name a Postgres server');
  const name = `waybill_lease_round_${process.pid}`;
  const db = createDb(await createBenchDatabase(url, name), { maxConnections: 1 });
  try {
    await migrateToLatest(db);
    for (const size of [8, 100, 1000]) {
      const names = Array.from({ length: size }, (_, i) => `k${String(i).padStart(5, '0')}`);
      const times: number[] = [];
      const ticksBefore = await backendTicks(db);
      let nowMs = Date.now();
      for (let round = 0; round <= ROUNDS; round++) {
        // A window of its own each round: every lease grants (half the points, as a first lease asks).
        nowMs += 1000;
        const windowStart = nowMs - (nowMs % 1000);
        const started = performance.now();
        await leaseBudgets(db, names.map((key) => ({ name: `${tokenRule.name}:${key}`, rule: tokenRule, windowStart, nowMs, want: 5 })));
        if (round > 0) times.push(performance.now() - started);
      }
      const cpuMs = ((await backendTicks(db)) - ticksBefore) * 10;
      console.log(`${String(size).padStart(5)} budgets: ${median(times).toFixed(2)} ms a statement (median of ${ROUNDS}); Postgres CPU ${((cpuMs / (ROUNDS + 1)) * 1000 / size).toFixed(1)} µs a budget`);
    }
  } finally {
    await db.destroy();
    await dropBenchDatabases(url, [name]);
  }
}

await main();
