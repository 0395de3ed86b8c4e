import type { Db } from '../../db/create-db.js';

/** One piece of a document's bytes (core/documents/document-content.ts cuts and joins them). */
export async function insertDocumentChunk(trx: Db, chunk: { documentId: string; tenantId: string; seq: number; content: Buffer }): Promise<void> {
  await trx.insertInto('document_chunks').values({ document_id: chunk.documentId, seq: chunk.seq, tenant_id: chunk.tenantId, content: chunk.content }).execute();
}

/** The piece `seq` of a document's bytes; undefined when there is none. */
export async function findDocumentChunk(db: Db, documentId: string, seq: number): Promise<{ content: Buffer } | undefined> {
  return db.selectFrom('document_chunks').select('content').where('document_id', '=', documentId).where('seq', '=', seq).executeTakeFirst();
}
