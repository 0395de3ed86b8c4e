/** Load, trip and carrier documents with their bytes (kept in the database by default). */
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
  /** `blob` on SQLite, `bytea` on Postgres: both drivers return a Buffer. */
  content: Buffer | null;
  attachment_size: number | null;
  uploaded_at: string | null;
  uploaded_by: string | null;
  /** Boolean 0/1: deleted documents appear in no list and read as 404. */
  is_deleted: number;
  created_at: string;
  updated_at: string;
}
