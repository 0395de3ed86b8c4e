/**
 * `npm run bench`: position ingestion (issue 4) against the real server, started exactly as
 * `npm start` starts it (migrations, SEED fixture, API host, token host, dispatcher, request
 * logs), with real tokens from its token host.
 *
 * The fleet (bench/position-fleet.ts) spreads the load over 200 tenants and 800 clients so
 * the spec's limits (10/s per token, 50/s per tenant) are never reached.
 * On each database, in one run, 60 s each (BENCH_POSITION_SECONDS) after a 5 s warm-up:
 *   1. limits on   — the target: at least 3,000 accepted positions/s with p99 under 50 ms;
 *   2. limits off  — the same load with RATE_LIMITS=off;
 *   3. bare        — the same load against bench/bare-position-server.ts (node:http doing the
 *                    same insert, nothing else) on the same database.
 * autocannon keeps BENCH_POSITION_CONNECTIONS (64) connections busy, each sending its next
 * reading as soon as the last is answered: throughput is what the server sustains, latency what
 * each reading waits. (autocannon's fixed-rate mode sends each second's quota in a burst at the
 * start of the second, which measures the burst, not a steady feed.) At the end the history
 * rows in the database are counted against the 201s received: every acknowledged position must
 * be there.
 *
 * SQLite runs on a file (the embedded default). Postgres runs when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names a server; the bench creates and drops its own database there.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '../db/create-db.js';
import { AUDIENCE, SECRET_KEY } from '../test/harness.js';
import { buildFleet, CLIENTS_PER_TENANT, TENANTS, type Fleet } from './position-fleet.js';
import type { LoadPlan, LoadResult } from './position-load.js';
import { recordResults } from './results.js';
import { createBenchDatabase, startBare, startServer, stop } from './server-process.js';

const SECONDS = Number(process.env.BENCH_POSITION_SECONDS ?? 60);
const WARMUP_SECONDS = 5;
const CONNECTIONS = Number(process.env.BENCH_POSITION_CONNECTIONS ?? 64);
const here = fileURLToPath(new URL('.', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'waybill-position-bench-'));

/** One token per client, from the server's own token host (a handful at a time: scrypt is slow on purpose). */
async function fetchTokens(authUrl: string, fleet: Fleet): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  const queue = [...fleet.clients];
  const worker = async () => {
    for (let client = queue.shift(); client; client = queue.shift()) {
      const response = await fetch(`${authUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: client.clientId, client_secret: client.secret, audience: AUDIENCE, grant_type: 'client_credentials' }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`token for ${client.clientId}: ${response.status}`);
      tokens.set(client.clientId, body.access_token);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return tokens;
}

/** Each truck posts with a token of its own tenant, the tenant's clients taking turns. */
function slotsOf(fleet: Fleet, tokens: Map<string, string>): LoadPlan['slots'] {
  const clientsOf = new Map<number, string[]>();
  for (const client of fleet.clients) {
    const list = clientsOf.get(client.tenant) ?? [];
    list.push(tokens.get(client.clientId)!);
    clientsOf.set(client.tenant, list);
  }
  return fleet.trucks.map((truck, i) => ({
    truckId: truck.truckId,
    token: clientsOf.get(truck.tenant)![Math.floor(i / TENANTS) % CLIENTS_PER_TENANT]!,
    latitude: truck.latitude,
    longitude: truck.longitude,
  }));
}

function load(url: string, slots: LoadPlan['slots'], seconds: number): Promise<LoadResult> {
  const plan: LoadPlan = { url, prefix: '/api/p/v1.0/assets/', suffix: '/locations', seconds, connections: CONNECTIONS, slots };
  const planPath = join(work, `plan-${Date.now()}.json`);
  writeFileSync(planPath, JSON.stringify(plan));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, 'position-load.js'), planPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out) as LoadResult);
      } catch (error) {
        reject(new Error(`load generator: ${String(error)}: ${out}`));
      }
    });
  });
}

function format({ name, result }: { name: string; result: LoadResult }): string {
  const perSecond = result.accepted / result.seconds;
  const others = Object.entries(result.statuses)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${code}×${count}`)
    .join(' ');
  return (
    `${name.padEnd(30)} ${perSecond.toFixed(0).padStart(6)} accepted/s  ` +
    `p50 ${String(result.p50).padStart(4)} ms  p90 ${String(result.p90).padStart(4)} ms  p99 ${String(result.p99).padStart(4)} ms  ` +
    `max ${String(result.max).padStart(5)} ms  other: ${others || 'none'}${result.errors ? `  errors ${result.errors}` : ''}${result.timeouts ? ` timeouts ${result.timeouts}` : ''}`
  );
}

async function benchDatabase(label: string, databaseUrl: string, fleet: Fleet, fixturePath: string): Promise<void> {
  console.log(`\n[${label}] seeding ${fleet.clients.length} clients and ${fleet.trucks.length} trucks over ${TENANTS} tenants…`);
  let accepted = 0;
  let sent = 0;
  const measure = async (name: string, url: string, slots: LoadPlan['slots'], seconds: number, warmup = false) => {
    const result = await load(url, slots, seconds);
    accepted += result.accepted;
    sent += result.sent;
    if (!warmup) console.log(format({ name, result }));
    return result;
  };

  let server = await startServer(databaseUrl, fixturePath, true);
  const tokens = await fetchTokens(server.authUrl!, fleet);
  const slots = slotsOf(fleet, tokens);
  console.log(`[${label}] ${tokens.size} tokens issued; ${SECONDS} s per run, ${CONNECTIONS} connections, each sending its next reading when the last is answered`);
  await measure('warm-up', server.apiUrl, slots, WARMUP_SECONDS, true);
  const limited = await measure('api, rate limits on', server.apiUrl, slots, SECONDS);
  await stop(server);

  server = await startServer(databaseUrl, fixturePath, false);
  await measure('warm-up', server.apiUrl, slots, WARMUP_SECONDS, true);
  const unlimited = await measure('api, RATE_LIMITS=off', server.apiUrl, slots, SECONDS);
  await stop(server);

  const bare = await startBare('bare-position-server.js', databaseUrl);
  await measure('warm-up', bare.apiUrl, slots, WARMUP_SECONDS, true);
  const plain = await measure('bare node:http, same insert', bare.apiUrl, slots, SECONDS);
  await stop(bare);

  const db = createDb(databaseUrl);
  const stored = Number(
    (await db.selectFrom('asset_positions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  await db.destroy();

  const rate = (result: LoadResult) => result.accepted / result.seconds;
  const met = rate(limited) >= 3000 && limited.p99 < 50;
  console.log(
    `[${label}] target ≥ 3,000 accepted/s for ${SECONDS} s with p99 < 50 ms, limits on: ` +
      `${rate(limited).toFixed(0)}/s, p99 ${limited.p99} ms — ${met ? 'met' : 'NOT met'}`,
  );
  console.log(
    `[${label}] api ${((rate(limited) / rate(plain)) * 100).toFixed(0)}% of the bare server's throughput; ` +
      `limits cost ${((1 - rate(limited) / rate(unlimited)) * 100).toFixed(1)}%`,
  );
  // A run ends with requests in flight: the server stores them, the generator stops counting.
  const intact = stored >= accepted && stored <= sent;
  console.log(
    `[${label}] history rows ${stored}; 201s counted ${accepted}, requests sent ${sent}: ` +
      `${intact ? 'every acknowledged position is stored' : 'MISMATCH: acknowledged positions are missing'}`,
  );
  recordResults(
    `position-ingest/${label}`,
    {
      connections: CONNECTIONS,
      seconds: SECONDS,
      api_accepted_per_s: rate(limited),
      api_p50_ms: limited.p50,
      api_p99_ms: limited.p99,
      api_limits_off_accepted_per_s: rate(unlimited),
      bare_accepted_per_s: rate(plain),
      bare_p99_ms: plain.p99,
      target_met: met,
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
    const only = process.env.BENCH_POSITION_DB;
    if (only !== 'postgres') await benchDatabase('sqlite', `sqlite:${join(work, 'freight.db')}`, fleet, fixturePath);
    const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (only !== 'sqlite') {
      if (postgresUrl) await benchDatabase('postgres', await createBenchDatabase(postgresUrl, process.env.BENCH_POSITION_DATABASE ?? 'waybill_position_bench'), fleet, fixturePath);
      else console.log('\n[postgres] skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server');
    }
  } finally {
    // BENCH_KEEP_WORK=1 keeps the databases, fixture and plans for profiling by hand.
    if (process.env.BENCH_KEEP_WORK) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
