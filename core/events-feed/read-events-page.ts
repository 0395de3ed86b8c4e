import { AppError, validationError } from '../errors.js';
import { assignFeedPositions, feedEnd, feedWindowEnd, prunedThrough, readFeedPage, type FeedRow } from '../events/feed.repository.js';
import type { Db } from '../../db/create-db.js';
import type { Scope } from '../shared/scope.js';
import { decodeCursor, encodeCursor } from './feed-cursor.js';
import { TENANT_WIDE_TYPES } from './events.schemas.js';

/**
 * Events of the tenant a page examines at most (filtered or not): a page is one bounded index
 * range, so Types or a subsidiary that match little never make a request scan to the end.
 */
const WINDOW = 5000;

export interface EventsPage {
  Items: Array<{ id: string; type: string; timestamp: string; data: unknown }>;
  NextCursor: string;
  /** Nothing of the tenant follows NextCursor yet: an empty page may wait (Wait). */
  atEnd: boolean;
}

/**
 * One page of the events feed (docs/api-rules.md#events-feed), after positioning what has
 * committed. Positions are a prefix (feed.repository.ts), so once `through` is read every
 * position up to it is visible, and a cursor moved to it skips nothing.
 */
export async function readEventsPage(
  db: Db,
  scope: Scope,
  request: { after: string | undefined; types: readonly string[] | null; pageSize: number },
): Promise<EventsPage> {
  await assignFeedPositions(db);
  const given = request.after === undefined ? null : decodeCursor(request.after);
  if (given !== null && given > (await feedEnd(db))) {
    throw validationError('After', 'is not a cursor this server answered; use a NextCursor as it was answered');
  }
  const filter = { types: request.types, tenantWideTypes: TENANT_WIDE_TYPES };
  // Unfiltered, every event examined is answered: the page is its own bound.
  const filtered = request.types !== null || scope.subsidiaryId !== null;
  for (;;) {
    const after = given ?? (await prunedThrough(db, scope.tenantId));
    const window = filtered ? await feedWindowEnd(db, scope.tenantId, after, WINDOW) : null;
    const rows = filtered && window === null ? [] : await readFeedPage(db, scope, after, window?.through ?? null, filter, request.pageSize);
    // Retention deletes and moves the horizon in one transaction: read after the page, a
    // horizon past `after` means the page may lack pruned events.
    if ((await prunedThrough(db, scope.tenantId)) > after) {
      if (given === null) continue;
      throw new AppError('GONE', 'The cursor is older than the oldest retained event (events are kept 30 days); start again without After.');
    }
    const full = rows.length === request.pageSize;
    const next = full ? rows[rows.length - 1]!.feed_seq : (window?.through ?? rows.at(-1)?.feed_seq ?? after);
    return { Items: rows.map(toItem), NextCursor: encodeCursor(next), atEnd: !full && !(window?.full ?? false) };
  }
}

/** The webhook envelope of an event (core/webhooks/event-body.ts), with its id. */
function toItem(row: FeedRow) {
  return { id: row.id, type: row.type, timestamp: row.created_at, data: JSON.parse(row.payload) as unknown };
}
