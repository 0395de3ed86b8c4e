/**
 * `npm run bench`: fuel imports (POST /fuel) from many card-provider clients over HTTP, against
 * the real server started as `npm start` starts it (migrations, SEED fixture, both hosts,
 * dispatcher, request logs), with real tokens from its token host; then the same load against
 * bench/bare-fuel-server.ts (node:http doing the same key claim and insert, nothing else).
 *
 * BENCH_FUEL_TENANTS tenants (50) with 4 provider clients each post for their own trucks and
 * (company) drivers, round-robin, so the default limits (10/s per token, 50/s per tenant) are
 * far from reached at the rates measured. Every request is a new transaction. Runs of
 * BENCH_FUEL_SECONDS (20) after a 3 s warm-up, BENCH_FUEL_CONNECTIONS (32) connections each
 * sending its next import when the last is answered: limits on, RATE_LIMITS=off, bare. It
 * reports accepted imports per second, p99, the API's share of the bare server's throughput,
 * and checks that every acknowledged import is stored.
 *
 * SQLite runs on a file; Postgres when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server
 * (the bench creates and drops its own database there). BENCH_FUEL_DB=sqlite|postgres runs one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../db/create-db.js';
import { SECRET_KEY } from '../test/harness.js';
import { fetchTokens } from './fleet-clients.js';
import type { FuelLoadPlan } from './fuel-load.js';
import type { LoadResult } from './position-load.js';
import { recordResults } from './results.js';
import { createBenchDatabase, runLoadGenerator, startBare, startServer, stop } from './server-process.js';

const TENANTS = Number(process.env.BENCH_FUEL_TENANTS ?? 50);
const CLIENTS_PER_TENANT = 4;
const TRUCKS_PER_TENANT = 5;
const SECONDS = Number(process.env.BENCH_FUEL_SECONDS ?? 20);
const WARMUP_SECONDS = 3;
const CONNECTIONS = Number(process.env.BENCH_FUEL_CONNECTIONS ?? 32);
const work = mkdtempSync(join(tmpdir(), 'waybill-fuel-bench-'));

interface Fleet {
  fixture: { Tenants: unknown[] };
  clients: { clientId: string; secret: string; trucks: string[]; drivers: string[] }[];
}

const pad = (n: number, width = 4) => String(n).padStart(width, '0');

function buildFleet(): Fleet {
  const tenants: unknown[] = [];
  const clients: Fleet['clients'] = [];
  for (let t = 0; t < TENANTS; t++) {
    const trucks = Array.from({ length: TRUCKS_PER_TENANT }, (_, k) => ({ Id: `trk_fb_${pad(t)}_${k}`, TruckNumber: `${t}-${k}`, SubsidiaryId: `sub_fb_${pad(t)}` }));
    const drivers = Array.from({ length: TRUCKS_PER_TENANT }, (_, k) => ({
      Id: `drv_fb_${pad(t)}_${k}`,
      FirstName: 'Bench',
      LastName: `Driver ${k}`,
      Type: 'COMPANY',
      SubsidiaryId: `sub_fb_${pad(t)}`,
    }));
    const tenantClients = Array.from({ length: CLIENTS_PER_TENANT }, (_, c) => ({
      ClientId: `fuel-bench-${pad(t)}-${c}`,
      ClientSecret: `fuel-bench-secret-${pad(t)}-${c}-0123456789`,
      Scopes: ['fuel:create', 'fuel:read'],
      SubsidiaryId: null,
    }));
    for (const client of tenantClients) {
      clients.push({ clientId: client.ClientId, secret: client.ClientSecret, trucks: trucks.map((x) => x.Id), drivers: drivers.map((x) => x.Id) });
    }
    tenants.push({
      Id: `tn_fb_${pad(t)}`,
      Name: `Fuel bench ${t}`,
      Plan: 'Standard',
      Subsidiaries: [{ Id: `sub_fb_${pad(t)}`, Name: 'Main' }],
      Clients: tenantClients,
      Customers: [],
      Carriers: [],
      Drivers: drivers,
      Trucks: trucks,
      Trailers: [],
      ReferenceDefinitions: [],
      Loads: [],
      CarrierSettlementStatements: [],
      Deductions: [],
    });
  }
  return { fixture: { Tenants: tenants }, clients };
}

async function slotsOf(authUrl: string, fleet: Fleet): Promise<FuelLoadPlan['slots']> {
  const tokens = await fetchTokens(authUrl, fleet.clients);
  return fleet.clients.map((client, index) => ({
    token: tokens.get(client.clientId)!,
    truckId: client.trucks[index % client.trucks.length]!,
    driverId: client.drivers[index % client.drivers.length]!,
  }));
}

let runs = 0;
function load(url: string, slots: FuelLoadPlan['slots'], seconds: number): Promise<LoadResult> {
  const plan: FuelLoadPlan = { url, seconds, connections: CONNECTIONS, run: `run${++runs}-${Date.now()}`, slots };
  return runLoadGenerator('fuel-load.js', join(work, `plan-${runs}.json`), plan);
}

function format(name: string, result: LoadResult): string {
  const others = Object.entries(result.statuses)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${code}×${count}`)
    .join(' ');
  return (
    `${name.padEnd(30)} ${(result.accepted / result.seconds).toFixed(0).padStart(6)} accepted/s  ` +
    `p50 ${String(result.p50).padStart(4)} ms  p99 ${String(result.p99).padStart(4)} ms  max ${String(result.max).padStart(5)} ms  ` +
    `other: ${others || 'none'}${result.errors ? `  errors ${result.errors}` : ''}`
  );
}

async function benchDatabase(label: string, databaseUrl: string, fleet: Fleet, fixturePath: string): Promise<void> {
  console.log(`\n[${label}] ${fleet.clients.length} provider clients over ${TENANTS} tenants; ${SECONDS} s per run, ${CONNECTIONS} connections`);
  let accepted = 0;
  let sent = 0;
  const measure = async (name: string, url: string, slots: FuelLoadPlan['slots'], seconds: number, warmup = false) => {
    const result = await load(url, slots, seconds);
    accepted += result.accepted;
    sent += result.sent;
    if (!warmup) console.log(format(name, result));
    return result;
  };

  let server = await startServer(databaseUrl, fixturePath, true);
  const slots = await slotsOf(server.authUrl!, fleet);
  await measure('warm-up', server.apiUrl, slots, WARMUP_SECONDS, true);
  const limited = await measure('api, rate limits on', server.apiUrl, slots, SECONDS);
  await stop(server);

  server = await startServer(databaseUrl, fixturePath, false);
  const unlimited = await measure('api, RATE_LIMITS=off', server.apiUrl, slots, SECONDS);
  await stop(server);

  const bare = await startBare('bare-fuel-server.js', databaseUrl);
  const plain = await measure('bare node:http, same insert', bare.apiUrl, slots, SECONDS);
  await stop(bare);

  const db = createDb(databaseUrl);
  const stored = Number((await db.selectFrom('fuel_transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  await db.destroy();

  const rate = (result: LoadResult) => result.accepted / result.seconds;
  console.log(
    `[${label}] api (limits on) ${rate(limited).toFixed(0)}/s p99 ${limited.p99} ms; RATE_LIMITS=off ${rate(unlimited).toFixed(0)}/s p99 ` +
      `${unlimited.p99} ms; bare ${rate(plain).toFixed(0)}/s p99 ${plain.p99} ms; api/bare ${(rate(limited) / rate(plain)).toFixed(2)}`,
  );
  const intact = stored >= accepted && stored <= sent;
  console.log(`[${label}] rows ${stored}; 201s ${accepted}, sent ${sent}: ${intact ? 'every acknowledged import is stored' : 'MISMATCH'}`);
  recordResults(
    `fuel-import/${label}`,
    {
      connections: CONNECTIONS,
      seconds: SECONDS,
      api_accepted_per_s: rate(limited),
      api_p99_ms: limited.p99,
      api_limits_off_accepted_per_s: rate(unlimited),
      api_limits_off_p99_ms: unlimited.p99,
      bare_accepted_per_s: rate(plain),
      bare_p99_ms: plain.p99,
      every_acknowledged_stored: intact,
    },
    { api_vs_bare: rate(limited) / rate(plain), limiter_cost: 1 - rate(limited) / rate(unlimited) },
  );
}

async function main(): Promise<void> {
  const fleet = buildFleet();
  const fixturePath = join(work, 'fleet.json');
  writeFileSync(fixturePath, JSON.stringify(fleet.fixture));
  try {
    const only = process.env.BENCH_FUEL_DB;
    if (only !== 'postgres') await benchDatabase('sqlite', `sqlite:${join(work, 'fuel.db')}`, fleet, fixturePath);
    const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (only !== 'sqlite') {
      if (postgresUrl) await benchDatabase('postgres', await createBenchDatabase(postgresUrl, 'waybill_fuel_bench'), fleet, fixturePath);
      else console.log('\n[postgres] skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
