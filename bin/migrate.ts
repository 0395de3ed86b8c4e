import { loadConfig } from '../core/config.js';
import { createDb, redactUrl } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';

/** `npm run migrate`: applies pending migrations to DATABASE_URL and names each one applied. */
async function main(): Promise<number> {
  let databaseUrl = '(unset)';
  try {
    const config = loadConfig();
    databaseUrl = redactUrl(config.databaseUrl);
    const db = createDb(config.databaseUrl);
    try {
      const applied = await migrateToLatest(db);
      if (applied.length === 0) console.log(`${databaseUrl}: already up to date`);
      for (const name of applied) console.log(`applied ${name}`);
    } finally {
      await db.destroy();
    }
    return 0;
  } catch (error) {
    console.error(`migrate failed on ${databaseUrl}: ${oneLine(error)}`);
    return 1;
  }
}

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s*\n\s*/g, ' ');
}

process.exitCode = await main();
