/**
 * CPU time per authenticated read, which holds where throughput does not (a machine shared with
 * other work): the read bench's three servers (full stack with limits off, with limits on over
 * the memory store, the bare node:http server) in this process, each sent a fixed number of
 * requests by autocannon in a child process, the process's CPU time (user + system, GC threads
 * included) measured around each leg. Rounds alternate the legs; medians are printed.
 *
 *   npx tsc -p tsconfig.bench.json && node .bench-build/bench/read-cpu.js
 *
 * BENCH_READ_REQUESTS (20000 a leg), BENCH_READ_ROUNDS (5), BENCH_CONNECTIONS (20).
 * BENCH_PROFILE_DIR=<dir>: one more round, left out of the figures (the profiler costs CPU too),
 * writes each leg as a V8 CPU profile (`<leg>.cpuprofile`), for `profile-summary.js <file>
 * --accepted <requests>`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startReadServers } from './read-servers.js';

const REQUESTS = Number(process.env.BENCH_READ_REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_READ_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;

/** Sends `amount` requests and resolves with the non-2xx count once autocannon is done. */
function send(url: string, headers: Record<string, string>, amount: number): Promise<number> {
  const args = [createRequire(import.meta.url).resolve('autocannon'), '-j', '-a', String(amount), '-c', String(CONNECTIONS)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out).non2xx as number);
      } catch (error) {
        reject(error);
      }
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  const servers = await startReadServers();
  const legs = [
    { name: 'full', url: servers.fullUrl, headers: servers.auth },
    { name: 'limited', url: servers.limitedUrl, headers: servers.auth },
    { name: 'bare', url: servers.bareUrl, headers: {} },
    // The bare server sent the full stack's Authorization header too (unread): what the
    // header's bytes cost in Node's parser and sockets alone.
    { name: 'bare+token', url: servers.bareUrl, headers: servers.auth },
  ];
  for (const leg of legs) await send(leg.url, leg.headers, REQUESTS / 4);
  const session = PROFILE_DIR ? new Session() : undefined;
  if (session) {
    mkdirSync(PROFILE_DIR!, { recursive: true });
    session.connect();
    await session.post('Profiler.enable');
  }
  const perRequest = new Map<string, number[]>(legs.map((leg) => [leg.name, []]));
  for (let round = 0; round < ROUNDS + (session ? 1 : 0); round++) {
    const order = round % 2 === 0 ? legs : [...legs].reverse();
    const profiled = round === ROUNDS;
    for (const leg of order) {
      if (profiled) await session!.post('Profiler.start');
      const before = process.cpuUsage();
      const non2xx = await send(leg.url, leg.headers, REQUESTS);
      const used = process.cpuUsage(before);
      if (profiled) {
        const { profile } = await session!.post('Profiler.stop');
        writeFileSync(join(PROFILE_DIR!, `${leg.name}.cpuprofile`), JSON.stringify(profile));
      }
      if (non2xx !== 0) throw new Error(`${leg.name}: ${non2xx} answers were not 2xx`);
      if (!profiled) perRequest.get(leg.name)!.push((used.user + used.system) / REQUESTS);
    }
  }
  session?.disconnect();
  const figure = (name: string) => median(perRequest.get(name)!);
  for (const leg of legs) {
    console.log(`${leg.name.padEnd(8)} median ${figure(leg.name).toFixed(1).padStart(6)} min ${Math.min(...perRequest.get(leg.name)!).toFixed(1).padStart(6)} µs CPU/request   rounds ${perRequest.get(leg.name)!.map((us) => us.toFixed(1)).join(' ')}`);
  }
  console.log(`full/bare CPU: ${(figure('bare') / figure('full') * 100).toFixed(1)}% (the throughput ratio it bounds); on the same request (bare+token): ${(figure('bare+token') / figure('full') * 100).toFixed(1)}%`);
  console.log(`limiter: +${(figure('limited') / figure('full') * 100 - 100).toFixed(1)}% CPU per request`);
  await servers.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
