/** One change of a document's type, in order per document. */
export interface DocumentTypeChangesTable {
  id: string;
  tenant_id: string;
  document_id: string;
  /** 1, 2, … per document: the order of its changes. */
  sequence: number;
  from_type: string;
  to_type: string;
  changed_at: string;
  /** The client id (API) or user id that made the change. */
  changed_by: string | null;
}
