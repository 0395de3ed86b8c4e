import { CompiledQuery, sql, type Compilable, type Expression, type InferResult, type Kysely, type SqlBool } from 'kysely';
import { dialectOf, type Dialect } from '../../db/create-db.js';

/** A list as `inList` sends it: one parameter, an array on Postgres, its JSON text on SQLite. */
function listParameter(dialect: Dialect, values: readonly unknown[]): unknown {
  return dialect === 'postgres' ? [...values] : JSON.stringify(values);
}

/**
 * `ref IN (values)` for the batch statements of position ingestion, whose lists change length
 * with every batch, as one parameter: the statement's text is the same whatever the batch. On
 * Postgres it is `ref = any($1::text[])`, so db/postgres-statement-cache.ts prepares it once per
 * connection: parsed once, and planned once too where Postgres finds a plan for any values as
 * cheap as one for the batch's (constants written into the text help it: see
 * core/visibility/position-trip.repository.ts). On SQLite it is `ref in (select value from
 * json_each(?))` with the values as one JSON array: SQLite still probes the index once per
 * value (as fast as `IN (?, …)`: 55 against 62 µs for 26 ids), the statement cache keeps one
 * text per statement instead of one per list length, and Kysely builds one node, not one per
 * value. Measured in the server, neither saving was large: prepares had been under 1% of it.
 */
export function inList(on: Kysely<any> | Dialect, ref: string, values: readonly string[]): Expression<SqlBool> {
  const dialect = typeof on === 'string' ? on : dialectOf(on);
  const list = listParameter(dialect, values);
  if (dialect === 'postgres') return sql<SqlBool>`${sql.ref(ref)} = any(${list}::text[])`;
  return sql<SqlBool>`${sql.ref(ref)} in (select value from json_each(${list}))`;
}

/**
 * A batch statement whose only parameters are lists (`inList`'s, or on Postgres the arrays
 * `unnest` makes rows of), built and compiled once per dialect and shape and then run with each
 * batch's lists. Building a Kysely query (its immutable nodes, one copy per call) and compiling
 * it cost more CPU than SQLite took to run it: 160 of 180 µs for a batch's trip lookup, 50 of 77
 * µs for its asset lookup (32 readings; the same text every time, as the lists are one parameter
 * each).
 *
 * `shape` is what the text depends on besides the dialect (which lists there are, say: JSON
 * data). `build` must take its parameters from the lists alone, in the order given (a list used
 * twice is given twice): the first compile of each shape checks that, so a fixed value sent as a
 * parameter fails the first batch (and the tests) instead of being reused for every batch.
 */
export function listQuery<S, Q extends Compilable<any>, V = string>(build: (db: Kysely<any>, shape: S, lists: readonly (readonly V[])[]) => Q) {
  const texts = new Map<string, string>();
  return async (db: Kysely<any>, shape: S, lists: readonly (readonly V[])[]): Promise<InferResult<Q>> => {
    const dialect = dialectOf(db);
    const key = `${dialect}\u0000${JSON.stringify(shape)}`;
    const parameters = lists.map((list) => listParameter(dialect, list));
    let text = texts.get(key);
    if (text === undefined) {
      const compiled = build(db, shape, lists).compile();
      const same = compiled.parameters.length === parameters.length && compiled.parameters.every((value, index) => JSON.stringify(value) === JSON.stringify(parameters[index]));
      if (!same) throw new Error(`listQuery: a statement of shape ${JSON.stringify(shape)} has parameters that are not its lists`);
      text = compiled.sql;
      texts.set(key, text);
    }
    return (await db.executeQuery(CompiledQuery.raw(text, parameters))).rows as InferResult<Q>;
  };
}
