/** One entry of a `*.changed` event's `data.diff.changes` (docs/api-rules.md "Webhooks"). */
export interface FieldChange {
  Field: string;
  From: unknown;
  To: unknown;
}
