/**
 * The outbox: what a change must tell the outside world, written in the same transaction as
 * the change. The webhook dispatcher (workers/) reads it; nothing written here is lost.
 */
export interface OutboxTable {
  id: string;
  tenant_id: string;
  /** The subsidiary of the record the entry is about; null when it has none (carriers). */
  subsidiary_id: string | null;
  /** `event` (webhook event) or `visibility` (a post to a customer's visibility integration). */
  kind: string;
  /** Event type (`trip.changed`, …) or, for visibility posts, what is posted (`document`). */
  type: string;
  /** Visibility posts: the customer whose integration receives it; null for events. */
  customer_id: string | null;
  /** JSON text: the event's `data` or the visibility post's body. */
  payload: string;
  created_at: string;
  /** Set by the dispatcher once it has fanned the entry out to deliveries. */
  dispatched_at: string | null;
  /**
   * Events only: the position in the events feed, assigned after the event committed (by
   * core/events/feed-positions.repository.ts); null until then and for visibility posts.
   */
  feed_seq: number | null;
}
