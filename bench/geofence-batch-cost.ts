/**
 * The geofence's cost on position ingestion (issue 28), in the process and in CPU time rather
 * than over HTTP: on a shared machine a process's own CPU time per reading barely moves with
 * the neighbours' load, where a throughput does.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc .bench-build/bench/geofence-batch-cost.js
 *
 * Three SQLite files, one per fleet of bench/position-fleet.ts (`unfenced`, `fenced` and
 * `polygon`: the trips' next Open stop, a waypoint, has no Geofence, a 300 m circle or a
 * 100-point polygon; nothing else differs, and the trucks drive far from every stop, so nothing
 * arrives). Each run drives the fleets through the real batch path (`checkPositions` then
 * `commitPositions`, the writer's two stages) with BENCH_PASSES passes over every truck,
 * round-robin as the HTTP bench sends them, in batches of BENCH_BATCH readings, each reading
 * moving its truck as bench/position-load.ts does; the fleets take turns pass by pass (forwards,
 * then backwards), so a drift (the history growing, the machine) weighs on all. Prints the
 * process's CPU µs per reading (user and system, every thread: GC included) for each fleet per
 * run, then the medians over BENCH_RUNS runs and each fenced fleet's extra cost; the statements
 * a reading costs, from one counted pass of each fleet (bench/statement-counter.ts); and the
 * geofence's own step alone in a tight loop (`watchLoop`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { ManualClock } from '../core/clock.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import { checkPositions, type PositionRequest } from '../core/visibility/check-positions.js';
import { commitPositions } from '../core/visibility/commit-positions.js';
import { recordGeofenceVisits } from '../core/trips/geofence-watch.js';
import { selectLiveEtaStops } from '../core/trips/live-eta.repository.js';
import { Refusal } from '../core/shared/group-commit.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { SECRET_KEY } from '../test/harness.js';
import { fleetPositions, nextReading, type FleetPositions } from './fleet-reading.js';
import { StatementCounter } from './statement-counter.js';

process.env.BENCH_TENANTS ??= '20';
const { buildFleet } = await import('./position-fleet.js');
type Fleet = ReturnType<typeof buildFleet>;

const BATCH = Number(process.env.BENCH_BATCH ?? 64);
const PASSES = Number(process.env.BENCH_PASSES ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const FENCES = ['unfenced', 'fenced', 'polygon'] as const;
type Fence = (typeof FENCES)[number];

interface Subject {
  db: Db;
  /** The same database through a statement counter, for the counted pass. */
  counted: Db;
  counter: StatementCounter;
  fleet: Fleet;
  /** Where each truck is now: every reading moves it. */
  at: FleetPositions;
}

const work = mkdtempSync(join(tmpdir(), 'waybill-geofence-cost-'));
const clock = new ManualClock('2026-11-22T12:00:00Z');

async function open(fence: Fence): Promise<Subject> {
  const db = createDb(`sqlite:${join(work, `${fence}.db`)}`);
  await migrateToLatest(db);
  const fleet = buildFleet('http://127.0.0.1:9/tracking', { waypoint: fence });
  await loadFixture(db, fleet.fixture, { clock, secretKey: SECRET_KEY });
  const counter = new StatementCounter();
  return { db, counted: db.withPlugin(counter), counter, fleet, at: fleetPositions(fleet) };
}

const request = (subject: Subject, index: number, recordedAt: string) => nextReading(subject.fleet, subject.at, index, recordedAt, clock);

/** Drives one pass over the fleet, every truck once, in batches; returns its readings and the CPU µs they took. */
async function drive(subject: Subject, db = subject.db): Promise<{ readings: number; micros: number }> {
  const trucks = subject.fleet.trucks.length;
  const recordedAt = formatStoredDateTime(clock.now());
  let readings = 0;
  // With --expose-gc: each pass starts from a collected heap, not the other fleet's garbage.
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.cpuUsage();
  for (let from = 0; from < trucks; from += BATCH) {
    const batch: PositionRequest[] = [];
    for (let index = from; index < Math.min(from + BATCH, trucks); index++) batch.push(request(subject, index, recordedAt));
    readings += (await commitPositions(db, await checkPositions(db, batch))).length;
  }
  const used = process.cpuUsage(before);
  return { readings, micros: used.user + used.system };
}

/**
 * One run: PASSES passes of each fleet, the fleets taking turns pass by pass (which goes first
 * alternating), so the history's growth and the machine's drift weigh on both; CPU µs per reading.
 */
async function run(subjects: ReadonlyMap<Fence, Subject>, number: number): Promise<Map<Fence, number>> {
  const totals = new Map(FENCES.map((fence) => [fence, { readings: 0, micros: 0 }]));
  for (let pass = 0; pass < PASSES; pass++) {
    // One second per pass: every truck's reading is newer than its last.
    clock.advance(1000);
    const order = (number + pass) % 2 === 0 ? FENCES : [...FENCES].reverse();
    for (const fence of order) {
      const { readings, micros } = await drive(subjects.get(fence)!);
      totals.get(fence)!.readings += readings;
      totals.get(fence)!.micros += micros;
    }
  }
  return new Map(FENCES.map((fence) => [fence, totals.get(fence)!.micros / totals.get(fence)!.readings]));
}

/**
 * The geofence's own step in a tight loop: `recordGeofenceVisits` over one batch of a fenced
 * fleet (its trip readings, with the stops the transaction reads), far from every fence, so it
 * decides nothing and writes nothing. CPU µs per trip reading, median of BENCH_RUNS loops.
 */
async function watchLoop(subject: Subject): Promise<number> {
  clock.advance(1000);
  const recordedAt = formatStoredDateTime(clock.now());
  const batch = Array.from({ length: Math.min(BATCH, subject.fleet.trucks.length) }, (_, index) => request(subject, index, recordedAt));
  const accepted = (await checkPositions(subject.db, batch)).flatMap((checked) => (checked instanceof Refusal ? [] : [checked]));
  const positions = accepted.flatMap(({ request, row, trip }) =>
    trip?.fences ? [{ tripId: trip.id, tenantId: request.scope.tenantId, fences: trip.fences, recordedAt: row.recorded_at, point: request.point }] : [],
  );
  const stops = await selectLiveEtaStops(subject.db, [...new Set(positions.map(({ tripId }) => tripId))]).execute();
  const loops = 2000;
  const figures: number[] = [];
  for (let round = 0; round < RUNS; round++) {
    const before = process.cpuUsage();
    for (let loop = 0; loop < loops; loop++) await recordGeofenceVisits(subject.db, clock, positions, stops);
    const used = process.cpuUsage(before);
    figures.push((used.user + used.system) / (loops * positions.length));
  }
  return median(figures);
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

try {
  const subjects = new Map(await Promise.all(FENCES.map(async (fence) => [fence, await open(fence)] as const)));
  const trucks = subjects.get('fenced')!.fleet.trucks.length;
  console.log(`SQLite file, ${trucks} trucks (a third on a trip), ${BATCH} readings a batch, ${PASSES} passes a run, ${RUNS} runs`);
  // A warm-up run: the JIT and the statement cache, measured by none.
  await run(subjects, 1);
  clock.advance(1000);
  for (const [fence, subject] of subjects) {
    const { readings } = await drive(subject, subject.counted);
    const statements = [...subject.counter.take().values()].reduce((sum, n) => sum + n, 0);
    console.log(`${fence}: ${statements} statements for ${readings} readings (${(statements / readings).toFixed(3)} a reading; BEGIN and COMMIT not counted)`);
  }
  const perRun = new Map<Fence, number[]>(FENCES.map((fence) => [fence, []]));
  for (let number = 0; number < RUNS; number++) {
    const figures = await run(subjects, number);
    for (const fence of FENCES) perRun.get(fence)!.push(figures.get(fence)!);
    console.log(`run ${number + 1}: ${FENCES.map((fence) => `${fence} ${figures.get(fence)!.toFixed(1)} µs`).join(', ')}`);
  }
  const unfenced = median(perRun.get('unfenced')!);
  for (const fence of ['fenced', 'polygon'] as const) {
    const figure = median(perRun.get(fence)!);
    const ratios = perRun.get(fence)!.map((value, run) => value / perRun.get('unfenced')![run]!);
    console.log(
      `median CPU per reading: unfenced ${unfenced.toFixed(1)} µs, ${fence} ${figure.toFixed(1)} µs: ` +
        `the fence costs ${((figure / unfenced - 1) * 100).toFixed(1)}% (median of the runs' ratios ${((median(ratios) - 1) * 100).toFixed(1)}%)`,
    );
  }
  for (const fence of ['fenced', 'polygon'] as const) {
    console.log(`recordGeofenceVisits alone, one batch of the ${fence} fleet in a loop: ${(await watchLoop(subjects.get(fence)!)).toFixed(2)} µs a trip reading`);
  }
  for (const subject of subjects.values()) await subject.db.destroy();
} finally {
  rmSync(work, { recursive: true, force: true });
}
