/**
 * `npm run bench`: an authenticated read through the whole stack against a bare node:http
 * server doing the same query and serialisation, on the same database.
 *
 * Full stack: GET /api/p/v1.0/subsidiaries/sub_kc with a real token (JWT verification, scope
 * check, route lookup, input validation, query, output validation, serialisation).
 * Bare: node:http → getSubsidiary(db, scope, id) → JSON.stringify, sent the same request
 * (its Authorization header unread), and once more without the header.
 *
 * Limits on: the same full stack with rate limits on over the memory store (the default
 * on SQLite), every threshold raised so the measured reads are allowed: counting, deciding
 * and the RateLimit headers all run. Target (issue 19): < 3% throughput loss against limits off. The
 * two full-stack runs alternate in short slices so that load from elsewhere hits both alike.
 *
 * autocannon runs in a child process so the load generator does not share the event loop
 * with the server it measures. Target (issue 19): full stack ≥ 70% of the bare server's throughput.
 * BENCH_SERVER_CPUS and BENCH_LOAD_CPUS pin the servers (this process) and autocannon to cores
 * of their own (`1` and `0`), so the load generator never takes the servers' core.
 *
 * BENCH_BASELINE=<git ref>: a head-to-head in the same run. The server of that ref and this
 * one, each as `npm start` runs it (its own process, a file database seeded with the same
 * fixture, limits off), serve the same read in alternating slices, so a change to the edge is
 * one ratio measured under the same load; each is also given against the bare server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { secretOf, testFixture, fetchToken } from '../test/harness.js';
import { READ_PATH, startReadServers } from './read-servers.js';
import { recordResults } from './results.js';
import { buildBaseline, nodeCommand, pinServerProcess, startServer, stop, type BaselineBuild } from './server-process.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

interface Result {
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  /**
   * The servers' process CPU (its threads together) per request answered, µs. Times the
   * throughput it is the cores the server used: about 1 when the server measured is what
   * limits the leg, clearly less when the load generator (or other work) is.
   */
  serverCpuUs: number;
}

function autocannon(url: string, headers: Record<string, string>, seconds = DURATION): Promise<Result> {
  const args = ['-j', '-d', String(seconds), '-c', String(CONNECTIONS)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = nodeCommand([require_autocannon(), ...args], process.env.BENCH_LOAD_CPUS);
    const cpuBefore = process.cpuUsage();
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const cpu = process.cpuUsage(cpuBefore);
        const json = JSON.parse(out);
        const serverCpuUs = (cpu.user + cpu.system) / json.requests.total;
        resolve({ requests: json.requests.average, p50: json.latency.p50, p99: json.latency.p99, non2xx: json.non2xx, serverCpuUs });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Runs of equal length as one. */
function combine(runs: Result[]): Result {
  const mean = (pick: (r: Result) => number) => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
  return { requests: mean((r) => r.requests), p50: mean((r) => r.p50), p99: mean((r) => r.p99), non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0), serverCpuUs: mean((r) => r.serverCpuUs) };
}

function require_autocannon(): string {
  return createRequire(import.meta.url).resolve('autocannon');
}

async function main(): Promise<void> {
  pinServerProcess();
  const servers = await startReadServers();
  const { fullUrl, limitedUrl, bareUrl, auth } = servers;

  console.log(`warming up, then ${DURATION}s each with ${CONNECTIONS} connections…`);
  if (process.env.BENCH_ONLY !== 'bare') {
    await autocannon(fullUrl, auth, 3);
    await autocannon(limitedUrl, auth, 3);
  }
  if (process.env.BENCH_ONLY !== 'full') await autocannon(bareUrl, auth, 2);
  // BENCH_ONLY=full|bare runs one side, for profiling it alone with --cpu-prof.
  const only = process.env.BENCH_ONLY;
  const skipped: Result = { requests: NaN, p50: NaN, p99: NaN, non2xx: NaN, serverCpuUs: NaN };
  let full = skipped;
  let limited = skipped;
  if (only !== 'bare') {
    // Short alternating slices (off, on, on, off, …): this machine's speed drifts by more than
    // the limiter costs, and alternating often, in mirrored order, spreads the drift over both.
    const slices = 6;
    const offRuns: Result[] = [];
    const onRuns: Result[] = [];
    for (let i = 0; i < slices; i++) {
      const order = i % 2 === 0 ? [false, true] : [true, false];
      for (const on of order) {
        if (on) onRuns.push(await autocannon(limitedUrl, auth, DURATION / slices));
        else offRuns.push(await autocannon(fullUrl, auth, DURATION / slices));
      }
    }
    full = combine(offRuns);
    limited = combine(onRuns);
  }
  // The bare server is sent the very request the full stack gets, token included: Node's HTTP
  // parser and the sockets handle its 1.6 KB Authorization header whoever answers. The same
  // read without the header is measured too, for the difference the header's bytes make.
  const plain = only === 'full' ? skipped : await autocannon(bareUrl, auth);
  const plainNoToken = only === 'full' ? skipped : await autocannon(bareUrl, {});

  const ratio = full.requests / plain.requests;
  const ratioNoToken = full.requests / plainNoToken.requests;
  const row = (name: string, r: Result) =>
    `${name.padEnd(14)} ${r.requests.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(1).padStart(5)} ms   p99 ${r.p99.toFixed(1).padStart(5)} ms   non-2xx ${r.non2xx}   server CPU ${r.serverCpuUs.toFixed(0)} µs/request (${((r.serverCpuUs * r.requests) / 1e6).toFixed(2)} cores)`;
  console.log(row('full stack', full));
  console.log(row('bare http', plain));
  console.log(row('bare, no token', plainNoToken));
  console.log(`ratio: ${(ratio * 100).toFixed(1)}% of the bare server's throughput on the same request (target ≥ 70%) — ${ratio >= 0.7 ? 'met' : 'NOT met'}`);
  console.log(`        ${(ratioNoToken * 100).toFixed(1)}% of the bare server's sent no Authorization header`);
  console.log(row('limits on', limited));
  const loss = 1 - limited.requests / full.requests;
  console.log(`rate limits (memory store): ${(loss * 100).toFixed(1)}% throughput loss against limits off (target < 3%) — ${loss < 0.03 ? 'met' : 'NOT met'}`);
  recordResults(
    'authenticated-read/sqlite',
    {
      connections: CONNECTIONS,
      seconds: DURATION,
      api_rps: full.requests,
      api_p99_ms: full.p99,
      api_limits_on_rps: limited.requests,
      bare_rps: plain.requests,
      bare_p99_ms: plain.p99,
      bare_no_token_rps: plainNoToken.requests,
      api_cpu_us: full.serverCpuUs,
      bare_cpu_us: plain.serverCpuUs,
    },
    { api_vs_bare: ratio, api_vs_bare_no_token: ratioNoToken, limiter_cost: loss },
  );

  const baselineRef = process.env.BENCH_BASELINE;
  if (baselineRef && only !== 'bare') await compareWithBaseline(buildBaseline(baselineRef), bareUrl, plain);

  await servers.close();
}

/**
 * The same read against this ref's server and the baseline's, both started as `npm start`
 * starts them, in alternating slices (mirrored order, as above) so drift hits both alike.
 */
async function compareWithBaseline(baseline: BaselineBuild, bareUrl: string, plain: Result): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'waybill-read-'));
  try {
    const fixturePath = join(work, 'fixture.json');
    writeFileSync(fixturePath, JSON.stringify(testFixture()));
    const sides = [
      { name: `baseline ${baseline.ref} (${baseline.commit.slice(0, 7)})`, startScript: baseline.startScript, db: 'baseline.db' },
      { name: 'HEAD', startScript: undefined, db: 'head.db' },
    ];
    const servers = [];
    for (const side of sides) {
      const server = await startServer(`sqlite:${join(work, side.db)}`, fixturePath, false, { startScript: side.startScript, env: { LOG_LEVEL: 'warn' } });
      const token = await fetchToken(server.authUrl!, 'prairie-integration', secretOf('prairie-integration'));
      servers.push({ ...side, server, auth: { authorization: `Bearer ${token}` }, runs: [] as Result[] });
    }
    for (const side of servers) await autocannon(side.server.apiUrl + READ_PATH, side.auth, 3);
    const slices = 6;
    for (let i = 0; i < slices; i++) {
      const order = i % 2 === 0 ? servers : [...servers].reverse();
      for (const side of order) side.runs.push(await autocannon(side.server.apiUrl + READ_PATH, side.auth, DURATION / slices));
    }
    const bareAgain = await autocannon(bareUrl, { authorization: servers[0]!.auth.authorization });
    const bareRps = (plain.requests + bareAgain.requests) / 2;
    const [base, head] = servers.map((side) => combine(side.runs));
    console.log(`\nhead-to-head, each server in its own process (npm start's entry point, SQLite file, limits off):`);
    for (const [side, result] of [[servers[0]!, base!], [servers[1]!, head!]] as const) {
      console.log(`${side.name.padEnd(28)} ${result.requests.toFixed(0).padStart(8)} req/s   p99 ${result.p99.toFixed(1).padStart(5)} ms   ${((result.requests / bareRps) * 100).toFixed(1)}% of bare   non-2xx ${result.non2xx}`);
    }
    const ratio = head!.requests / base!.requests;
    console.log(`HEAD: ${(ratio * 100).toFixed(1)}% of the baseline's throughput`);
    recordResults(
      'authenticated-read-baseline/sqlite',
      {
        baseline_ref: baseline.ref,
        baseline_commit: baseline.commit,
        connections: CONNECTIONS,
        seconds: DURATION,
        baseline_rps: base!.requests,
        baseline_p99_ms: base!.p99,
        head_rps: head!.requests,
        head_p99_ms: head!.p99,
        bare_rps: bareRps,
      },
      { head_vs_baseline: ratio, baseline_vs_bare: base!.requests / bareRps, head_vs_bare: head!.requests / bareRps },
    );
    for (const side of servers) await stop(side.server);
  } finally {
    baseline.dispose();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
