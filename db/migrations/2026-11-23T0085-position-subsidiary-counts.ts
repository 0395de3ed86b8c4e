import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * `asset_position_counts`: per asset and subsidiary, how many readings of the asset's history
 * were taken under that subsidiary (a reading keeps the subsidiary its asset had when it was
 * recorded; '' for none, as a key column cannot be null). A subsidiary-bound client sees only
 * its subsidiary's readings, so the history's Total for it (no time range) is this one row,
 * not a count of a busy truck's 50,000 index entries (40 ms on Postgres). Tenant-wide callers
 * read the asset's Position counter in `asset_event_counts` (0073, 0074).
 *
 * Kept exactly as those are: SQLite row triggers; on Postgres statement triggers on the
 * partitioned table over its transition tables, one grouped upsert per statement in key order,
 * and the partition retention subtracting a day's counts before it drops the day's partition
 * (core/visibility/asset-event-counts.repository.ts). The fill runs with the history locked against writes.
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const UPSERT = 'on conflict (asset_id, subsidiary_id) do update set n = asset_position_counts.n + excluded.n';

const sqliteBump = (ref: 'new' | 'old', delta: 1 | -1) => `
    insert into asset_position_counts (asset_id, subsidiary_id, n)
    values (${ref}.asset_id, coalesce(${ref}.subsidiary_id, ''), ${delta}) ${UPSERT};`;

const SQLITE_TRIGGERS = [
  ['asset_positions_subsidiary_count_insert', `after insert on asset_positions begin ${sqliteBump('new', 1)} end`],
  ['asset_positions_subsidiary_count_delete', `after delete on asset_positions begin ${sqliteBump('old', -1)} end`],
  [
    'asset_positions_subsidiary_count_update',
    `after update of asset_id, subsidiary_id on asset_positions
     when old.asset_id is not new.asset_id or old.subsidiary_id is not new.subsidiary_id
     begin ${sqliteBump('old', -1)} ${sqliteBump('new', 1)} end`,
  ],
] as const;

const changes = (rows: string, delta: 1 | -1) => `select asset_id, coalesce(subsidiary_id, '') as subsidiary_id, ${delta} as delta from ${rows}`;

const upsertChanges = (source: string) => `
    insert into asset_position_counts (asset_id, subsidiary_id, n)
    select asset_id, subsidiary_id, sum(delta) from (${source}) changes
    group by asset_id, subsidiary_id having sum(delta) <> 0
    order by asset_id, subsidiary_id ${UPSERT};`;

const POSTGRES_FUNCTION = `create function asset_position_counts_bump() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then${upsertChanges(changes('new_rows', 1))}
  elsif tg_op = 'DELETE' then${upsertChanges(changes('old_rows', -1))}
  else${upsertChanges(`${changes('new_rows', 1)} union all ${changes('old_rows', -1)}`)}
  end if;
  return null;
end $$`;

/** Transition tables allow one event per trigger, and no column list on an update trigger. */
const POSTGRES_TRIGGERS = [
  ['asset_positions_subsidiary_count_insert', 'insert', 'new table as new_rows'],
  ['asset_positions_subsidiary_count_delete', 'delete', 'old table as old_rows'],
  ['asset_positions_subsidiary_count_update', 'update', 'old table as old_rows new table as new_rows'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('asset_position_counts')
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('subsidiary_id', 'text', (c) => c.notNull())
    .addColumn('n', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('asset_position_counts_pkey', ['asset_id', 'subsidiary_id'])
    .execute();
  if (postgres) await sql`lock table asset_positions in share row exclusive mode`.execute(db);
  await sql
    .raw(
      `insert into asset_position_counts (asset_id, subsidiary_id, n)
       select asset_id, coalesce(subsidiary_id, ''), count(*) from asset_positions group by asset_id, coalesce(subsidiary_id, '')`,
    )
    .execute(db);
  if (postgres) {
    await sql.raw(POSTGRES_FUNCTION).execute(db);
    for (const [name, event, tables] of POSTGRES_TRIGGERS) {
      await sql
        .raw(`create trigger ${name} after ${event} on asset_positions referencing ${tables} for each statement execute function asset_position_counts_bump()`)
        .execute(db);
    }
  } else {
    for (const [name, body] of SQLITE_TRIGGERS) await sql.raw(`create trigger ${name} ${body}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const [name] of postgres ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) {
    await sql.raw(`drop trigger ${name}${postgres ? ' on asset_positions' : ''}`).execute(db);
  }
  if (postgres) await sql.raw('drop function asset_position_counts_bump()').execute(db);
  await db.schema.dropTable('asset_position_counts').execute();
}
