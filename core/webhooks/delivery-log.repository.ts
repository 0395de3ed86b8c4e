import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { WebhookDeliveryAttemptsTable } from '../../db/tables/webhook-deliveries.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, type ListOrder } from '../shared/select-page.js';
import type { TDeliveryLog } from './delivery-log.schemas.js';

type AttemptRow = Selectable<WebhookDeliveryAttemptsTable>;

export interface DeliveryLogFilter {
  /** The caller's: only a subscription it may see has attempts to show. */
  scope: Scope;
  webhookId: string;
  status?: string | undefined;
  eventType?: string | undefined;
  /** Stored date-times, both inclusive. */
  from?: string | undefined;
  to?: string | undefined;
}

export function toDeliveryLog(row: AttemptRow): TDeliveryLog {
  return {
    Id: row.id,
    DeliveryId: row.delivery_id,
    EventId: row.event_id,
    WebhookId: row.webhook_id ?? '',
    EventType: row.event_type,
    Attempt: row.attempt,
    Status: row.status as TDeliveryLog['Status'],
    HttpStatus: row.http_status,
    DurationMs: row.duration_ms,
    Reason: row.reason,
    ResponseBody: row.response_body,
    Timestamp: row.attempted_at,
  };
}

/**
 * The attempts of one subscription in the caller's scope, filtered. Attempts have no subsidiary
 * column: they are their subscription's, so the scope is applied to it (a primary-key lookup).
 */
/** The subscription, when the caller may see it: a primary-key lookup bounded by the scope. */
const subscriptionInScope = (db: Db, filter: DeliveryLogFilter) =>
  db.selectFrom('webhooks').select('id').where(inScope('webhooks', filter.scope)).where('id', '=', filter.webhookId);

function attempts(db: Db, filter: DeliveryLogFilter) {
  const subscription = subscriptionInScope(db, filter);
  let query = db
    .selectFrom('webhook_delivery_attempts')
    .where(inScope('webhook_delivery_attempts', filter.scope, { subsidiaryColumn: null }))
    // `=`, not `in`: the subquery names one subscription at most (by its key), and with `=` both
    // planners read the attempts in order from the (webhook_id, tenant_id, attempted_at, id) index
    // instead of sorting all of them.
    .where('webhook_id', '=', subscription);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.eventType) query = query.where('event_type', '=', filter.eventType);
  if (filter.from) query = query.where('attempted_at', '>=', filter.from);
  if (filter.to) query = query.where('attempted_at', '<=', filter.to);
  return query;
}

/** Newest first; the id breaks ties so pages and the export agree on one order. */
export const DELIVERY_LOG_ORDER: ListOrder = {
  list: 'webhook-delivery-logs',
  keys: [
    { column: 'attempted_at', desc: true, type: 'text' },
    { column: 'id', desc: true, type: 'text' },
  ],
};

/**
 * The log's Total from the counters (migration 2026-11-23T0084) when only the subscription and
 * Status filter it: a sum over at most four rows, not a count of every attempt. A subscription
 * the caller cannot see sums nothing, as its log shows nothing.
 */
async function countedAttempts(db: Db, filter: DeliveryLogFilter): Promise<number> {
  const row = await db
    .selectFrom('delivery_attempt_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('n'), eb.lit(0)).as('n'))
    .where('webhook_id', '=', subscriptionInScope(db, filter))
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findDeliveryLogs(db: Db, filter: DeliveryLogFilter, request: TPageRequest): Promise<PageOf<TDeliveryLog>> {
  const counted = !filter.eventType && !filter.from && !filter.to;
  const page = await selectPage(db, attempts(db, filter), {
    table: 'webhook_delivery_attempts',
    order: DELIVERY_LOG_ORDER,
    page: request,
    ...(counted ? { count: () => countedAttempts(db, filter) } : {}),
  });
  return { ...page, items: page.items.map(toDeliveryLog) };
}

/**
 * The first `limit` entries in the list's order, read in chunks with a keyset (never an
 * offset, never everything at once): what the export streams.
 */
export async function* streamDeliveryLogs(db: Db, filter: DeliveryLogFilter, limit: number, chunkSize = 1000): AsyncGenerator<TDeliveryLog[]> {
  let remaining = limit;
  let after: { attempted_at: string; id: string } | undefined;
  while (remaining > 0) {
    const wanted = Math.min(chunkSize, remaining);
    let query = attempts(db, filter).selectAll();
    if (after) {
      const last = after;
      query = query.where((eb) =>
        eb.or([eb('attempted_at', '<', last.attempted_at), eb.and([eb('attempted_at', '=', last.attempted_at), eb('id', '<', last.id)])]),
      );
    }
    const rows = await query
      .orderBy('attempted_at', 'desc')
      .orderBy('id', 'desc')
      .limit(wanted)
      .execute();
    if (rows.length === 0) return;
    yield rows.map(toDeliveryLog);
    remaining -= rows.length;
    const tail = rows[rows.length - 1]!;
    after = { attempted_at: tail.attempted_at, id: tail.id };
    if (rows.length < wanted) return;
  }
}

export interface AttemptStats {
  total: number;
  success: number;
  failure: number;
  timeout: number;
  skipped: number;
  /** Sum and maximum over attempts that were not skipped. */
  durationSum: number;
  durationMax: number;
}

export async function attemptStats(db: Db, scope: Scope, webhookId: string, from: string, to: string): Promise<AttemptStats> {
  const row = await attempts(db, { scope, webhookId, from, to })
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number | null>(eb.case().when('status', '=', 'success').then(1).else(0).end()).as('success'),
      eb.fn.sum<number | null>(eb.case().when('status', '=', 'failure').then(1).else(0).end()).as('failure'),
      eb.fn.sum<number | null>(eb.case().when('status', '=', 'timeout').then(1).else(0).end()).as('timeout'),
      eb.fn.sum<number | null>(eb.case().when('status', '=', 'skipped').then(1).else(0).end()).as('skipped'),
      eb.fn.sum<number | null>(eb.case().when('status', '<>', 'skipped').then(eb.ref('duration_ms')).else(0).end()).as('duration_sum'),
      eb.fn.max<number | null>(eb.case().when('status', '<>', 'skipped').then(eb.ref('duration_ms')).end()).as('duration_max'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total),
    success: Number(row.success ?? 0),
    failure: Number(row.failure ?? 0),
    timeout: Number(row.timeout ?? 0),
    skipped: Number(row.skipped ?? 0),
    durationSum: Number(row.duration_sum ?? 0),
    durationMax: Number(row.duration_max ?? 0),
  };
}

export async function lastAttempt(db: Db, scope: Scope, webhookId: string): Promise<AttemptRow | undefined> {
  return attempts(db, { scope, webhookId })
    .selectAll()
    .orderBy('attempted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
