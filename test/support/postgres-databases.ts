import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from '../../db/create-db.js';
import { migrateToLatest } from '../../db/migrate.js';

/**
 * Postgres test databases as copies of a template: an image (the migrated database, or one with
 * a fixture loaded) is a database of its own, made once per run, and every test database is
 * `CREATE DATABASE … TEMPLATE image`. Postgres copies the image's files instead of running its
 * DDL again: about 0.2 s a copy where replaying the schema as SQL took 0.4 to 2.5 s.
 *
 * A copy needs no other session connected to its template (Postgres waits up to 5 s for one to
 * go, then refuses): an image's own connections are closed before its name is handed out, and
 * nothing else connects to it, so two workers copying one image at once is safe.
 *
 * Every database of a run is named after the run (`runPrefix`, set by the run's global setup,
 * test/support/global-setup.ts); its teardown drops whatever a test left (a crashed worker's
 * copies) and the images. Other runs on the same server (another clone's) use other names.
 */

/** The prefix of this run's databases; null outside a vitest run (no teardown to drop them). */
export function runPrefix(): string | null {
  return process.env.WAYBILL_TEST_PG_RUN ?? null;
}

/** A new run's prefix: `wbt_` and 8 hex digits. */
export function newRunPrefix(): string {
  return `wbt_${randomBytes(4).toString('hex')}`;
}

/** A database made by migrating and then `fill`ing, to copy; its name. */
export async function createImageDatabase(url: string, run: string, fill: (db: Db) => Promise<void>): Promise<string> {
  const name = `${run}_i${randomBytes(3).toString('hex')}`;
  // template0: nothing another tool added to template1 ends up in the tests' databases.
  await query(url, `CREATE DATABASE ${identifier(name)} TEMPLATE template0`);
  try {
    const db = createDb(databaseUrl(url, name), { maxConnections: 4 });
    try {
      await migrateToLatest(db);
      await fill(db);
    } finally {
      await db.destroy();
    }
  } catch (error) {
    await dropDatabase(url, name);
    throw error;
  }
  return name;
}

/**
 * A new database holding a copy of `template`; its URL. Its sessions commit without waiting
 * for the WAL to reach the disk (synchronous_commit=off): a test database need not survive a
 * crash of the server, and what other sessions see is the same; each commit of a test saves
 * the wait for a flush (about 9 ms each on the 2-core CI machine under load).
 */
export async function copyDatabase(url: string, template: string): Promise<string> {
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  await query(url, `CREATE DATABASE ${identifier(name)} TEMPLATE ${identifier(template)}`);
  return withOptions(databaseUrl(url, name), '-c synchronous_commit=off');
}

/** Drops a database, ending any session still in it (a pool's connection on its way out). */
export async function dropDatabase(url: string, name: string): Promise<void> {
  await query(url, `DROP DATABASE IF EXISTS ${identifier(name)} WITH (FORCE)`);
}

/** Drops every database of the run: the copies first, then the images they were made from. */
export async function dropRunDatabases(url: string, run: string): Promise<void> {
  const { rows } = await query<{ name: string }>(url, `SELECT datname AS name FROM pg_database WHERE datname LIKE $1 ORDER BY length(datname) DESC`, [
    `${identifier(run).replaceAll('_', '\\_')}\\_%`,
  ]);
  for (const { name } of rows) await dropDatabase(url, name);
}

/** The database a URL names. */
export function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/** `url` with startup options (`-c name=value`), the way any libpq-style client takes them. */
export function withOptions(url: string, options: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(options)}`;
}

function databaseUrl(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Names made here only: checked all the same, as they go into SQL unquoted. */
function identifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return name;
}

/** On a connection of its own to `url`'s database: CREATE and DROP DATABASE run outside a transaction. */
async function query<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query<R>(text, values);
  } finally {
    await client.end();
  }
}
