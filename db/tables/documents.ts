/** Load, trip and carrier documents; their bytes are in `document_chunks`. */
export interface DocumentsTable {
  id: string;
  tenant_id: string;
  /** The load's subsidiary for load and trip documents; null for carrier documents. */
  subsidiary_id: string | null;
  parent_type: 'Load' | 'Trip' | 'Carrier';
  /** The API's ParentId: load number, trip id or carrier id. */
  parent_id: string;
  /** Set for load documents and, so the load's list includes them, for trip documents. */
  load_id: string | null;
  trip_id: string | null;
  carrier_id: string | null;
  attachment_type: string;
  /** The file name assigned at upload, with its timestamp suffix. */
  attachment_path: string;
  file_name: string;
  content_type: string;
  /** The file's byte count; null for a (fixture) document without a file. */
  attachment_size: number | null;
  uploaded_at: string | null;
  uploaded_by: string | null;
  /** Boolean 0/1: deleted documents appear in no list and read as 404. */
  is_deleted: number;
  created_at: string;
  updated_at: string;
}

/**
 * A document's bytes in pieces of at most 256 KiB (migration 0098), so that no write or read
 * holds a whole file: an upload is written piece by piece from its staged file, a download sent
 * piece by piece. `seq` counts from 0; the pieces concatenated are the file.
 */
export interface DocumentChunksTable {
  document_id: string;
  seq: number;
  tenant_id: string;
  /** `blob` on SQLite, `bytea` on Postgres: both drivers return a Buffer. */
  content: Buffer;
}
