import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * A document's bytes move from one `documents.content` value to pieces of at most 256 KiB in
 * `document_chunks`. One value meant a whole file in memory at every write and read (a
 * download on Postgres twice over: a bytea comes back as hex text), and 20 parallel 10 MiB
 * uploads grew the server by over 90 MiB (`npm run bench -- uploads`). Pieces are written from
 * the staged file and read back to the download one at a time (core/documents/document-content.ts).
 *
 * Existing files are cut into pieces here, in SQL (`substr` takes bytes of a blob or bytea on
 * both dialects), then the column goes, so there is one place to read bytes from. The primary
 * key (document_id, seq) serves the only read: one document's pieces in order.
 */
const PIECE_BYTES = 256 * 1024;

function binaryType(db: Kysely<any>): 'bytea' | 'blob' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('document_chunks')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('content', binaryType(db), (c) => c.notNull())
    .addPrimaryKeyConstraint('document_chunks_pkey', ['document_id', 'seq'])
    .execute();
  await sql`
    with recursive pieces (n) as (
      select 0
      union all
      select n + 1 from pieces where (n + 1) * ${sql.lit(PIECE_BYTES)} < (select coalesce(max(length(content)), 0) from documents)
    )
    insert into document_chunks (document_id, seq, tenant_id, content)
    select documents.id, pieces.n, documents.tenant_id, substr(documents.content, pieces.n * ${sql.lit(PIECE_BYTES)} + 1, ${sql.lit(PIECE_BYTES)})
    from documents join pieces on pieces.n * ${sql.lit(PIECE_BYTES)} < length(documents.content)
    where documents.content is not null
  `.execute(db);
  await db.schema.alterTable('documents').dropColumn('content').execute();
}

/** Puts each document's pieces back together into `content` (in JS: SQLite has no blob aggregate). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('content', binaryType(db)).execute();
  await db.updateTable('documents').set({ content: Buffer.alloc(0) }).where('attachment_size', '=', 0).execute();
  const documents = await db.selectFrom('document_chunks').select('document_id').distinct().execute();
  for (const { document_id: documentId } of documents) {
    const pieces = await db.selectFrom('document_chunks').select('content').where('document_id', '=', documentId).orderBy('seq').execute();
    const content = Buffer.concat(pieces.map((piece) => Buffer.from(piece.content as Uint8Array)));
    await db.updateTable('documents').set({ content }).where('id', '=', documentId).execute();
  }
  await db.schema.dropTable('document_chunks').execute();
}
