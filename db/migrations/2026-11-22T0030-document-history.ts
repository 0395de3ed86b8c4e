import type { Kysely } from 'kysely';

/**
 * Document type changes (docs/api-rules.md#documents: each change is kept in the document's history).
 * `sequence` orders the changes of one document even when several share a millisecond; the
 * writer takes it under the document row's lock (see core/documents/document.repository.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('document_type_changes')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('from_type', 'text', (c) => c.notNull())
    .addColumn('to_type', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'text')
    .execute();
  await db.schema
    .createIndex('document_type_changes_document_id_sequence_key')
    .on('document_type_changes')
    .columns(['document_id', 'sequence'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('document_type_changes').execute();
}
