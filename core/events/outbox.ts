import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { formatStoredDateTime } from '../shared/datetime.js';

export interface EventToEmit {
  tenantId: string;
  /** The subsidiary of the record the event is about (routing, spec 6); null when none. */
  subsidiaryId: string | null;
  /** `trip.changed`, `trip.status.changed`, `load.changed`, `document.updated`, … (DECISIONS). */
  type: string;
  /** The event's `data`: the record snapshot and, for `*.changed`, `diff.changes`. */
  data: unknown;
}

/**
 * Appends a webhook event to the outbox. Call it with the transaction that makes the change,
 * so the change and its event commit together (ARCHITECTURE: "same transaction").
 */
export async function appendEvent(trx: Db, clock: Clock, event: EventToEmit): Promise<string> {
  const id = `evt_${randomUUID()}`;
  await trx
    .insertInto('outbox')
    .values({
      id,
      tenant_id: event.tenantId,
      subsidiary_id: event.subsidiaryId,
      kind: 'event',
      type: event.type,
      customer_id: null,
      payload: JSON.stringify(event.data),
      created_at: formatStoredDateTime(clock.now()),
      dispatched_at: null,
    })
    .execute();
  return id;
}

export interface VisibilityPost {
  tenantId: string;
  subsidiaryId: string | null;
  customerId: string;
  /** What is posted, e.g. `document`. */
  type: string;
  body: unknown;
}

/** Appends a post to a customer's visibility integration, in the caller's transaction. */
export async function appendVisibilityPost(trx: Db, clock: Clock, post: VisibilityPost): Promise<string> {
  const id = `vis_${randomUUID()}`;
  await trx
    .insertInto('outbox')
    .values({
      id,
      tenant_id: post.tenantId,
      subsidiary_id: post.subsidiaryId,
      kind: 'visibility',
      type: post.type,
      customer_id: post.customerId,
      payload: JSON.stringify(post.body),
      created_at: formatStoredDateTime(clock.now()),
      dispatched_at: null,
    })
    .execute();
  return id;
}
