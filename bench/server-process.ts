import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { AUDIENCE, SECRET_KEY } from '../test/harness.js';
import type { LoadResult } from './position-load.js';

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

/**
 * `node …args`, pinned with taskset to the cores `cpus` lists (`0`, `1-3`) when given: the
 * benchmarks pin the servers with BENCH_SERVER_CPUS and the load generators with BENCH_LOAD_CPUS,
 * so each side has cores of its own and a run shows what a given number of cores serves.
 */
export function nodeCommand(args: string[], cpus: string | undefined): [string, string[]] {
  return cpus ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];
}

/**
 * Pins this process (every thread of it) to the cores BENCH_SERVER_CPUS lists, for the benches
 * that serve from their own process (the read bench's servers); nothing without it.
 */
export function pinServerProcess(): void {
  const cpus = process.env.BENCH_SERVER_CPUS;
  if (!cpus) return;
  const pinned = spawnSync('taskset', ['-a', '-cp', cpus, String(process.pid)], { encoding: 'utf8' });
  if (pinned.status !== 0) throw new Error(`taskset could not pin the bench to cores ${cpus}: ${pinned.stderr}`);
}

/**
 * The processes a benchmark started, killed when it exits however it ends (a failed assertion,
 * a closed pipe on its output): a server left behind keeps its dispatcher and its connections
 * busy and slows every later run on the machine.
 */
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Keeps `child` among `children` until it exits. */
function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * Waybill servers running on this machine that this benchmark did not start (Linux: read from
 * /proc): left over from an interrupted run, they take CPU and Postgres connections from the
 * one measured. The benches print them before they measure.
 */
export function strayServers(): string[] {
  if (!existsSync('/proc')) return [];
  const ours = new Set([...children].map((child) => String(child.pid)));
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || ours.has(pid) || pid === String(process.pid)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (/bin\/(start|api-worker|worker)\.(js|ts)/.test(command)) found.push(`${pid} ${command}`);
  }
  return found;
}

/** Prints a warning naming `strayServers()`, if any. */
export function warnAboutStrayServers(label: string): void {
  const stray = strayServers();
  if (stray.length === 0) return;
  console.log(`[${label}] WARNING: ${stray.length} Waybill server process(es) this run did not start are running and will skew it (kill them first):`);
  for (const line of stray) console.log(`[${label}]   ${line}`);
}

/** Starts a Node script and resolves once it printed the line `ready` matches. */
export function startProcess(script: string, env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  // BENCH_SERVER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the servers.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const [command, args] = nodeCommand([...nodeArgs, script], process.env.BENCH_SERVER_CPUS);
  const child = track(spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
  // BENCH_SERVER_OUTPUT=<file> keeps what the servers print (request log lines with their
  // durations, `--trace-gc` lines), to find what a slow request met.
  const keep = process.env.BENCH_SERVER_OUTPUT;
  if (keep) {
    const file = createWriteStream(keep, { flags: 'a' });
    child.stdout!.on('data', (chunk: Buffer) => file.write(chunk));
    child.stderr!.on('data', (chunk: Buffer) => file.write(chunk));
    child.on('exit', () => file.end());
  }
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

/**
 * The real server, as `npm start` runs it, seeded with the benchmark's fixture: this one, or
 * another ref's (`startScript` of `buildBaseline`); `env` adds settings (WEB_CONCURRENCY).
 */
export async function startServer(
  databaseUrl: string,
  fixturePath: string,
  rateLimits: boolean,
  options: { env?: Record<string, string>; startScript?: string } = {},
): Promise<Started> {
  const { env = {}, startScript = join(here, '..', 'bin', 'start.js') } = options;
  const { child, match } = await startProcess(
    startScript,
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

/**
 * Runs a load generator of this folder (`position-load.js`, `fuel-load.js`) in its own process,
 * so it never shares an event loop with the server it measures: `plan` goes to it as the JSON
 * file `planPath`; answers the one JSON result line it prints.
 */
export function runLoadGenerator(script: string, planPath: string, plan: unknown): Promise<LoadResult> {
  writeFileSync(planPath, JSON.stringify(plan));
  return new Promise((resolve, reject) => {
    const [command, args] = nodeCommand([join(here, script), planPath], process.env.BENCH_LOAD_CPUS);
    const child = track(spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] }));
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
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

/** Drops the databases `createBenchDatabase` made on the server of `url`. */
export async function dropBenchDatabases(url: string, names: readonly string[]): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  } finally {
    await admin.end();
  }
}

/** The server of another git ref, compiled and ready to start with `startServer`. */
export interface BaselineBuild {
  ref: string;
  commit: string;
  startScript: string;
  /** Removes the temporary worktree. */
  dispose(): void;
}

function run(command: string, args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

function must(command: string, args: string[], cwd: string): string {
  const { status, output } = run(command, args, cwd);
  if (status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${status}):\n${output}`);
  return output.trim();
}

/**
 * BENCH_BASELINE: the server of another git ref, to measure a change against what came before
 * it in one run, on one machine under one load. A temporary `git worktree` of the ref shares
 * this project's node_modules (symlinked) and is compiled the way `npm run bench` compiles this
 * one (its tsconfig.bench.json; tsconfig.build.json into the same folder for a ref without
 * one). Type errors alone do not stop it (tsc still emits), a missing entry point does.
 */
export function buildBaseline(ref: string): BaselineBuild {
  // Compiled into .bench-build/bench/: the project is two folders up.
  const root = join(here, '..', '..');
  const commit = must('git', ['rev-parse', '--verify', `${ref}^{commit}`], root);
  const dir = join(mkdtempSync(join(tmpdir(), 'waybill-baseline-')), 'tree');
  must('git', ['worktree', 'add', '--detach', dir, commit], root);
  const modules = join(dir, 'node_modules');
  const dispose = () => {
    if (existsSync(modules)) unlinkSync(modules);
    run('git', ['worktree', 'remove', '--force', dir], root);
    rmSync(join(dir, '..'), { recursive: true, force: true });
    run('git', ['worktree', 'prune'], root);
  };
  try {
    symlinkSync(realpathSync(join(root, 'node_modules')), modules, 'dir');
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const config = existsSync(join(dir, 'tsconfig.bench.json')) ? ['-p', 'tsconfig.bench.json'] : ['-p', 'tsconfig.build.json', '--outDir', '.bench-build'];
    const compiled = run(process.execPath, [tsc, ...config], dir);
    const startScript = join(dir, '.bench-build', 'bin', 'start.js');
    if (!existsSync(startScript)) throw new Error(`${ref} (${commit}) did not compile to ${startScript}:\n${compiled.output}`);
    if (compiled.status !== 0) console.log(`[baseline] ${ref} compiled with type errors (emitted anyway):\n${compiled.output.slice(0, 2000)}`);
    return { ref, commit, startScript, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}
