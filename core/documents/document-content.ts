import type { Db } from '../../db/create-db.js';
import type { Row } from '../shared/row-set.js';
import { findDocumentChunk, insertDocumentChunk } from './document-chunk.repository.js';

/**
 * A document's bytes, kept as pieces of CHUNK_BYTES in `document_chunks` (migration 0098), so
 * that memory per upload or download stays about one piece whatever the file's size (a whole
 * file per write and per read, and on Postgres a bytea read back as hex text twice its size,
 * made parallel uploads and downloads grow the server by the files' sizes).
 */
export const CHUNK_BYTES = 256 * 1024;

/**
 * A file's bytes as they arrive (a staged file, a decoded buffer), in pieces of any size. A
 * source may hand out the same buffer again for its next piece: consumers use each piece before
 * asking for the next, and copy what they keep.
 */
export type ContentSource = AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>;

/** The bytes as a Buffer without copying them (both drivers answer Buffers already). */
function asBuffer(bytes: Buffer | Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Re-cuts `source` into pieces of exactly CHUNK_BYTES (the last may be shorter), copying as little as it can. */
export async function* inChunks(source: ContentSource): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const arrived of source) {
    let piece = asBuffer(arrived);
    while (pendingBytes + piece.length >= CHUNK_BYTES) {
      const take = CHUNK_BYTES - pendingBytes;
      yield pendingBytes === 0 ? piece.subarray(0, take) : Buffer.concat([...pending, piece.subarray(0, take)]);
      piece = piece.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (piece.length > 0) {
      // Kept past the next read, which may reuse the source's buffer.
      pending.push(Buffer.from(piece));
      pendingBytes += piece.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

/** The chunk rows of bytes already in memory (fixtures, base64 uploads), for a row set. */
export function chunkRows(documentId: string, tenantId: string, content: Buffer): Row<'document_chunks'>[] {
  const rows: Row<'document_chunks'>[] = [];
  for (let seq = 0; seq * CHUNK_BYTES < content.length; seq++) {
    rows.push({ document_id: documentId, seq, tenant_id: tenantId, content: content.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES) });
  }
  return rows;
}

/**
 * Writes a new document's bytes, one piece per statement, in the caller's transaction (the
 * document row exists already: the pieces reference it). Answers the byte count written.
 */
export async function writeDocumentContent(trx: Db, document: { id: string; tenantId: string }, source: ContentSource): Promise<number> {
  let seq = 0;
  let bytes = 0;
  for await (const content of inChunks(source)) {
    await insertDocumentChunk(trx, { documentId: document.id, tenantId: document.tenantId, seq, content });
    seq++;
    bytes += content.length;
  }
  return bytes;
}

/**
 * A document's bytes, read one piece per query as the consumer asks for them (a slow download
 * holds one piece, not the file). Fails when the pieces do not add up to `size`, so a reader
 * never takes a short file for a whole one.
 */
export async function* readDocumentContent(db: Db, documentId: string, size: number): AsyncGenerator<Buffer> {
  let bytes = 0;
  for (let seq = 0; bytes < size; seq++) {
    const piece = await findDocumentChunk(db, documentId, seq);
    if (!piece) throw new Error(`document ${documentId}: piece ${seq} missing after ${bytes} of ${size} bytes`);
    const content = asBuffer(piece.content);
    bytes += content.length;
    yield content;
  }
  if (bytes !== size) throw new Error(`document ${documentId}: pieces hold ${bytes} bytes, the row says ${size}`);
}
