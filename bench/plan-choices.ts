import { sql } from 'kysely';
import type { Db } from '../db/create-db.js';

/**
 * Postgres: the named prepared statements of `db`'s one connection (open it with
 * `maxConnections: 1`: the view is per session), with how often Postgres ran each with a generic
 * plan (planned once for all values) or a custom one (planned afresh for each run's values:
 * `plan_cache_mode = auto` keeps custom plans while a generic one looks dearer).
 */
export async function printPlanChoices(db: Db): Promise<void> {
  const { rows } = await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
    select statement, generic_plans, custom_plans from pg_prepared_statements order by custom_plans desc, generic_plans desc`.execute(db);
  console.log('\nprepared statements of the connection: generic plans, custom plans, statement');
  for (const row of rows) console.log(`  ${String(row.generic_plans).padStart(5)} ${String(row.custom_plans).padStart(5)}  ${row.statement.replace(/\s+/g, ' ').slice(0, 140)}`);
}
