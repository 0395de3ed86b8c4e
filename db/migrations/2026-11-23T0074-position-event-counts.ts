import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Positions counted in `asset_event_counts` on Postgres too (0073 counts them on SQLite only),
 * so the Total of an asset event search without a time range is a sum over counters on both
 * databases, never a count of the position history (a Parallel Seq Scan of every daily
 * partition: 0.8 s for 1,000,000 readings).
 *
 * A statement trigger on the partitioned table over its transition tables, which hold the rows
 * of every partition the statement touched: one grouped upsert per statement in asset order
 * (a batch of readings is one insert, so one upsert; ordered as in 0071, so two batches sharing
 * assets wait for one another rather than deadlock). A statement naming a partition directly
 * fires no trigger of the parent, so the partition maintenance (workers/position-partitions.ts)
 * moves and deletes rows through the parent, and before it drops a whole day's partition, which
 * fires nothing either, it subtracts that partition's counts in the same transaction
 * (core/visibility/asset-event-counts.repository.ts). A TRUNCATE fires none of them; nothing truncates the
 * history.
 *
 * The fill runs after the history is locked against writes (the trigger needs that lock anyway),
 * so no reading committed between the fill and the trigger goes uncounted.
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const UPSERT = `on conflict (asset_id, event_type) do update set n = asset_event_counts.n + excluded.n`;

/** The changes summed per asset, upserted in asset order. */
const upsert = (changes: string) => `
    insert into asset_event_counts (asset_id, event_type, n)
    select asset_id, 'Position', sum(delta) from (${changes}) changes
    group by asset_id having sum(delta) <> 0
    order by asset_id ${UPSERT};`;

const FUNCTION = `create function asset_event_counts_positions() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then${upsert('select asset_id, 1 as delta from new_rows')}
  elsif tg_op = 'DELETE' then${upsert('select asset_id, -1 as delta from old_rows')}
  else${upsert('select asset_id, 1 as delta from new_rows union all select asset_id, -1 from old_rows')}
  end if;
  return null;
end $$`;

const TRIGGERS = [
  ['asset_positions_event_count_insert', 'insert', 'new table as new_rows'],
  ['asset_positions_event_count_delete', 'delete', 'old table as old_rows'],
  ['asset_positions_event_count_update', 'update', 'old table as old_rows new table as new_rows'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`lock table asset_positions in share row exclusive mode`.execute(db);
  await sql
    .raw(
      `insert into asset_event_counts (asset_id, event_type, n)
       select asset_id, 'Position', count(*) from asset_positions group by asset_id order by asset_id ${UPSERT}`,
    )
    .execute(db);
  await sql.raw(FUNCTION).execute(db);
  for (const [name, event, tables] of TRIGGERS) {
    await sql
      .raw(`create trigger ${name} after ${event} on asset_positions referencing ${tables} for each statement execute function asset_event_counts_positions()`)
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [name] of TRIGGERS) await sql.raw(`drop trigger ${name} on asset_positions`).execute(db);
  await sql`drop function asset_event_counts_positions()`.execute(db);
  await sql`delete from asset_event_counts where event_type = 'Position'`.execute(db);
}
