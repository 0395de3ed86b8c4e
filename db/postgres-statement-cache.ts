import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';

/**
 * Named prepared statements on Postgres, the counterpart of `sqlite-statement-cache.ts`.
 *
 * An unnamed statement is parsed, analysed and planned on every execution; for the joined
 * reads of a trip write that planning cost 1-2 ms against 0.05 ms of execution. Kysely compiles
 * the same SQL text for the same query shape (values travel as parameters), so each pooled
 * connection prepares a statement once under a name and later executions only bind and run it;
 * Postgres's own plan cache then decides per statement whether a generic plan is as good as a
 * custom one (`plan_cache_mode = auto`: custom plans for the first five runs, a generic plan
 * afterwards only if its estimated cost is no worse), so a statement whose best plan depends on
 * its values keeps being planned for them.
 *
 * A text is prepared from its second run in the process on (see `seen`). Each connection keeps
 * at most `capacity` statements, least recently used out. An evicted statement is closed with a
 * protocol Close message written just before the connection's next query, which costs no round
 * trip (the server answers CloseComplete with that query's replies, and pg ignores it); it is
 * written only while the connection is idle, so it can never land between a queued query and its
 * own Parse. Statements without parameters (BEGIN, COMMIT,
 * SET LOCAL) keep the simple protocol. Pooled connections are the pg `Client` objects the pool
 * keeps, so the patch and the cache live as long as the connection.
 *
 * A transaction's BEGIN costs no round trip of its own. Kysely sends `begin` as a statement and
 * waits for it; here it is only noted, and sent with the transaction's first statement that has
 * parameters, in the same write: Bind and Execute of BEGIN (prepared once per connection under
 * BEGIN_NAME), then that statement's own messages and one Sync. Postgres runs them in order, so
 * the statement runs inside the transaction, and an error in either fails that statement as it
 * would have failed on its own. `begunQuery` drops BEGIN's CommandComplete so the statement's
 * result is its own. A transaction whose first statement has no parameters (COMMIT, ROLLBACK,
 * SET LOCAL) or is not a text (a cursor) sends BEGIN as before, first; an empty transaction
 * sends nothing. Every transaction of a request pays one round trip less; a position batch, one
 * statement less.
 *
 * A table altered after a statement was prepared (a migration run by a newer release while this
 * one still serves) makes a statement that returns its rows fail with "cached plan must not
 * change result type". Outside a transaction the statement runs again unnamed at once; inside
 * one the transaction has failed already, so the error stands. Either way every connection of
 * the process drops all its statements before its next query, so a schema change costs at most
 * one failed transaction per process rather than one per statement and connection.
 */
const CHANGED_RESULT_TYPE = 'cached plan must not change result type';

let nextName = 0;

/** The name BEGIN is prepared under on each connection, for the transactions' first statements to carry. */
export const BEGIN_NAME = 'wb_begin';

/**
 * The texts the process has run, oldest first. A statement is prepared only on its second run:
 * a text that varies with its input (a multi-row insert, an IN list of a batch's ids) rarely
 * repeats, and preparing each would push the statements that do out of the connections' caches.
 */
const seen = new Set<string>();
const SEEN_LIMIT = 4_000;

function seenBefore(text: string): boolean {
  if (seen.has(text)) return true;
  if (seen.size >= SEEN_LIMIT) seen.delete(seen.values().next().value as string);
  seen.add(text);
  return false;
}

/** Bumped when a statement met a changed table: every connection then drops all it prepared. */
let generation = 0;

interface ClientCache {
  /** SQL text to statement name, least recently used first (Map keeps insertion order). */
  names: Map<string, string>;
  /** Names evicted from `names`, to close when the connection is next idle. */
  closing: string[];
  generation: number;
}

/** pg's Client internals this relies on (pg 8.23, pinned in package.json). */
interface PgInternals {
  readyForQuery: boolean;
  _activeQuery: unknown;
  _queryQueue: unknown[];
  connection: PgConnection;
}

/** pg's Connection, as `begunQuery` writes to it. */
interface PgConnection {
  parsedStatements: Record<string, string>;
  close(message: { type: 'S'; name: string }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  execute(message: { portal: string; rows?: number }): void;
}

type QueryConfig = { text: string; name?: string; values: unknown[] };

/** pg's Query, with the parts `begunQuery` overrides. */
type PgQuery = {
  prepare(connection: PgConnection): void;
  handleCommandComplete(message: unknown, connection: PgConnection): void;
};

const PgQueryClass = (pg as unknown as { Query: new (config: QueryConfig, values: undefined, callback: (error: Error | null, result: pg.QueryResult) => void) => PgQuery }).Query;

/**
 * A parameterised statement that opens the transaction first, in the same write: Bind and
 * Execute of the connection's prepared BEGIN ahead of the statement's own Parse (when not yet
 * prepared), Bind, Describe, Execute and Sync. BEGIN's CommandComplete is the first to come
 * back and is dropped; no ParseComplete comes for it, so pg's note of what is prepared stays
 * the statement's own.
 */
function begunQuery(submit: (query: PgQuery) => unknown, config: QueryConfig): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new PgQueryClass(config, undefined, (error, result) => (error ? reject(error) : resolve(result)));
    const prepare = query.prepare.bind(query);
    const handleCommandComplete = query.handleCommandComplete.bind(query);
    let begun = false;
    query.prepare = (connection) => {
      connection.bind({ portal: '', statement: BEGIN_NAME, values: [] });
      connection.execute({ portal: '' });
      prepare(connection);
    };
    query.handleCommandComplete = (message, connection) => {
      if (!begun) {
        begun = true;
        return;
      }
      handleCommandComplete(message, connection);
    };
    submit(query);
  });
}

export function withPreparedStatements(pool: pg.Pool, capacity: number): PostgresPool {
  if (capacity <= 0) return pool as unknown as PostgresPool;
  const patched = new WeakSet<pg.PoolClient>();
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      if (!patched.has(client)) {
        patched.add(client);
        cacheStatements(client, capacity);
      }
      return client as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}

function cacheStatements(client: pg.PoolClient, capacity: number): void {
  const internals = client as unknown as PgInternals;
  const cache: ClientCache = { names: new Map(), closing: [], generation };
  const query = client.query.bind(client) as (config: unknown, values?: unknown) => Promise<pg.QueryResult>;
  /** Kysely's `begin` was noted and not yet sent (see `begunQuery`). */
  let beginPending = false;
  /** BEGIN is prepared on this connection under BEGIN_NAME. */
  let beginPrepared = false;

  /** Sends a noted BEGIN on its own, as Kysely would have: the first one on a connection prepares it. */
  const sendBegin = (): Promise<unknown> => {
    beginPending = false;
    if (beginPrepared) return query('begin');
    beginPrepared = true;
    return query({ name: BEGIN_NAME, text: 'begin' });
  };

  const idle = () => internals.readyForQuery && !internals._activeQuery && internals._queryQueue.length === 0;

  const closeEvicted = () => {
    for (const name of cache.closing) {
      internals.connection.close({ type: 'S', name });
      delete internals.connection.parsedStatements[name];
    }
    cache.closing.length = 0;
  };

  const nameFor = (text: string): string | undefined => {
    const known = cache.names.get(text);
    if (known !== undefined) {
      // Most recently used last.
      cache.names.delete(text);
      cache.names.set(text, known);
      return known;
    }
    if (!seenBefore(text)) return undefined;
    const name = `wb${(nextName += 1).toString(36)}`;
    cache.names.set(text, name);
    if (cache.names.size > capacity) {
      const [oldText, oldName] = cache.names.entries().next().value as [string, string];
      cache.names.delete(oldText);
      cache.closing.push(oldName);
    }
    return name;
  };

  const forgetAll = () => {
    for (const name of cache.names.values()) cache.closing.push(name);
    cache.names.clear();
    cache.generation = generation;
  };

  (client as { query: unknown }).query = (config: unknown, values?: unknown) => {
    // Kysely passes (sql, parameters); anything else (a cursor, a config object) is pg's own.
    const parameters = Array.isArray(values) && values.length > 0 ? (values as unknown[]) : null;
    if (typeof config === 'string' && parameters === null) {
      const command = config.trim().toLowerCase();
      if (command === 'begin' && !beginPending && client.getTransactionStatus() === 'I') {
        beginPending = true;
        return Promise.resolve(emptyResult('BEGIN'));
      }
      // A transaction that ran nothing: nothing was sent, nothing to end.
      if (beginPending && (command === 'commit' || command === 'rollback')) {
        beginPending = false;
        return Promise.resolve(emptyResult(command.toUpperCase()));
      }
    }
    if (beginPending && typeof config !== 'string') {
      // A cursor is answered at once, not with a promise: BEGIN goes first in pg's queue, which
      // runs in order (its failure, a broken connection, fails the cursor too).
      sendBegin().catch(() => undefined);
      return query(config, values);
    }
    if (beginPending && (parameters === null || !beginPrepared)) {
      return sendBegin().then(() => client.query(config as string, values as unknown[]));
    }
    if (typeof config !== 'string') return query(config, values);
    if (cache.generation !== generation) forgetAll();
    if (cache.closing.length > 0 && idle()) closeEvicted();
    if (parameters === null) return query(config, values);
    const begin = beginPending;
    beginPending = false;
    const inTransaction = begin || client.getTransactionStatus() !== 'I';
    const name = nameFor(config);
    const run = (statement: QueryConfig) => (begin ? begunQuery(query, statement) : query(statement));
    if (name === undefined) return run({ text: config, values: parameters });
    return run({ name, text: config, values: parameters }).catch((error: unknown) => {
      if (!(error instanceof Error) || !error.message.includes(CHANGED_RESULT_TYPE)) throw error;
      generation += 1;
      forgetAll();
      if (inTransaction) throw error;
      return query(config, values);
    });
  };
}

/** What pg gives for a statement that returns no rows, for the BEGIN, COMMIT and ROLLBACK not sent. */
const emptyResult = (command: string) => ({ command, rowCount: null, oid: 0, rows: [], fields: [] }) as unknown as pg.QueryResult;
