import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb, createSchema, dropSchema, type Db } from '../../db/create-db.js';
import { testDatabaseKind } from './database.js';
import { SECRET_KEY } from '../harness.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The arguments for node to run a bin/ script from the production build, e.g.
 * `builtBin('start')` → `['dist/bin/start.js']`. The processes lanes build dist/ first
 * (test/support/build-setup.ts). Tests about behaviour start servers and the CLI this way:
 * under tsx every start compiles the sources again. start.test.ts keeps `npm start` as the
 * README has users run it.
 */
export function builtBin(name: string): string[] {
  return [join(ROOT, 'dist', 'bin', `${name}.js`)];
}

export interface ServerProcess {
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the output once it matches, or rejects when the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * The settings a test gives a server it starts in its own process: its database, loopback,
 * ports the OS picks, the test SECRET_KEY, a signing key made at start (no key file), quiet
 * logs; `extra` adds or overrides.
 */
export function serverEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: '0',
    AUTH_PORT: '0',
    SECRET_KEY: SECRET_KEY.toString('utf8'),
    JWT_PRIVATE_KEY: '',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** A command in its own process (its own process group, so a test can signal exactly it). */
export function startProcess(command: string, args: string[], env: Record<string, string>): ServerProcess {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const listener of listeners) listener();
  });
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`timed out waiting for ${pattern}:\n${output}`)), timeoutMs);
        const check = () => {
          if (pattern.test(output)) finish(null);
          else if (done) finish(new Error(`the process exited before printing ${pattern}:\n${output}`));
        };
        const finish = (error: Error | null) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve(output);
        };
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (!done) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface ScratchDatabase {
  /** The URL a server process gets as DATABASE_URL. */
  url: string;
  /** The test's own connection to the same data. */
  db: Db;
  dispose(): Promise<void>;
}

/** An empty database another process can open: a SQLite file, or a Postgres schema named in the URL. */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  if (testDatabaseKind() === 'postgres') {
    const base = process.env.TEST_DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await createSchema(base, schema);
    const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const db = createDb(base, { schema, maxConnections: 2 });
    return {
      url,
      db,
      async dispose() {
        await db.destroy();
        await dropSchema(base, schema);
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'waybill-start-'));
  const url = `sqlite:${join(dir, 'freight.db')}`;
  const db = createDb(url);
  return {
    url,
    db,
    async dispose() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The URLs a started server printed in its banner. */
export function bannerUrls(output: string): { apiUrl: string; authUrl: string; metricsUrl: string | null } {
  const apiUrl = /API host: +(\S+)/.exec(output)?.[1];
  const authUrl = /Token host: +(\S+)/.exec(output)?.[1];
  if (!apiUrl || !authUrl) throw new Error(`no URLs in the banner:\n${output}`);
  const metrics = /Metrics: +(\S+)\/metrics/.exec(output)?.[1] ?? null;
  return { apiUrl, authUrl, metricsUrl: metrics };
}
