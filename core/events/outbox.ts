import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { OutboxTable } from '../../db/tables/outbox.js';
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
  return appendEntry(trx, clock, 'evt', {
    tenant_id: event.tenantId,
    subsidiary_id: event.subsidiaryId,
    kind: 'event',
    type: event.type,
    customer_id: null,
    payload: event.data,
  });
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
  return appendEntry(trx, clock, 'vis', {
    tenant_id: post.tenantId,
    subsidiary_id: post.subsidiaryId,
    kind: 'visibility',
    type: post.type,
    customer_id: post.customerId,
    payload: post.body,
  });
}

type EntryFields = Omit<Insertable<OutboxTable>, 'id' | 'created_at' | 'dispatched_at' | 'payload'> & { payload: unknown };

async function appendEntry(trx: Db, clock: Clock, idPrefix: string, entry: EntryFields): Promise<string> {
  const id = `${idPrefix}_${randomUUID()}`;
  await trx
    .insertInto('outbox')
    .values({ ...entry, id, payload: JSON.stringify(entry.payload), created_at: formatStoredDateTime(clock.now()), dispatched_at: null })
    .execute();
  return id;
}
