/** A note on a load (migration 0130): immutable once written. */
export interface LoadNotesTable {
  id: string;
  tenant_id: string;
  load_id: string;
  text: string;
  /** `Internal` or `Public`; only Public notes reach the customer tracking page. */
  access: string;
  /** The API client that wrote it. */
  created_by: string;
  created_at: string;
}
