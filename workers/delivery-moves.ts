import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/create-db.js';
import type { Delivery } from './deliveries.js';

/** Where an attempt takes its delivery. */
export interface Move {
  delivery: Delivery;
  /** `succeeded`, `skipped` or `failed` end it; `pending` waits for the next retry. */
  state: string;
  /** The next retry's time; null leaves next_attempt_at as it is. */
  nextAttemptAt: string | null;
}

/** Deliveries per UPDATE: three bound parameters each, far below either database's limit. */
const MOVE_CHUNK = 500;

/**
 * Moves deliveries on after their attempts, releasing their leases: one UPDATE per distinct
 * (state, next attempt) whatever the number of deliveries, so a group of successes costs one
 * statement. Only a delivery still held by the lease it was claimed with moves (a lost lease
 * means the delivery was deleted, requeued or claimed again meanwhile), and since the lease
 * holds, its attempts are the ones claimed: `attempts + 1` is the attempt just made.
 * The ids must be distinct. Answers the ids that moved.
 */
export async function moveDeliveries(trx: Db, moves: readonly Move[], updatedAt: string): Promise<Set<string>> {
  const groups = new Map<string, Move[]>();
  for (const move of moves) {
    const key = `${move.state} ${move.nextAttemptAt ?? ''}`;
    const group = groups.get(key) ?? [];
    group.push(move);
    groups.set(key, group);
  }
  const moved = new Set<string>();
  for (const group of groups.values()) {
    const { state, nextAttemptAt } = group[0]!;
    for (let i = 0; i < group.length; i += MOVE_CHUNK) {
      const deliveries = group.slice(i, i + MOVE_CHUNK).map((move) => move.delivery);
      const rows = await trx
        .updateTable('webhook_deliveries')
        .set({
          state,
          attempts: sql<number>`attempts + 1`,
          ...(nextAttemptAt === null ? {} : { next_attempt_at: nextAttemptAt }),
          lease_until: null,
          lease_token: null,
          updated_at: updatedAt,
        })
        // The id list lets both databases find the rows by primary key; the pairs check the leases.
        .where('id', 'in', deliveries.map((d) => d.id))
        .where(stillLeased(deliveries))
        .returning('id')
        .execute();
      for (const row of rows) moved.add(row.id);
    }
  }
  return moved;
}

/** Each delivery still carries the lease token it was claimed with (a row-value IN, which both databases take with a VALUES list). */
export function stillLeased(deliveries: readonly Pick<Delivery, 'id' | 'lease_token'>[]) {
  const pairs = sql.join(deliveries.map((d) => sql`(${d.id}, ${d.lease_token})`));
  return sql<SqlBool>`(id, lease_token) in (values ${pairs})`;
}
