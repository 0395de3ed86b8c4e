/**
 * The events feed's bookkeeping beside the outbox (db/migrations/2026-11-27T0220-events-feed.ts).
 * One row (id 1): the last feed position assigned. Its row lock makes the assigner single.
 */
export interface EventFeedCounterTable {
  id: number;
  last_position: number;
}

/** Per tenant: the highest feed position retention has pruned; a cursor below it is gone. */
export interface EventFeedHorizonsTable {
  tenant_id: string;
  pruned_through: number;
}
