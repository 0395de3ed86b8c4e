import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { AUDIENCE, SECRET_KEY } from '../test/harness.js';

/**
 * The server processes the HTTP benchmarks measure: `npm start`'s own entry point (migrations,
 * SEED fixture, both hosts, dispatcher, request logs) or a bare node:http server, each in its
 * own process, plus a fresh Postgres database per benchmark.
 */
const here = fileURLToPath(new URL('.', import.meta.url));

export interface Started {
  child: ChildProcess;
  apiUrl: string;
  authUrl?: string;
}

/** Starts a Node script and resolves once it printed the line `ready` matches. */
export function startProcess(script: string, env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  // BENCH_SERVER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the servers.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    let found = false;
    // Keep draining both pipes after start-up: the server logs every request to stdout.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (found) return;
      out += chunk.toString();
      const match = out.match(ready);
      if (match) {
        found = true;
        resolve({ child, match });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => {
      if (!found) reject(new Error(`${script} exited with ${code}:\n${err}\n${out.slice(-2000)}`));
    });
  });
}

/** The real server, as `npm start` runs it, seeded with the benchmark's fixture; `env` adds settings (WEB_CONCURRENCY). */
export async function startServer(databaseUrl: string, fixturePath: string, rateLimits: boolean, env: Record<string, string> = {}): Promise<Started> {
  const { child, match } = await startProcess(
    join(here, '..', 'bin', 'start.js'),
    {
      DATABASE_URL: databaseUrl,
      SEED: fixturePath,
      PORT: '0',
      AUTH_PORT: '0',
      SECRET_KEY: SECRET_KEY.toString('utf8'),
      API_AUDIENCE: AUDIENCE,
      RATE_LIMITS: rateLimits ? 'on' : 'off',
      NODE_ENV: '',
      ...env,
    },
    /API host:\s+(\S+)[\s\S]*Token host:\s+(\S+)/,
  );
  return { child, apiUrl: match[1]!, authUrl: match[2]! };
}

/** A bare server of this folder (`bare-*.js`), printing `listening <url>` when ready. */
export async function startBare(script: string, databaseUrl: string): Promise<Started> {
  const { child, match } = await startProcess(join(here, script), { DATABASE_URL: databaseUrl }, /listening (\S+)/);
  return { child, apiUrl: match[1]! };
}

export function stop(started: Started): Promise<void> {
  return new Promise((resolve) => {
    started.child.once('exit', () => resolve());
    started.child.kill('SIGTERM');
  });
}

/** A fresh database `name` on the Postgres server of `url`; answers its URL. */
export async function createBenchDatabase(url: string, name: string): Promise<string> {
  const target = new URL(url);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  target.pathname = `/${name}`;
  return target.toString();
}
