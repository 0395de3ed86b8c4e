import type { Kysely } from 'kysely';

/**
 * External ids (docs/api-rules.md#external-ids) and the retiring Status of drivers, trucks and
 * trailers. Each record keeps its `ExternalIds` map as JSON text (`external_ids`, `{}` when none)
 * so reads need no join; `external_ids` (the table) holds one row per `(source, id)` pair, whose
 * primary key makes a pair unique per tenant and kind and serves the `ExternalId=source:id`
 * filter of every list. A stop may name the location it is at (`stops.location_id`).
 */

const KINDS = ['loads', 'drivers', 'trucks', 'trailers', 'carriers'] as const;
const ASSETS = ['drivers', 'trucks', 'trailers'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('external_ids')
    .addColumn('tenant_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('record_id', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('external_ids_pk', ['tenant_id', 'kind', 'source', 'value'])
    .execute();
  await db.schema.createIndex('external_ids_record').on('external_ids').columns(['record_id']).execute();
  for (const table of KINDS) {
    await db.schema.alterTable(table).addColumn('external_ids', 'text', (column) => column.notNull().defaultTo('{}')).execute();
  }
  await db.schema.alterTable('stops').addColumn('location_id', 'text').execute();
  for (const table of ASSETS) {
    await db.schema.alterTable(table).addColumn('status', 'text', (column) => column.notNull().defaultTo('Active')).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ASSETS) await db.schema.alterTable(table).dropColumn('status').execute();
  await db.schema.alterTable('stops').dropColumn('location_id').execute();
  for (const table of KINDS) await db.schema.alterTable(table).dropColumn('external_ids').execute();
  await db.schema.dropTable('external_ids').execute();
}
