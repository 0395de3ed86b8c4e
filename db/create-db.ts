import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { withAfterCommit } from './after-commit.js';
import type { Database } from './database.js';
import { SAFETY_NET_PAGES, startCheckpointer } from './sqlite-checkpointer.js';
import { withPreparedStatements } from './postgres-statement-cache.js';
import { withStatementCache } from './sqlite-statement-cache.js';
import { warmConnection } from './warm-connection.js';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

const dialects = new WeakMap<Kysely<any>, Dialect>();
const sqliteHandles = new WeakMap<Kysely<any>, SQLite.Database>();
const postgresPools = new WeakMap<Kysely<any>, pg.Pool>();
/** A Postgres database's URL and options, and the `plannedOnce` one beside it once made. */
const postgresOrigins = new WeakMap<Kysely<any>, { url: string; options: CreateDbOptions; plannedOnce: Db | null }>();

/** The one place that knows which database a Kysely instance talks to. */
export function dialectOf(db: Kysely<any>): Dialect {
  const found = dialects.get(db);
  if (found) return found;
  // Transactions are new Kysely instances; fall back to the adapter's class.
  const adapter = db.getExecutor().adapter.constructor.name;
  return adapter.startsWith('Postgres') ? 'postgres' : 'sqlite';
}

export interface CreateDbOptions {
  /** Postgres only: a schema to create and use as search_path (test isolation). */
  schema?: string;
  /** Postgres pool size. */
  maxConnections?: number;
  /**
   * Postgres: named prepared statements kept per connection (`postgres-statement-cache.ts`);
   * 0 runs every statement unnamed. Default 200.
   */
  statementCache?: number;
  /**
   * In-memory SQLite only: start from a copy of this image (`sqliteImage`) instead of an empty
   * database. Tests open a migrated database this way in milliseconds instead of migrating each.
   */
  sqliteImage?: Buffer;
  /** SQLite file: WAL pages at which the log is started over (db/sqlite-checkpointer.ts); tests use fewer. */
  walRestartPages?: number;
  /**
   * Postgres, for servers: each new connection is warmed before it is handed out
   * (db/warm-connection.ts) and the pool keeps all `maxConnections` open once `fillPool` opened
   * them, so no caller's request meets a cold connection.
   */
  warmConnections?: boolean;
  /**
   * Postgres: every named statement runs its generic plan, planned once per connection
   * (plan_cache_mode = force_generic_plan), never a plan made for its parameters. For the
   * connections of `plannedOnce`.
   */
  genericPlans?: boolean;
}

/** A file database's page cache, in KiB (see createSqlite). */
export const PAGE_CACHE_KIB = 65_536;

/** `sqlite::memory:`, `sqlite:<path>` or `postgres://…`. */
export function createDb(url: string, options: CreateDbOptions = {}): Db {
  if (url.startsWith('sqlite:')) return createSqlite(url.slice('sqlite:'.length), options);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return createPostgres(url, options);
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${redactUrl(url)}"`);
}

function createSqlite(path: string, options: CreateDbOptions): Db {
  const image = options.sqliteImage;
  const memory = path === ':memory:' || path === '';
  if (image && !memory) throw new Error('a SQLite image opens only as an in-memory database');
  if (!memory) mkdirSync(dirname(path), { recursive: true });
  // better-sqlite3 opens a Buffer as an in-memory database holding a copy of those bytes.
  const database = new SQLite(image ?? (memory ? ':memory:' : path));
  if (!memory) database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  // SQLite's default page cache is 2 MB. A position batch dirties index pages spread over the
  // history's indexes, the counters and the latest positions, which thrashed it: in process, at
  // 13,400 trucks, 64 MiB took the batch path from 216-238 to 201 µs a reading (the bare
  // server's from 122 to 109). A cap, not an allocation; an in-memory database keeps every page.
  if (!memory) database.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  const checkpointer = memory ? null : startCheckpointer(database, path, options.walRestartPages);
  if (checkpointer) database.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  const cached = withStatementCache(database);
  const close = () => {
    if (checkpointer) {
      checkpointer.stop();
      truncateWal(database);
    }
    cached.close();
  };
  const db = new Kysely<Database>({ dialect: withAfterCommit(new SqliteDialect({ database: { ...cached, close } }), checkpointer ? () => checkpointer.afterCommit() : undefined) });
  dialects.set(db, 'sqlite');
  sqliteHandles.set(db, database);
  return db;
}

/** A 10 ms pause of the calling thread, for a retry at shutdown. */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * At shutdown a checkpoint may wait: the file alone is then the whole database again. The
 * checkpointing worker may be in its own checkpoint when it is told to stop, and a checkpoint
 * meeting another one answers busy at once (the busy timeout does not apply to it), so this
 * tries again for up to a second. Still busy: the WAL stays beside the file and is read on the
 * next open.
 */
function truncateWal(database: SQLite.Database): void {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      const [result] = database.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (!result || result.busy === 0) return;
    } catch {
      // Locked this time.
    }
    Atomics.wait(pause, 0, 0, 10);
  }
}

/** SQLite: the whole database as bytes, to open copies of it with `createDb(url, { sqliteImage })`. */
export function sqliteImage(db: Db): Buffer {
  const database = sqliteHandles.get(db);
  if (!database) throw new Error('sqliteImage needs a SQLite database made by createDb');
  return database.serialize();
}

// int8 (bigint, COUNT) as a JS number so both dialects return the same type; money in minor
// units stays far below 2^53.
const pgTypes = {
  getTypeParser: (oid: number, format?: any) =>
    oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
};

export const DEFAULT_STATEMENT_CACHE = 200;

/**
 * How long a pooled Postgres connection may sit idle before it is closed (pg's default is 10 s),
 * in pools not kept full by `warmConnections`. A new connection starts cold: our named
 * statements are prepared again, and Postgres plans each trigger function's statements on its
 * first call in that session (db/warm-connection.ts). Ten connections a process held for five
 * quiet minutes cost Postgres little.
 */
const IDLE_CONNECTION_MS = 5 * 60_000;

function createPostgres(url: string, options: CreateDbOptions): Db {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new Error('schema must be a plain lower-case identifier');
  }
  const max = options.maxConnections ?? 10;
  const settings = [...(schema ? [`-c search_path=${schema}`] : []), ...(options.genericPlans ? ['-c plan_cache_mode=force_generic_plan'] : [])];
  const pool = new pg.Pool({
    connectionString: withStartupOptions(url, settings),
    max,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    ...(options.warmConnections ? { min: max, onConnect: warmConnection } : {}),
    types: pgTypes,
  });
  const prepared = withPreparedStatements(pool, options.statementCache ?? DEFAULT_STATEMENT_CACHE);
  const origin: { url: string; options: CreateDbOptions; plannedOnce: Db | null } = { url, options, plannedOnce: null };
  const db = new Kysely<Database>({ dialect: withAfterCommit(new PostgresDialect({ pool: prepared })) });
  // Destroying this database ends the pool made beside it (`plannedOnce`), used or not.
  const destroy = db.destroy.bind(db);
  db.destroy = async () => {
    await origin.plannedOnce?.destroy();
    await destroy();
  };
  dialects.set(db, 'postgres');
  postgresPools.set(db, pool);
  postgresOrigins.set(db, origin);
  return db;
}

/**
 * `url` with `settings` added to its startup options (`?options=`), after any it has: every
 * pooled connection has them from its first query. (pg takes a URL's `options` over the
 * client's own, so they go into the URL.)
 */
function withStartupOptions(url: string, settings: readonly string[]): string {
  if (settings.length === 0) return url;
  const parsed = new URL(url);
  const given = parsed.searchParams.get('options');
  parsed.searchParams.set('options', [...(given ? [given] : []), ...settings].join(' '));
  return parsed.toString();
}

/**
 * Connections of a `plannedOnce` pool (at most its database's own pool size): the position
 * batch committing, the next one's transaction opened before its turn, the lookups of the one
 * after, and one to spare.
 */
const PLANNED_ONCE_CONNECTIONS = 4;

/**
 * For a hot path whose statements have one good plan whatever their parameters (position
 * ingestion): on Postgres, a small pool beside `db`'s, on the same database and schema, whose
 * connections run each named statement's generic plan (`genericPlans`). Postgres otherwise plans
 * a statement afresh for each execution's parameters whenever its generic plan looks dearer
 * than the plans it made so far; with arrays as parameters it always does (their length is
 * known to a custom plan only), and at a real carrier's size that planning cost a position
 * batch about as much as running its statements (bench/load-writes.bench.ts). One instance per
 * `db`, ended with it. SQLite, or a database not made by createDb (a plugin's copy): `db` itself.
 */
export function plannedOnce(db: Db): Db {
  const origin = postgresOrigins.get(db);
  if (!origin) return db;
  if (!origin.plannedOnce) {
    const { schema, statementCache, warmConnections } = origin.options;
    const maxConnections = Math.min(PLANNED_ONCE_CONNECTIONS, origin.options.maxConnections ?? PLANNED_ONCE_CONNECTIONS);
    origin.plannedOnce = createPostgres(origin.url, { schema, statementCache, warmConnections, maxConnections, genericPlans: true });
  }
  return origin.plannedOnce;
}

/**
 * Postgres: opens every connection of the pool now (each warmed when the pool was created with
 * `warmConnections`), at start-up rather than on callers' requests. A connection that cannot be
 * opened (the server's connection limit) is left to be opened on demand, as before. SQLite: nothing.
 */
export async function fillPool(db: Db): Promise<void> {
  const pool = postgresPools.get(db);
  if (!pool) return;
  const opened = await Promise.allSettled(Array.from({ length: pool.options.max }, () => pool.connect()));
  for (const result of opened) if (result.status === 'fulfilled') result.value.release();
}

/** Postgres: create a schema (for test isolation) on a short-lived connection. */
export async function createSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('schema must be a plain lower-case identifier');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    await client.end();
  }
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('schema must be a plain lower-case identifier');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** Whether the database answers; used by /healthz. */
export async function pingDb(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
