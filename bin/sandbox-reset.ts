import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { projectRoot } from '../adapters/project-root.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { formatFixtureSummary, loadFixture } from '../seeding/load-fixture.js';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { resolveSecretKey } from './secret-key.js';

/**
 * `npm run sandbox:reset`: throws the sandbox's SQLite database away and builds it again from
 * the demo data, as a first `npm start` would. Only for a SQLite file and never with
 * NODE_ENV=production, so it cannot wipe a real database. Stop `npm start` first: the server
 * keeps the old file open.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  if (config.production) {
    console.error('sandbox:reset refuses to run with NODE_ENV=production.');
    return 1;
  }
  const url = config.databaseUrl;
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : '';
  if (!path || path === ':memory:') {
    console.error(`sandbox:reset only rebuilds a SQLite file database (DATABASE_URL=sqlite:<path>); got ${url.startsWith('sqlite:') ? url : 'a non-SQLite URL'}.`);
    return 1;
  }
  const file = resolve(path);
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  const db = createDb(url);
  try {
    await migrateToLatest(db);
    const demoPath = join(projectRoot(), 'fixtures', 'demo.json');
    const summary = await loadFixture(db, JSON.parse(await readFile(demoPath, 'utf8')), { clock: systemClock, secretKey: resolveSecretKey(config) });
    console.log(`Rebuilt ${file} with the demo data:`);
    console.log(formatFixtureSummary(summary));
    return 0;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(`sandbox:reset failed: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
});
