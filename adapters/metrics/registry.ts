import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { setObservations } from '../../core/shared/observations.js';
import { FIXED_VERSION_DOCUMENT_PATH } from '../rest/openapi-fixed-version.js';
import type { Db } from '../../db/create-db.js';

/**
 * The process's Prometheus metrics (one registry per process, like the process itself).
 *
 * Cost per API request: one histogram observe. Its `_count` series is the request counter,
 * so there is no separate counter to bump. Labels are bounded: `route` is the route template
 * (`/api/p/v{version}/loads/{loadNumber}`), never the raw path, and unknown paths share one
 * label; `status` is one of the few codes the server answers.
 */
export const registry = new Registry();

export const requestDuration = new Histogram({
  name: 'waybill_http_request_duration_seconds',
  help: 'API host requests by route template, method and status: latency (its _count is the request count).',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [registry],
});

const deliveryAttempts = new Counter({
  name: 'waybill_webhook_delivery_attempts_total',
  help: 'Webhook and visibility delivery attempts made by this process, by outcome.',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const positionBatchSize = new Histogram({
  name: 'waybill_position_batch_size',
  help: 'Readings per position batch written by this process.',
  buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500],
  registers: [registry],
});

// The database gauges below are one database-wide reading, not a per-process amount: with
// WEB_CONCURRENCY > 1 only the primary reads them (the workers' stay 0), and the sum over the
// processes takes their maximum instead of adding them up.
const outboxOldestAge = new Gauge({
  name: 'waybill_outbox_oldest_undispatched_age_seconds',
  help: 'Age of the oldest outbox event not yet fanned out to deliveries (0 when none).',
  aggregator: 'max',
  registers: [registry],
});

const pendingDeliveries = new Gauge({
  name: 'waybill_webhook_deliveries_pending',
  help: 'Deliveries waiting for their next attempt (all processes, read from the database).',
  aggregator: 'max',
  registers: [registry],
});

const pendingDeliveryOldestAge = new Gauge({
  name: 'waybill_webhook_delivery_oldest_pending_age_seconds',
  help: 'Age of the oldest delivery still pending (0 when none).',
  aggregator: 'max',
  registers: [registry],
});

const KNOWN_OUTCOMES = new Set(['success', 'failure', 'timeout', 'skipped']);

/** Starts listening to the core's observations (position batches, delivery attempts). */
export function observeCore(): void {
  setObservations({
    positionBatch: (size) => positionBatchSize.observe(size),
    deliveryAttempt: (outcome) => deliveryAttempts.inc({ outcome: KNOWN_OUTCOMES.has(outcome) ? outcome : 'other' }),
  });
}

/** Route label of a request outside the REST routes: a fixed name, never the path itself. */
export function fixedRouteLabel(pathname: string): string {
  if (pathname === '/healthz' || pathname === '/readyz' || pathname === '/openapi.json' || pathname === FIXED_VERSION_DOCUMENT_PATH) return pathname;
  if (pathname === '/docs' || pathname.startsWith('/docs/')) return '/docs';
  if (pathname.startsWith('/files/')) return '/files/{token}';
  if (pathname === '/api/trpc' || pathname.startsWith('/api/trpc/')) return '/api/trpc';
  return 'unmatched';
}

function ageSeconds(storedDateTime: string | null | undefined, now: number): number {
  if (!storedDateTime) return 0;
  const at = Date.parse(storedDateTime);
  return Number.isNaN(at) ? 0 : Math.max(0, (now - at) / 1000);
}

/**
 * The text exposition, with the outbox and delivery gauges read from the database at scrape
 * time (two reads served by indexes: outbox_pending_idx, webhook_deliveries_due_idx), so they describe
 * every process's work, not this one's.
 */
export async function scrape(db: Db, now: number): Promise<string> {
  await readDatabaseGauges(db, now);
  return registry.metrics();
}

/** Sets the outbox and delivery gauges from the database (see `scrape`). */
export async function readDatabaseGauges(db: Db, now: number): Promise<void> {
  const [outbox, pending] = await Promise.all([
    db.selectFrom('outbox').select((eb) => eb.fn.min('created_at').as('oldest')).where('dispatched_at', 'is', null).executeTakeFirst(),
    db
      .selectFrom('webhook_deliveries')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('state', '=', 'pending')
      .executeTakeFirst(),
  ]);
  outboxOldestAge.set(ageSeconds(outbox?.oldest, now));
  pendingDeliveries.set(Number(pending?.n ?? 0));
  pendingDeliveryOldestAge.set(ageSeconds(pending?.oldest, now));
}
