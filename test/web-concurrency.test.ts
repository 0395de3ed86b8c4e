import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.js';
import { testDatabaseKind } from './support/database.js';
import { bannerUrls, builtBin, scratchDatabase, serverEnv, startProcess, type ScratchDatabase, type ServerProcess } from './support/server-process.js';

/**
 * WEB_CONCURRENCY (issue 19): `npm start` as N API processes (node:cluster) on one Postgres,
 * and the limits of docs/api-rules.md#rate-limits holding over processes: real OS processes, real ports.
 */

const SLOW = 180_000;
const AUDIENCE = 'https://api.freight.local';
const DEMO_CLIENT = { id: 'prairie-integration', secret: 'demo-secret-prairie-all-0001' };
/** docs/api-rules.md#rate-limits: 10 requests a second per access token; POST /oauth/token: 30 a minute per client id. */
const TOKEN_LIMIT = 10;
const TOKEN_ENDPOINT_LIMIT = 30;

const servers: ServerProcess[] = [];
const databases: ScratchDatabase[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  await Promise.all(databases.splice(0).map((database) => database.dispose()));
});

/** The server (the built bin/start.js, as `npm run start:prod` runs it) with JSON info logs, so every line names its process. */
function start(databaseUrl: string, env: Record<string, string> = {}): ServerProcess {
  const server = startProcess(process.execPath, builtBin('start'), serverEnv(databaseUrl, {
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    API_AUDIENCE: AUDIENCE,
    NODE_ENV: 'development',
    SEED: '',
    METRICS_PORT: '',
    ...env,
  }));
  servers.push(server);
  return server;
}

async function ready(server: ServerProcess): Promise<{ apiUrl: string; authUrl: string; metricsUrl: string | null }> {
  return bannerUrls(await server.waitFor(/Waybill is running[\s\S]*\n\n[\s\S]*\n\n/, 90_000));
}

interface LogLine {
  msg: string;
  pid?: number;
  path?: string;
  status?: number;
  requestId?: string;
  [field: string]: unknown;
}

function logLines(server: ServerProcess): LogLine[] {
  return server
    .output()
    .split('\n')
    .flatMap((line) => {
      // The last line may still be on its way.
      try {
        return line.startsWith('{') ? [JSON.parse(line) as LogLine] : [];
      } catch {
        return [];
      }
    });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids of a process's children (none: empty). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)]).toString().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** One request on a connection of its own (no keep-alive), so the cluster hands each to a worker in turn. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function tokenRequest(authUrl: string, client: { id: string; secret: string }): Promise<{ status: number; body: string }> {
  return send(`${authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: client.id, client_secret: client.secret, audience: AUDIENCE, grant_type: 'client_credentials' }),
  });
}

async function accessToken(authUrl: string): Promise<string> {
  const answer = await tokenRequest(authUrl, DEMO_CLIENT);
  expect(answer.status, answer.body).toBe(200);
  return (JSON.parse(answer.body) as { access_token: string }).access_token;
}

/**
 * Runs `burst` inside one fixed window of the limiter (windows are aligned to the epoch, on the
 * same clock on this machine): `prepare` makes a fresh key (the attempt's number tells them
 * apart), then the burst starts just after a window opens, with `margin` ms of it left at least.
 * When the answers came back after the window had closed, the burst may have been counted in
 * two windows: it is tried again with a fresh key.
 */
async function inOneWindow<K, T>(windowMs: number, margin: number, prepare: (attempt: number) => Promise<K>, burst: (key: K) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const key = await prepare(attempt);
    const into = Date.now() % windowMs;
    if (windowMs - into < margin) await new Promise((r) => setTimeout(r, windowMs - into + 20));
    const windowEnd = Date.now() - (Date.now() % windowMs) + windowMs;
    const result = await burst(key);
    if (Date.now() < windowEnd) return result;
  }
  throw new Error('no burst fitted in one rate-limit window in 5 attempts (machine too busy?)');
}

/** Polls until `check` holds (log lines travel through a pipe, after the answers they describe). */
async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function countStatuses(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** More than a token's per-second limit, all at once over as many connections, to one or more API hosts. */
async function tokenBurst(apiUrls: string[], authUrl: string, total: number): Promise<Record<number, number>> {
  return inOneWindow(
    1_000,
    700,
    // A fresh token per attempt: the counter is per access token.
    () => accessToken(authUrl),
    async (token) => {
      const answers = await Promise.all(
        Array.from({ length: total }, (_, i) => send(`${apiUrls[i % apiUrls.length]}/api/p/v1.0/subsidiaries`, { headers: { authorization: `Bearer ${token}` } })),
      );
      return countStatuses(answers.map((answer) => answer.status));
    },
  );
}

/** More than the token endpoint's per-minute limit for one client id, spread over the token hosts given. */
async function tokenEndpointBurst(authUrls: string[], total: number): Promise<Record<number, number>> {
  return inOneWindow(
    60_000,
    20_000,
    // Counted per client id named, before the secret is checked: an unknown id is counted too.
    async (attempt) => ({ id: `probe-${randomBytes(4).toString('hex')}-${attempt}`, secret: 'not-the-secret' }),
    async (client) => {
      // In waves of 8 (still one connection each): 40 secret checks at once on a busy machine can
      // keep the shared count waiting past its timeout, and the limiter then lets requests through.
      const statuses: number[] = [];
      for (let wave = 0; wave < total; wave += 8) {
        const size = Math.min(8, total - wave);
        const answers = await Promise.all(Array.from({ length: size }, (_, i) => tokenRequest(authUrls[(wave + i) % authUrls.length]!, client)));
        statuses.push(...answers.map((answer) => answer.status));
      }
      return countStatuses(statuses);
    },
  );
}

describe('WEB_CONCURRENCY setting', () => {
  it('defaults to 1, takes 1 to 64 or auto, and refuses anything else naming the variable', () => {
    expect(loadConfig({}).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '4' }).webConcurrency).toBe(4);
    expect(loadConfig({ WEB_CONCURRENCY: '64' }).webConcurrency).toBe(64);
    const auto = loadConfig({ WEB_CONCURRENCY: 'auto' }).webConcurrency;
    expect(auto).toBeGreaterThanOrEqual(1);
    expect(auto).toBeLessThanOrEqual(64);
    for (const bad of ['0', '65', '-1', '1.5', 'two']) {
      expect(() => loadConfig({ WEB_CONCURRENCY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ WEB_CONCURRENCY: bad })).toThrow(`WEB_CONCURRENCY must be a whole number from 1 to 64 or "auto", got "${bad}"`);
    }
  });
});

describe.runIf(testDatabaseKind() === 'sqlite')('WEB_CONCURRENCY > 1 on SQLite', () => {
  it('refuses to start: one line on stderr, exit code 1, no database file written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-cluster-'));
    try {
      const file = join(dir, 'freight.db');
      const server = start(`sqlite:${file}`, { WEB_CONCURRENCY: '2' });
      const code = await new Promise<number | null>((resolve) => server.child.on('exit', resolve));
      expect(code).toBe(1);
      const lines = server.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^waybill failed to start: WEB_CONCURRENCY=2 needs Postgres: .*use WEB_CONCURRENCY=1 or a postgres:\/\/ DATABASE_URL$/);
      expect(existsSync(file)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, SLOW);
});

describe.runIf(testDatabaseKind() === 'postgres')('WEB_CONCURRENCY=2 on Postgres', () => {
  it('serves from two worker processes on one port, holds the limits over both, sums metrics, and stops all on SIGTERM with 0', async () => {
    const database = await scratchDatabase();
    databases.push(database);
    const server = start(database.url, { WEB_CONCURRENCY: '2', METRICS_PORT: '0' });
    const { apiUrl, authUrl, metricsUrl } = await ready(server);
    expect(server.output()).toContain('Workers:    2 API processes share these ports (WEB_CONCURRENCY)');

    // The banner once; two workers, each with its own pid, none the primary's.
    expect(server.output().match(/Waybill is running/g)).toHaveLength(1);
    // Each worker logs before telling the primary, but the lines of several processes may reach the pipe after the banner.
    const listening = () => [...new Set(logLines(server).filter((line) => line.msg === 'API worker listening').map((line) => line.pid!))];
    await until(() => listening().length >= 2, 'two workers listening');
    const workerPids = listening();
    expect(workerPids).toHaveLength(2);
    expect(workerPids).not.toContain(server.child.pid);
    // The demo data was loaded once (a second load would have failed on its ids).
    expect(logLines(server).filter((line) => line.msg === 'fixture loaded into the empty database')).toHaveLength(1);

    // docs/api-rules.md#rate-limits, 10 a second per token, over both workers: never more than 10 of 25 in one window.
    const counts = await tokenBurst([apiUrl], authUrl, 25);
    const served = () => logLines(server).filter((line) => line.msg === 'request' && line.path === '/api/p/v1.0/subsidiaries');
    await until(() => served().length >= 25, 'the request log lines');
    expect(new Set(served().map((line) => line.pid))).toEqual(new Set(workerPids));
    expect((counts[200] ?? 0) + (counts[429] ?? 0), JSON.stringify(counts)).toBe(25);
    expect(counts[200]).toBeLessThanOrEqual(TOKEN_LIMIT);
    // Exactly 10 when each worker got at least 10 of the requests. The primary hands connections
    // to whichever worker is free, so the split can be uneven; a worker that got fewer may hold
    // units of its last slice it has no request to spend on (the leasing store's header: stricter,
    // never looser), at most one slice of half the budget, 5.
    const burst = served().slice(-25); // the burst that fitted a window (an earlier attempt's lines come first)
    const perWorker = workerPids.map((pid) => burst.filter((line) => line.pid === pid).length);
    if (Math.min(...perWorker) >= TOKEN_LIMIT) expect(counts, JSON.stringify(perWorker)).toEqual({ 200: TOKEN_LIMIT, 429: 25 - TOKEN_LIMIT });
    else expect(counts[200], JSON.stringify({ counts, perWorker })).toBeGreaterThanOrEqual(TOKEN_LIMIT / 2);

    // The token endpoint, 30 a minute per client id, over both workers.
    const tokenCounts = await tokenEndpointBurst([authUrl], 40);
    expect(tokenCounts[429], JSON.stringify({ tokenCounts, warnings: logLines(server).filter((line) => line.level !== 'info') })).toBe(40 - TOKEN_ENDPOINT_LIMIT);
    expect(tokenCounts[401]).toBe(TOKEN_ENDPOINT_LIMIT);

    // METRICS_PORT: the primary answers the sum over the workers.
    const okSoFar = served().filter((line) => line.status === 200).length;
    expect(metricsUrl).not.toBeNull();
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    const series = text.split('\n').find((line) => line.startsWith('waybill_http_request_duration_seconds_count{') && line.includes('route="/api/p/v{version}/subsidiaries"') && line.includes('status="200"'));
    expect(series, text).toBeDefined();
    expect(Number(series!.split(' ').pop())).toBe(okSoFar);
    expect(text.match(/^waybill_webhook_deliveries_pending /m)).not.toBeNull();

    // A worker killed outright is logged and replaced; the port keeps answering.
    process.kill(workerPids[0]!, 'SIGKILL');
    await server.waitFor(/an API worker died unexpectedly; starting another/, 30_000);
    const everyWorker = () => [...new Set(logLines(server).filter((line) => line.msg === 'API worker listening').map((line) => line.pid!))];
    await until(() => everyWorker().length === 3, 'a third worker', 60_000);
    const allWorkers = everyWorker();
    for (let i = 0; i < 4; i++) expect((await send(`${apiUrl}/healthz`)).status).toBe(200);

    // SIGTERM to the primary: every process stops, exit code 0.
    const code = await server.stop();
    expect(code, server.output().slice(-3000)).toBe(0);
    for (const pid of allWorkers) expect(alive(pid), `worker ${pid} outlived the primary`).toBe(false);
  }, SLOW);

  it('stops with exit code 1 when workers keep dying (the crash-loop brake)', async () => {
    const database = await scratchDatabase();
    databases.push(database);
    const server = start(database.url, { WEB_CONCURRENCY: '2' });
    await ready(server);
    let exited = false;
    const code = new Promise<number | null>((resolve) => server.child.on('exit', resolve));
    void code.then(() => (exited = true));
    // Every worker the primary forks is killed as soon as it appears.
    const killed = new Set<number>();
    while (!exited && killed.size < 20) {
      for (const pid of childrenOf(server.child.pid!)) {
        if (killed.has(pid)) continue;
        killed.add(pid);
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await code).toBe(1);
    expect(server.output()).toContain('API workers keep dying (5 within 60 s): stopping');
    expect(killed.size).toBeGreaterThanOrEqual(5);
    for (const pid of killed) expect(alive(pid)).toBe(false);
  }, SLOW);

  it('two separate npm start processes on one database hold the limits together', async () => {
    const database = await scratchDatabase();
    databases.push(database);
    // One after the other: the first migrates and loads the demo data into the empty database.
    const first = await ready(start(database.url));
    const second = await ready(start(database.url));
    expect(first.apiUrl).not.toBe(second.apiUrl);

    const counts = await tokenBurst([first.apiUrl, second.apiUrl], first.authUrl, 24);
    expect(counts).toEqual({ 200: TOKEN_LIMIT, 429: 24 - TOKEN_LIMIT });

    const tokenCounts = await tokenEndpointBurst([first.authUrl, second.authUrl], 40);
    expect(tokenCounts[429]).toBe(40 - TOKEN_ENDPOINT_LIMIT);
    expect(tokenCounts[401]).toBe(TOKEN_ENDPOINT_LIMIT);
  }, SLOW);
});
