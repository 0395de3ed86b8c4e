import { afterCommit } from '../../db/after-commit.js';
import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { newRecordId } from '../shared/record-id.js';
import { announceEvents } from './feed-signal.js';

export interface EventToEmit {
  tenantId: string;
  /** The subsidiary of the record the event is about (routing, docs/api-rules.md#events); null when none. */
  subsidiaryId: string | null;
  /** `trip.changed`, `trip.status.changed`, `load.changed`, `document.updated`, … (docs/api-rules.md#events). */
  type: string;
  /** The event's `data`: the record snapshot and, for `*.changed`, `diff.changes`. */
  data: unknown;
}

/**
 * Appends a webhook event to the outbox. Call it with the transaction that makes the change,
 * so the change and its event commit together (ARCHITECTURE: "same transaction"). Its feed
 * position comes after the commit (feed.repository.ts `assignFeedPositions`).
 */
export async function appendEvent(trx: Db, clock: Clock, event: EventToEmit): Promise<string> {
  const [id] = await appendEvents(trx, clock, [event]);
  return id!;
}

/**
 * `appendEvent` for several events of one write, in one statement; answers their ids in order.
 * Their feed positions follow the order given (the insert numbers its rows in that order).
 */
export async function appendEvents(trx: Db, clock: Clock, events: readonly EventToEmit[]): Promise<string[]> {
  if (events.length === 0) return [];
  // Long polls of the events feed in this process read again once the events are visible.
  await afterCommit(trx, announceEvents);
  const createdAt = formatStoredDateTime(clock.now());
  const rows = events.map((event) => ({
    id: newRecordId('evt'),
    tenant_id: event.tenantId,
    subsidiary_id: event.subsidiaryId,
    kind: 'event',
    type: event.type,
    customer_id: null,
    payload: JSON.stringify(event.data),
    created_at: createdAt,
    dispatched_at: null,
  }));
  await trx.insertInto('outbox').values(rows).execute();
  return rows.map((row) => row.id);
}

export interface VisibilityPost {
  tenantId: string;
  subsidiaryId: string | null;
  customerId: string;
  /** What is posted, e.g. `document`. */
  type: string;
  body: unknown;
}

/**
 * Appends posts to customers' visibility integrations, in the caller's transaction, in one
 * statement (position ingestion shares a whole batch's at once); answers their outbox ids in
 * order. core/visibility-shares records each as a share.
 */
export async function appendVisibilityPosts(trx: Db, clock: Clock, posts: readonly VisibilityPost[]): Promise<string[]> {
  if (posts.length === 0) return [];
  const createdAt = formatStoredDateTime(clock.now());
  const rows = posts.map((post) => ({
    id: newRecordId('vis'),
    tenant_id: post.tenantId,
    subsidiary_id: post.subsidiaryId,
    kind: 'visibility',
    type: post.type,
    customer_id: post.customerId,
    payload: JSON.stringify(post.body),
    created_at: createdAt,
    dispatched_at: null,
  }));
  await trx.insertInto('outbox').values(rows).execute();
  return rows.map((row) => row.id);
}

/** Marks outbox entries fanned out. */
export async function markDispatched(trx: Db, entryIds: readonly string[], now: string): Promise<void> {
  await trx.updateTable('outbox').set({ dispatched_at: now }).where('id', 'in', entryIds).execute();
}
