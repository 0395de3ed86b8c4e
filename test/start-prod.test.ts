import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.js';
import { bannerUrls, ROOT, scratchDatabase, serverEnv, startProcess } from './support/server-process.js';

// The production build (`npm run build`, which CI runs before the tests). Without it, the test
// is skipped locally and fails in CI. It does not touch the database kind: SQLite only.
const built = existsSync(join(ROOT, 'dist', 'bin', 'start.js'));
const run = testDatabaseKind() === 'sqlite' && (built || Boolean(process.env.CI));

function portOpen(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
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

describe.runIf(run)('npm run start:prod', () => {
  it('stops the server when npm gets SIGTERM: no orphan, the ports closed', async () => {
    expect(built, 'run npm run build first').toBe(true);
    const database = await scratchDatabase();
    const npm = startProcess('npm', ['run', '--silent', 'start:prod'], serverEnv(database.url, {
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SEED: '',
    }));
    let server = 0;
    try {
      const output = await npm.waitFor(/Token host: +\S+/);
      const { apiUrl, authUrl } = bannerUrls(output);
      expect(await portOpen(apiUrl)).toBe(true);
      // The process serving the port: npm's child (exec leaves no shell in between).
      server = Number(/(\d+)/.exec(execFileSync('pgrep', ['-P', String(npm.child.pid)]).toString())?.[1]);
      expect(server).toBeGreaterThan(0);

      npm.child.kill('SIGTERM');
      await npm.stop();
      for (let i = 0; i < 100 && alive(server); i++) await new Promise((r) => setTimeout(r, 100));
      expect(alive(server), 'the server outlived npm').toBe(false);
      expect(await portOpen(apiUrl)).toBe(false);
      expect(await portOpen(authUrl)).toBe(false);
    } finally {
      if (server && alive(server)) process.kill(server, 'SIGKILL');
      if (npm.child.pid && alive(npm.child.pid)) npm.child.kill('SIGKILL');
      await database.dispose();
    }
  }, 60_000);
});
