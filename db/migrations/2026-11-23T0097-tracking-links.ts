import type { Kysely } from 'kysely';

/**
 * Customer tracking links (docs/api-rules.md#tracking-links). Only the SHA-256 of a
 * link's token is kept, as the primary key: the page looks a token up by its hash, and a
 * reader of the database cannot rebuild a working link from what is stored. The token has
 * 256 random bits, so a fast hash is enough (there is nothing to guess).
 *
 * `tracking_links_load_idx` serves the revoke (every link of one load of the tenant).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tracking_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('load_id', 'text', (c) => c.notNull().references('loads.id'))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('tracking_links_load_idx').on('tracking_links').columns(['tenant_id', 'load_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tracking_links_load_idx').execute();
  await db.schema.dropTable('tracking_links').execute();
}
