/** One `(source, id)` pair of a record's `ExternalIds` (docs/api-rules.md#external-ids). */
export interface ExternalIdsTable {
  tenant_id: string;
  /** The record's table: `loads`, `drivers`, `trucks`, `trailers` or `carriers`. */
  kind: string;
  source: string;
  value: string;
  record_id: string;
}
