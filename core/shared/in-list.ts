import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { dialectOf, type Dialect } from '../../db/create-db.js';

/**
 * `ref IN (values)` for the batch statements of position ingestion, whose lists change length
 * with every batch. On Postgres it is `ref = any($1::text[])`: one array parameter, so the
 * statement's text is the same whatever the batch, and db/postgres-statement-cache.ts prepares it
 * once per connection: parsed once, and planned once too where Postgres finds a plan for any
 * values as cheap as one for the batch's (constants written into the text help it: see
 * core/visibility/position-trip.repository.ts). SQLite keeps `IN (?, …)`, which its planner
 * turns into index probes and whose prepare is cheap in process.
 */
export function inList(on: Kysely<any> | Dialect, ref: string, values: readonly string[]): Expression<SqlBool> {
  const dialect = typeof on === 'string' ? on : dialectOf(on);
  if (dialect === 'postgres') return sql<SqlBool>`${sql.ref(ref)} = any(${[...values]}::text[])`;
  return sql<SqlBool>`${sql.ref(ref)} in (${sql.join(values)})`;
}
