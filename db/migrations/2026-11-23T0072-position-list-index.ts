import type { Kysely } from 'kysely';

/**
 * Position history of one asset, newest first, read from the index alone: the list's scope
 * columns and its order (RecordedAt descending, the id ascending) are all in it, so the pager's
 * page keys, the readings a deep page skips and the count never touch the table. With the
 * (asset_id, recorded_at) index it replaces, each of a busy truck's 50,000 readings was fetched
 * from the table for the tenant check and the id, and its last page was sorted in full (60 ms on
 * both databases). The asset comes first, as before, so the event searches still find an asset's
 * readings by it.
 *
 * On Postgres the index is made on the partitioned table, which creates it on every daily
 * partition and on the DEFAULT one, and on each partition created later.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('asset_positions_list_idx')
    .on('asset_positions')
    .columns(['asset_id', 'tenant_id', 'recorded_at desc', 'id', 'subsidiary_id'])
    .execute();
  await db.schema.dropIndex('asset_positions_asset_recorded_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('asset_positions_asset_recorded_idx').on('asset_positions').columns(['asset_id', 'recorded_at']).execute();
  await db.schema.dropIndex('asset_positions_list_idx').execute();
}
