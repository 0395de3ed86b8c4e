import { sql } from 'kysely';
import type { Db } from '../../db/create-db.js';

/**
 * Postgres only: before a daily partition of the position history is dropped (a whole day gone
 * for the retention, which fires no trigger), its readings are taken off their assets' Position
 * counters in `asset_event_counts` (migration 2026-11-23T0074) and their subsidiaries' in
 * `asset_position_counts` (2026-11-23T0085), in the caller's transaction, so
 * the counters stay exact. Upserted in asset order, as the triggers do, so a pass and a batch of
 * readings sharing assets wait for one another rather than deadlock.
 */
export async function forgetPartitionPositions(trx: Db, partition: string): Promise<void> {
  await sql`
    insert into asset_event_counts (asset_id, event_type, n)
    select asset_id, 'Position', -count(*) from ${sql.id(partition)} group by asset_id order by asset_id
    on conflict (asset_id, event_type) do update set n = asset_event_counts.n + excluded.n`.execute(trx);
  await sql`
    insert into asset_position_counts (asset_id, subsidiary_id, n)
    select asset_id, coalesce(subsidiary_id, ''), -count(*) from ${sql.id(partition)}
    group by asset_id, coalesce(subsidiary_id, '') order by 1, 2
    on conflict (asset_id, subsidiary_id) do update set n = asset_position_counts.n + excluded.n`.execute(trx);
}
