import type { Insertable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { WebhookDeliveriesTable } from '../../db/tables/webhook-deliveries.js';
import { markDispatched } from '../events/outbox.repository.js';
import {
  claimOutboxEntries,
  findIntegratedCustomers,
  findReceivingSubscriptions,
  insertDeliveries,
  type OutboxRow,
  type Subscription,
} from './delivery.repository.js';
import { pendingDelivery } from './event-body.js';
import { matchesEventType, TENANT_WIDE_PREFIX } from './event-types.js';

/**
 * docs/api-rules.md#events routing: a subscription receives an event about a record of its own subsidiary;
 * `carrier.document.*` (carriers have no subsidiary) and events whose record's subsidiary is
 * unknown go to every subscription of the tenant.
 */
export function routesTo(entry: Pick<OutboxRow, 'type' | 'subsidiary_id'>, subscription: Pick<Subscription, 'subsidiary_id'>): boolean {
  if (entry.type.startsWith(TENANT_WIDE_PREFIX) || entry.subsidiary_id === null) return true;
  return entry.subsidiary_id === subscription.subsidiary_id;
}

/**
 * Turns up to `limit` outbox entries into deliveries, one per receiving subscription (or the
 * customer's visibility integration), and marks them dispatched in the same transaction: an
 * entry is fanned out exactly once, even with several workers or after a crash.
 * Only Active, enabled subscriptions receive events. Answers how many entries it took.
 */
export async function fanOut(db: Db, now: string, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const entries = await claimOutboxEntries(trx, limit);
    if (entries.length === 0) return 0;

    // Each entry meets only its own tenant's subscriptions (byTenant).
    const subscriptions = await findReceivingSubscriptions(trx, [...new Set(entries.map((e) => e.tenant_id))]);
    const byTenant = new Map<string, { row: Subscription; patterns: string[] }[]>();
    for (const row of subscriptions) {
      const list = byTenant.get(row.tenant_id) ?? [];
      list.push({ row, patterns: JSON.parse(row.event_types) as string[] });
      byTenant.set(row.tenant_id, list);
    }
    const integrated = await findIntegratedCustomers(trx, [
      ...new Set(entries.filter((e) => e.kind === 'visibility' && e.customer_id).map((e) => e.customer_id!)),
    ]);

    const deliveries: Insertable<WebhookDeliveriesTable>[] = [];
    const delivery = (entry: OutboxRow, target: { webhook_id: string | null; customer_id: string | null }) =>
      pendingDelivery({
        tenantId: entry.tenant_id,
        target,
        outboxId: entry.id,
        eventType: entry.type,
        timestamp: entry.created_at,
        dataJson: entry.payload,
        now,
      });
    for (const entry of entries) {
      if (entry.kind === 'visibility') {
        if (entry.customer_id && integrated.has(`${entry.tenant_id}/${entry.customer_id}`)) {
          deliveries.push(delivery(entry, { webhook_id: null, customer_id: entry.customer_id }));
        }
        continue;
      }
      for (const { row, patterns } of byTenant.get(entry.tenant_id) ?? []) {
        if (routesTo(entry, row) && matchesEventType(patterns, entry.type)) {
          deliveries.push(delivery(entry, { webhook_id: row.id, customer_id: null }));
        }
      }
    }
    await insertDeliveries(trx, deliveries);
    await markDispatched(trx, entries.map((e) => e.id), now);
    return entries.length;
  });
}
