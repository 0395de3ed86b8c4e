import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/create-db.js';
import type { OutboxTable } from '../db/tables/outbox.js';
import type { WebhookDeliveriesTable } from '../db/tables/webhook-deliveries.js';
import { pendingDelivery } from '../core/webhooks/event-body.js';
import { matchesEventType, TENANT_WIDE_PREFIX } from '../core/webhooks/event-types.js';
import { lockForClaim } from './claim-lock.js';

type OutboxRow = Selectable<OutboxTable>;
type Subscription = { id: string; tenant_id: string; subsidiary_id: string; event_types: string };

/** Rows per INSERT: far below SQLite's bound-parameter limit at 14 columns a row. */
const INSERT_CHUNK = 500;

/**
 * Spec 6 routing: a subscription receives an event about a record of its own subsidiary;
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
    const entries = await lockForClaim(
      trx,
      trx.selectFrom('outbox').selectAll().where('dispatched_at', 'is', null).orderBy('created_at').orderBy('id').limit(limit),
    ).execute();
    if (entries.length === 0) return 0;

    // Not a caller's read: the worker serves every tenant at once, and each entry meets only its own tenant's subscriptions (byTenant).
    const tenantIds = [...new Set(entries.map((e) => e.tenant_id))];
    const subscriptions = await trx
      .selectFrom('webhooks')
      .select(['id', 'tenant_id', 'subsidiary_id', 'event_types'])
      .where('tenant_id', 'in', tenantIds)
      .where('status', '=', 'Active')
      .where('enabled', '=', 1)
      .orderBy('id')
      .execute();
    const byTenant = new Map<string, { row: Subscription; patterns: string[] }[]>();
    for (const row of subscriptions) {
      const list = byTenant.get(row.tenant_id) ?? [];
      list.push({ row, patterns: JSON.parse(row.event_types) as string[] });
      byTenant.set(row.tenant_id, list);
    }
    const customerIds = [...new Set(entries.filter((e) => e.kind === 'visibility' && e.customer_id).map((e) => e.customer_id!))];
    const integrated = new Set(
      customerIds.length === 0
        ? []
        : (
            await trx
              .selectFrom('customers')
              .select(['id', 'tenant_id'])
              .where('id', 'in', customerIds)
              .where('visibility_url', 'is not', null)
              .execute()
          ).map((c) => `${c.tenant_id}/${c.id}`),
    );

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
    for (let i = 0; i < deliveries.length; i += INSERT_CHUNK) {
      await trx.insertInto('webhook_deliveries').values(deliveries.slice(i, i + INSERT_CHUNK)).execute();
    }
    await trx
      .updateTable('outbox')
      .set({ dispatched_at: now })
      .where('id', 'in', entries.map((e) => e.id))
      .execute();
    return entries.length;
  });
}
