import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { dialectOf, type Dialect } from '../../db/create-db.js';

/**
 * `ref IN (values)` for the batch statements of position ingestion, whose lists change length
 * with every batch, as one parameter: the statement's text is the same whatever the batch. On
 * Postgres it is `ref = any($1::text[])`, so db/postgres-statement-cache.ts prepares it once per
 * connection instead of Postgres planning it for every batch (the trips' seven-table read
 * planned in about 2 ms and ran in 0.3). On SQLite it is `ref in (select value from
 * json_each(?))` with the values as one JSON array: SQLite still probes the index once per
 * value, where a text per list length crowded its statement cache (500 texts, first in first
 * out: a batch's statements were prepared again) and Kysely built a node for every value.
 */
export function inList(on: Kysely<any> | Dialect, ref: string, values: readonly string[]): Expression<SqlBool> {
  const dialect = typeof on === 'string' ? on : dialectOf(on);
  if (dialect === 'postgres') return sql<SqlBool>`${sql.ref(ref)} = any(${[...values]}::text[])`;
  return sql<SqlBool>`${sql.ref(ref)} in (select value from json_each(${JSON.stringify(values)}))`;
}
