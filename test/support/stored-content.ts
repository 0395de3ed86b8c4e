import type { Db } from '../../db/create-db.js';

/** A document's bytes as the database holds them: its pieces in order, each a Buffer as both drivers answer. */
export async function storedContent(db: Db, documentId: string): Promise<Buffer> {
  const pieces = await db.selectFrom('document_chunks').select('content').where('document_id', '=', documentId).orderBy('seq').execute();
  for (const piece of pieces) if (!Buffer.isBuffer(piece.content)) throw new Error(`a piece of ${documentId} is not a Buffer`);
  return Buffer.concat(pieces.map((piece) => piece.content));
}
