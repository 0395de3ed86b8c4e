import { sql } from 'kysely';
import type { Db } from '../../db/create-db.js';

/** docs/api-rules.md#webhooks: at 10 consecutive failed events the subscription is disabled. */
export const AUTO_DISABLE_AFTER = 10;

/** An event that ended for a subscription: `succeeded`, `failed` (retries exhausted) or `skipped`. */
export interface EndedEvent {
  webhookId: string;
  state: string;
}

/**
 * Applies a group of ended events, in the order they ended, to their subscriptions'
 * ConsecutiveFailures: a success resets the count, a failed event adds one, and reaching
 * AUTO_DISABLE_AFTER disables the subscription. Each subscription's events come down to "reset
 * or not, then k more failures", so subscriptions with the same net effect share one UPDATE:
 * a run of successes over any number of subscriptions costs one statement.
 */
export async function countEndedEvents(trx: Db, events: readonly EndedEvent[]): Promise<void> {
  const net = new Map<string, { reset: boolean; failed: number }>();
  for (const { webhookId, state } of events) {
    if (state === 'succeeded') net.set(webhookId, { reset: true, failed: 0 });
    else if (state === 'failed') {
      const effect = net.get(webhookId) ?? { reset: false, failed: 0 };
      effect.failed += 1;
      net.set(webhookId, effect);
    }
  }
  const groups = new Map<string, { reset: boolean; failed: number; ids: string[] }>();
  for (const [webhookId, { reset, failed }] of net) {
    const key = `${reset} ${failed}`;
    const group = groups.get(key) ?? { reset, failed, ids: [] };
    group.ids.push(webhookId);
    groups.set(key, group);
  }
  for (const { reset, failed, ids } of groups.values()) {
    if (failed === 0) {
      // A reset of a count already at 0 writes nothing.
      await trx.updateTable('webhooks').set({ consecutive_failures: 0 }).where('id', 'in', ids).where('consecutive_failures', '<>', 0).execute();
      continue;
    }
    // Literals, not parameters: Postgres could not type `$1 >= $2` as integers.
    const after = reset ? sql<number>`${sql.lit(failed)}` : sql<number>`consecutive_failures + ${sql.lit(failed)}`;
    await trx
      .updateTable('webhooks')
      .set({
        consecutive_failures: after,
        enabled: sql<number>`case when ${after} >= ${sql.lit(AUTO_DISABLE_AFTER)} then 0 else enabled end`,
      })
      .where('id', 'in', ids)
      .execute();
  }
}
