/**
 * `npm run bench -- edi`: what the outbound 214s cost position ingestion (docs/edi.md#outbound-214,
 * budget: at most 5% of the throughput). Runs of the ingest bench's fleet (200 tenants, their
 * trucks on InTransit trips of a HosEta plan, so Live ETAs move), limits off, each on a fresh
 * database, that differ only in whether each load came from an EDI partner's tender with `214`:
 * without, every batch still asks which of its trips have a partner (and finds none); with, it
 * also sends each load's `X6` (hourly) and its `AG`s (when the delivery ETA moves 15 minutes),
 * each a stored interchange. `measure` says how the runs and their phases go.
 *
 * The partners and tenders are written straight into the seeded database (the fixture format has
 * no EDI partners), before the server sees its first reading. SQLite runs on a file; Postgres
 * when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server (BENCH_EDI_DB=sqlite|postgres for
 * one). BENCH_EDI_SECONDS (60) per run, BENCH_TENANTS (200) for a smaller fleet.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../db/create-db.js';
import { tenderFleetFromPartners } from './edi-fleet.js';
import { combinedLegs, fetchTokens, postPositions, slotsOf } from './fleet-clients.js';
import { buildFleet } from './position-fleet.js';
import type { LoadPlan, LoadResult } from './position-load.js';
import { recordResults } from './results.js';
import { createBenchDatabase, dropBenchDatabases, startServer, stop } from './server-process.js';

const SECONDS = Number(process.env.BENCH_EDI_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_POSITION_CONNECTIONS ?? 64);
const work = mkdtempSync(join(tmpdir(), 'waybill-edi-bench-'));

const load = (url: string, slots: LoadPlan['slots'], length: number | { amount: number }) => postPositions(work, url, slots, length, CONNECTIONS);

async function countOutbound214s(databaseUrl: string): Promise<number> {
  const db = createDb(databaseUrl);
  try {
    const row = await db.selectFrom('edi_documents').select((eb) => eb.fn.countAll<number>().as('n')).where('set_id', '=', '214').executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.destroy();
  }
}

type Kind = 'without' | 'with';

/** A leg's two phases: the first reading of every truck, then SECONDS of steady readings. */
interface Leg {
  first: LoadResult;
  steady: LoadResult;
}

/**
 * Four legs, without, with, with, without, each on a fresh database: on a shared machine, or
 * with Postgres checkpointing what the leg before wrote, whatever drifts weighs on both kinds
 * alike instead of on the one that runs second. Each leg has two phases:
 * - first readings: one reading per truck, as many as the fleet has. With partners, each load's
 *   first reading sends its `X6` and its first `AG`: two 214s for a third of the readings, the
 *   burst a fleet of newly tendered loads causes once.
 * - steady: SECONDS of readings after that, as a feed runs all day: the `X6`s wait an hour, an
 *   `AG` goes when a delivery ETA moves 15 minutes. This is the cost the budget is held to.
 */
async function measure(label: string, freshDatabase: (name: string) => Promise<string>): Promise<void> {
  const fleet = buildFleet(null);
  const fixturePath = join(work, 'fleet.json');
  writeFileSync(fixturePath, JSON.stringify(fleet.fixture));
  const legs = new Map<Kind, Leg[]>();
  let documents = 0;
  for (const [index, kind] of (['without', 'with', 'with', 'without'] as const).entries()) {
    const databaseUrl = await freshDatabase(`edi_${kind}_${index}`);
    const server = await startServer(databaseUrl, fixturePath, false);
    if (kind === 'with') console.log(`[${label}] ${await tenderFleetFromPartners(createDb(databaseUrl), fleet, { destroy: true })} loads tendered by partners with 214`);
    const slots = slotsOf(fleet, await fetchTokens(server.authUrl!, fleet.clients));
    const first = await load(server.apiUrl, slots, { amount: slots.length });
    const afterFirst = await countOutbound214s(databaseUrl);
    const steady = await load(server.apiUrl, slots, SECONDS);
    await stop(server);
    const stored = await countOutbound214s(databaseUrl);
    if (kind === 'with') documents += stored;
    console.log(
      `[${label}] ${kind} partners: first readings ${(first.accepted / first.seconds).toFixed(0)}/s p99 ${first.p99} ms (${afterFirst} 214s), ` +
        `steady ${(steady.accepted / steady.seconds).toFixed(0)}/s p99 ${steady.p99} ms (${stored - afterFirst} 214s)`,
    );
    legs.set(kind, [...(legs.get(kind) ?? []), { first, steady }]);
  }
  const phase = (kind: Kind, which: keyof Leg) => combinedLegs(legs.get(kind)!.map((leg) => leg[which]));
  const cost = (which: keyof Leg) => 1 - phase('with', which).rate / phase('without', which).rate;
  console.log(
    `[${label}] outbound 214s: ${(cost('steady') * 100).toFixed(1)}% of the steady throughput (the budget is 5%), ` +
      `${(cost('first') * 100).toFixed(1)}% of the first readings' (every load's first X6 and AG)`,
  );
  recordResults(
    `edi-214/${label}`,
    {
      connections: CONNECTIONS,
      seconds: SECONDS,
      with_partners_accepted_per_s: phase('with', 'steady').rate,
      with_partners_p99_ms: phase('with', 'steady').p99,
      without_partners_accepted_per_s: phase('without', 'steady').rate,
      without_partners_p99_ms: phase('without', 'steady').p99,
      first_readings_with_partners_per_s: phase('with', 'first').rate,
      first_readings_with_partners_p99_ms: phase('with', 'first').p99,
      first_readings_without_partners_per_s: phase('without', 'first').rate,
      first_readings_without_partners_p99_ms: phase('without', 'first').p99,
      with_partners_214s: documents,
    },
    { edi_214_cost: cost('steady'), edi_214_first_readings_cost: cost('first') },
  );
}

async function main(): Promise<void> {
  const only = process.env.BENCH_EDI_DB;
  try {
    if (only !== 'postgres') await measure('sqlite', async (name) => `sqlite:${join(work, `${name}.db`)}`);
    const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (only !== 'sqlite') {
      if (postgresUrl) {
        const prefix = `waybill_edi_bench_${process.pid}`;
        const made: string[] = [];
        try {
          await measure('postgres', (name) => {
            made.push(`${prefix}_${name}`);
            return createBenchDatabase(postgresUrl, `${prefix}_${name}`);
          });
        } finally {
          await dropBenchDatabases(postgresUrl, made);
        }
      } else console.log('\n[postgres] skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
