import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely's SQLite driver prepares every statement it runs, and with better-sqlite3 the prepare
 * (parsing and planning the SQL) costs more than running a small query: in the position
 * benchmark it was the largest single cost. Kysely compiles the same SQL text for the same
 * query shape (values travel as parameters), so a bounded cache keyed by the SQL text reuses
 * the prepared statement. A statement still held by an open iterator (a streamed export) is
 * busy and cannot run again until it finishes, so such a call gets a fresh one.
 */
export function withStatementCache(database: SQLite.Database, capacity = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      if (cached) return cached.busy ? database.prepare(sql) : cached;
      const statement = database.prepare(sql);
      // Oldest first out: Map keeps insertion order.
      if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
      cache.set(sql, statement);
      return statement;
    },
  };
}
