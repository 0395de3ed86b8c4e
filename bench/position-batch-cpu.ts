/**
 * Position ingestion's batch path on SQLite against the bare server's, in the process and in
 * CPU time (issue 30): what the API's batch costs a reading beyond the bare server's insert,
 * without HTTP, and without the noise a throughput over HTTP has on a shared machine.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc .bench-build/bench/position-batch-cpu.js
 *
 * Two SQLite files with the same fleet (bench/position-fleet.ts, the HTTP bench's: a third of
 * the trucks on an InTransit trip of a HosEta tenant whose customer has a visibility
 * integration). The API's path is the writer's two stages (`checkPositions`, `commitPositions`,
 * with the followers the server registers); the bare path is bench/bare-position-server.ts's
 * transaction (`holdLatestPositions`, `appendPositionHistory`). Each pass drives every truck
 * once, round-robin as the HTTP bench does, in batches whose sizes cycle through 1 to
 * BENCH_BATCH (64: the HTTP bench's connections), as a writer's batches vary under load, so a
 * statement whose text changes with its batch's size meets the statement cache as it does in
 * the server. The two paths take turns pass by pass. Prints the process's CPU µs per reading
 * (user and system, every thread, GC included) of each path per run, and its main thread's
 * alone (without the SQLite checkpointing worker, as a server's --cpu-prof profile counts it) and the medians over
 * BENCH_RUNS runs; with BENCH_STATEMENTS=1 also each path's statements of one pass by text
 * (lists of parameters folded), with their time and how many distinct texts each had.
 * BENCH_CACHE_KIB sets both paths' SQLite page cache (`pragma cache_size`, KiB; createDb leaves
 * SQLite's 2,000): to weigh a larger one against the batch's page reads and spills.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { withAfterCommit } from '../db/after-commit.js';
import { createDb, type Db } from '../db/create-db.js';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { withStatementCache } from '../db/sqlite-statement-cache.js';
import { ManualClock } from '../core/clock.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import { checkPositions, positionRow, type PositionRequest } from '../core/visibility/check-positions.js';
import { commitPositions } from '../core/visibility/commit-positions.js';
import { appendPositionHistory, holdLatestPositions } from '../core/visibility/position.repository.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { SECRET_KEY } from '../test/harness.js';
import { fleetPositions, nextReading, type FleetPositions } from './fleet-reading.js';

process.env.BENCH_TENANTS ??= '20';
const { buildFleet } = await import('./position-fleet.js');
type Fleet = ReturnType<typeof buildFleet>;
// The followers the server registers (core/router.ts).
await import('../core/router.js');

const BATCH = Number(process.env.BENCH_BATCH ?? 64);
const PASSES = Number(process.env.BENCH_PASSES ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PATHS = ['api', 'bare'] as const;
type Path = (typeof PATHS)[number];

const work = mkdtempSync(join(tmpdir(), 'waybill-batch-cpu-'));
const clock = new ManualClock('2026-11-22T12:00:00Z');

interface Subject {
  db: Db;
  /** The same file through a Kysely that logs each statement's time, for BENCH_STATEMENTS. */
  logging: Db;
  fleet: Fleet;
  at: FleetPositions;
}

async function open(path: Path): Promise<Subject> {
  const file = join(work, `${path}.db`);
  // createDb's file database: its pragmas, statement cache and checkpointing worker.
  const db = createDb(`sqlite:${file}`);
  if (process.env.BENCH_CACHE_KIB) await sql.raw(`pragma cache_size = -${process.env.BENCH_CACHE_KIB}`).execute(db);
  await migrateToLatest(db);
  const fleet = buildFleet('http://127.0.0.1:9/tracking');
  await loadFixture(db, fleet.fixture, { clock, secretKey: SECRET_KEY });
  const database = new SQLite(file);
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const logging = new Kysely<Database>({
    dialect: withAfterCommit(new SqliteDialect({ database: withStatementCache(database) })),
    log: (event) => logged?.(event.query.sql, event.queryDurationMillis),
  });
  return { db, logging, fleet, at: fleetPositions(fleet) };
}

/**
 * CPU µs of this process's main thread (Linux: its /proc stat, in ticks of 10 ms), without the
 * SQLite checkpointing worker's, which process.cpuUsage counts wherever its turns fall; null
 * where /proc is not there.
 */
function mainThreadMicros(): number | null {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

/** CPU µs of the API path's two stages, on the main thread. */
const stages = { check: 0, commit: 0, readings: 0 };

let logged: ((sql: string, ms: number) => void) | undefined;

const request = (subject: Subject, index: number, recordedAt: string) => nextReading(subject.fleet, subject.at, index, recordedAt, clock);

/** The bare server's batch: its truck is known, nothing else is looked up. */
async function bareBatch(db: Db, batch: readonly PositionRequest[]): Promise<void> {
  const rows = batch.map((item) => positionRow(item.reading, { id: item.assetId, kind: 'truck', type: 'Truck', subsidiaryId: null }, null));
  await db.transaction().execute(async (trx) => {
    const held = await holdLatestPositions(trx, rows);
    await appendPositionHistory(trx, rows.filter((_, index) => held[index]));
  });
}

/** One pass over the fleet in batches of 1, 2, … BATCH readings; the CPU µs it took. */
async function drive(subject: Subject, path: Path, db = subject.db): Promise<{ readings: number; micros: number; mainMicros: number | null }> {
  const trucks = subject.fleet.trucks.length;
  const recordedAt = formatStoredDateTime(clock.now());
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.cpuUsage();
  const mainBefore = mainThreadMicros();
  let size = 1;
  for (let from = 0; from < trucks; from += size, size = (size % BATCH) + 1) {
    const batch: PositionRequest[] = [];
    for (let index = from; index < Math.min(from + size, trucks); index++) batch.push(request(subject, index, recordedAt));
    if (path === 'api') {
      // The main thread's ticks: a batch is shorter than one, but over many batches they fall in proportion.
      const start = mainThreadMicros() ?? Number.NaN;
      const checked = await checkPositions(db, batch);
      const mid = mainThreadMicros() ?? Number.NaN;
      await commitPositions(db, checked);
      stages.check += mid - start;
      stages.commit += (mainThreadMicros() ?? Number.NaN) - mid;
      stages.readings += batch.length;
    }
    else await bareBatch(db, batch);
  }
  const used = process.cpuUsage(before);
  const mainAfter = mainThreadMicros();
  return { readings: trucks, micros: used.user + used.system, mainMicros: mainAfter === null || mainBefore === null ? null : mainAfter - mainBefore };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** A statement's text with its lists of parameters and its VALUES rows folded: one line per statement. */
const fold = (text: string) => text.replace(/\?(, \?)+/g, '?…').replace(/\(\?…\)(, \(\?…\))+/g, '(?…)…').replace(/when \? then \?( when \? then \?)+/g, 'when ? then ?…');

try {
  const subjects = new Map(await Promise.all(PATHS.map(async (path) => [path, await open(path)] as const)));
  console.log(`SQLite files, ${subjects.get('api')!.fleet.trucks.length} trucks, batches of 1 to ${BATCH}, ${PASSES} passes a run, ${RUNS} runs`);
  // Warm-up: the first shares, the JIT, the statement cache.
  for (let pass = 0; pass < 2; pass++) {
    clock.advance(1000);
    for (const path of PATHS) await drive(subjects.get(path)!, path);
  }
  if (process.env.BENCH_STATEMENTS === '1') {
    clock.advance(1000);
    for (const path of PATHS) {
      const byText = new Map<string, { n: number; ms: number; texts: Set<string> }>();
      logged = (text, ms) => {
        const key = fold(text);
        const entry = byText.get(key) ?? byText.set(key, { n: 0, ms: 0, texts: new Set() }).get(key)!;
        entry.n += 1;
        entry.ms += ms;
        entry.texts.add(text);
      };
      // The second of two passes: the logging connection's statement cache is warm.
      await drive(subjects.get(path)!, path, subjects.get(path)!.logging);
      byText.clear();
      clock.advance(1000);
      const { readings } = await drive(subjects.get(path)!, path, subjects.get(path)!.logging);
      logged = undefined;
      console.log(`${path}: statements of one pass`);
      for (const [text, { n, ms, texts }] of [...byText].sort((a, b) => b[1].ms - a[1].ms)) {
        console.log(`${((ms * 1000) / readings).toFixed(1).padStart(7)} µs/reading  ×${String(n).padStart(4)}  ${String(texts.size).padStart(3)} texts  ${process.env.BENCH_FULL ? text : text.slice(0, 150)}`);
      }
    }
  }
  Object.assign(stages, { check: 0, commit: 0, readings: 0 });
  const perRun = new Map<Path, number[]>(PATHS.map((path) => [path, []]));
  const mainPerRun = new Map<Path, number[]>(PATHS.map((path) => [path, []]));
  for (let number = 0; number < RUNS; number++) {
    const totals = new Map(PATHS.map((path) => [path, { readings: 0, micros: 0, mainMicros: 0 }]));
    for (let pass = 0; pass < PASSES; pass++) {
      clock.advance(1000);
      for (const path of (number + pass) % 2 === 0 ? PATHS : [...PATHS].reverse()) {
        const { readings, micros, mainMicros } = await drive(subjects.get(path)!, path);
        totals.get(path)!.readings += readings;
        totals.get(path)!.micros += micros;
        totals.get(path)!.mainMicros += mainMicros ?? Number.NaN;
      }
    }
    for (const path of PATHS) {
      perRun.get(path)!.push(totals.get(path)!.micros / totals.get(path)!.readings);
      mainPerRun.get(path)!.push(totals.get(path)!.mainMicros / totals.get(path)!.readings);
    }
    console.log(
      `run ${number + 1}: ${PATHS.map((path) => `${path} ${perRun.get(path)!.at(-1)!.toFixed(1)} µs (main thread ${mainPerRun.get(path)!.at(-1)!.toFixed(1)})`).join(', ')}`,
    );
  }
  console.log(`API stages, main thread: check ${(stages.check / stages.readings).toFixed(1)} µs, commit ${(stages.commit / stages.readings).toFixed(1)} µs a reading (the runs' passes)`);
  for (const [label, figures] of [['process', perRun], ['main thread', mainPerRun]] as const) {
    const api = median(figures.get('api')!);
    const bare = median(figures.get('bare')!);
    console.log(`median CPU per reading, ${label}: api ${api.toFixed(1)} µs, bare ${bare.toFixed(1)} µs: the API's batch costs ${(api - bare).toFixed(1)} µs more`);
  }
  for (const subject of subjects.values()) {
    await subject.logging.destroy();
    await subject.db.destroy();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
