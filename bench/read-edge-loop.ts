/**
 * The authenticated read's own work, without sockets: the API host's request listener (limits
 * off, then on over the memory store) and the bare handler of the read bench are each handed
 * the same request as plain objects, 20 at a time, in a tight loop; CPU µs per request is
 * printed for each, the minimum and median over several runs (the minimum is the figure least
 * disturbed by other work on the machine). What HTTP parsing and the socket cost is the same
 * for both servers and is left out, so this isolates the edge.
 *
 *   npx tsc -p tsconfig.bench.json && node .bench-build/bench/read-edge-loop.js
 *
 * BENCH_LOOP_REQUESTS (20000 a run), BENCH_LOOP_RUNS (9).
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { startReadServers, READ_PATH } from './read-servers.js';

const REQUESTS = Number(process.env.BENCH_LOOP_REQUESTS ?? 20_000);
const RUNS = Number(process.env.BENCH_LOOP_RUNS ?? 9);
const IN_FLIGHT = 20;

/** Just what the listeners read of a request: method, target, headers, the socket's address. */
function fakeRequest(url: string, headers: Record<string, string>): IncomingMessage {
  const req = new EventEmitter() as IncomingMessage;
  Object.assign(req, { method: 'GET', url, headers, socket: { remoteAddress: '127.0.0.1' }, resume() {} });
  return req;
}

/** A response that records its status and resolves `done` when ended. */
function fakeResponse(done: (status: number) => void): ServerResponse {
  const headers = new Map<string, unknown>();
  const res = {
    statusCode: 200,
    headersSent: false,
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), value),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    writeHead(status: number) {
      res.statusCode = status;
      res.headersSent = true;
      return res;
    },
    end() {
      done(res.statusCode);
    },
    destroy() {},
  };
  return res as unknown as ServerResponse;
}

function serveOne(listener: RequestListener, url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    // A copy of the header text, as every request brings a new one.
    const copied = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Buffer.from(value, 'latin1').toString('latin1')]));
    listener(fakeRequest(url, copied), fakeResponse((status) => (status === 200 ? resolve() : reject(new Error(`status ${status}`)))));
  });
}

async function measure(listener: RequestListener, url: string, headers: Record<string, string>): Promise<number> {
  const before = process.cpuUsage();
  let next = 0;
  const worker = async () => {
    while (next++ < REQUESTS) await serveOne(listener, url, headers);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const servers = await startReadServers();
  const legs = [
    { name: 'full', listener: servers.listeners.full, url: READ_PATH, headers: servers.auth },
    { name: 'limited', listener: servers.listeners.limited, url: READ_PATH, headers: servers.auth },
    { name: 'bare', listener: servers.listeners.bare, url: '/subsidiaries/sub_kc', headers: {} },
  ];
  for (const leg of legs) await measure(leg.listener, leg.url, leg.headers);
  const figures = new Map<string, number[]>(legs.map((leg) => [leg.name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const leg of run % 2 ? [...legs].reverse() : legs) figures.get(leg.name)!.push(await measure(leg.listener, leg.url, leg.headers));
  }
  for (const leg of legs) {
    const us = figures.get(leg.name)!;
    console.log(`${leg.name.padEnd(8)} min ${Math.min(...us).toFixed(2).padStart(6)}  median ${median(us).toFixed(2).padStart(6)} µs CPU/request (no sockets)`);
  }
  await servers.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
