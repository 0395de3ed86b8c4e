import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Detention (docs/api-rules.md#detention).
 *
 * Customers gain `detention_free_minutes` and the DetentionRate per hour as Money
 * (`detention_rate` in minor units, `detention_currency`), all nullable.
 *
 * `stop_detentions` holds one row per arrived stop: the free time and clock start fixed when
 * the arrival was recorded (`arrived_at`, to tell a corrected arrival), `due_at` (when free time runs out), whether
 * `stop.detention.started` was emitted (`started`), the departure and the billed accessorial.
 * The start worker finds the rows it must announce over `stop_detentions_due_idx`, a partial
 * index of only the rows still waiting (not started, not departed), so its scan costs the same
 * however many stops the database holds.
 */
const CUSTOMER_COLUMNS = [
  ['detention_free_minutes', 'integer'],
  ['detention_rate', 'bigint'],
  ['detention_currency', 'integer'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [column, type] of CUSTOMER_COLUMNS) await db.schema.alterTable('customers').addColumn(column, type).execute();
  await db.schema
    .createTable('stop_detentions')
    .addColumn('stop_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('subsidiary_id', 'text')
    .addColumn('trip_id', 'text', (c) => c.notNull())
    .addColumn('load_number', 'text', (c) => c.notNull())
    .addColumn('arrived_at', 'text', (c) => c.notNull())
    .addColumn('free_minutes', 'integer', (c) => c.notNull())
    .addColumn('clock_start', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('started', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('departed_at', 'text')
    .addColumn('accessorial_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stop_detentions_due_idx')
    .on('stop_detentions')
    .column('due_at')
    .where(sql<SqlBool>`started = 0 and departed_at is null`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stop_detentions').execute();
  for (const [column] of [...CUSTOMER_COLUMNS].reverse()) await db.schema.alterTable('customers').dropColumn(column).execute();
}
