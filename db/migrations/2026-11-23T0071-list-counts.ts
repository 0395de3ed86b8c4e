import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The totals of the two big lists, trips and loads, kept by the database: `list_counts` holds
 * one row per (list, tenant, subsidiary, status) with the number of rows it has. The lists'
 * Total, when the only filters are the caller's scope and Status, is then a sum over a few
 * counter rows instead of a `count(*)` that walks every index entry of the tenant (15-20 ms on
 * SQLite, 35-50 ms on Postgres for 300,000 trips).
 *
 * Triggers keep the counters exact on every write path without app code: AFTER INSERT, AFTER
 * DELETE, and AFTER UPDATE when the tenant, the subsidiary or the status changes. A row without
 * a subsidiary counts under subsidiary_id '' (a primary key column cannot be null). A TRUNCATE
 * fires no row trigger; nothing in the app truncates these tables.
 *
 * Contention (Postgres): a counter row is locked by the transaction that changed it until that
 * transaction ends, so writes creating trips or loads, or moving them between statuses, in the
 * same tenant, subsidiary and status wait for one another's commit. That is acceptable because
 * creation and status changes are low-rate next to reads (lists are read far more often than
 * trips are dispatched) and each such transaction is short. The trigger does only the upserts,
 * and an update touches its two counters in one fixed order (the smaller key first), so two
 * status changes in opposite directions wait for one another rather than deadlock.
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const LISTS = ['trips', 'loads'] as const;

/** The triggers' upsert of one counter: `delta` rows more under the row `ref` (`new` or `old`). */
const sqliteBump = (list: string, ref: 'new' | 'old', delta: 1 | -1) => `
    insert into list_counts (list, tenant_id, subsidiary_id, status, n)
    values ('${list}', ${ref}.tenant_id, coalesce(${ref}.subsidiary_id, ''), ${ref}.status, ${delta})
    on conflict (list, tenant_id, subsidiary_id, status) do update set n = n + (${delta});`;

const SQLITE_CHANGED = 'old.tenant_id is not new.tenant_id or old.subsidiary_id is not new.subsidiary_id or old.status is not new.status';

async function createSqliteTriggers(db: Kysely<any>, list: string): Promise<void> {
  await sql
    .raw(`create trigger ${list}_count_insert after insert on ${list} begin ${sqliteBump(list, 'new', 1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger ${list}_count_delete after delete on ${list} begin ${sqliteBump(list, 'old', -1)} end`)
    .execute(db);
  await sql
    .raw(
      `create trigger ${list}_count_update after update of tenant_id, subsidiary_id, status on ${list} when ${SQLITE_CHANGED} ` +
        `begin ${sqliteBump(list, 'old', -1)} ${sqliteBump(list, 'new', 1)} end`,
    )
    .execute(db);
}

/** One function for both tables: TG_TABLE_NAME is the list. */
const POSTGRES_FUNCTION = `
create function list_counts_bump() returns trigger language plpgsql as $$
declare
  old_key text[];
  new_key text[];
begin
  if tg_op in ('UPDATE', 'DELETE') then
    old_key := array[old.tenant_id, coalesce(old.subsidiary_id, ''), old.status];
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    new_key := array[new.tenant_id, coalesce(new.subsidiary_id, ''), new.status];
  end if;
  -- An update locks its two counter rows in key order, so opposite moves cannot deadlock.
  if old_key is not null and (new_key is null or old_key <= new_key) then
    perform list_counts_add(tg_table_name, old_key, -1);
  end if;
  if new_key is not null then
    perform list_counts_add(tg_table_name, new_key, 1);
  end if;
  if old_key is not null and new_key is not null and old_key > new_key then
    perform list_counts_add(tg_table_name, old_key, -1);
  end if;
  return null;
end $$`;

const POSTGRES_ADD = `
create function list_counts_add(list_name text, key text[], delta bigint) returns void language sql as $$
  insert into list_counts (list, tenant_id, subsidiary_id, status, n)
  values (list_name, key[1], key[2], key[3], delta)
  on conflict (list, tenant_id, subsidiary_id, status) do update set n = list_counts.n + excluded.n
$$`;

async function createPostgresTriggers(db: Kysely<any>, list: string): Promise<void> {
  await sql.raw(`create trigger ${list}_count_rows after insert or delete on ${list} for each row execute function list_counts_bump()`).execute(db);
  await sql
    .raw(
      `create trigger ${list}_count_update after update of tenant_id, subsidiary_id, status on ${list} for each row ` +
        `when (old.tenant_id is distinct from new.tenant_id or old.subsidiary_id is distinct from new.subsidiary_id ` +
        `or old.status is distinct from new.status) execute function list_counts_bump()`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('list_counts')
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('subsidiary_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('n', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('list_counts_pkey', ['list', 'tenant_id', 'subsidiary_id', 'status'])
    .execute();
  if (postgres) {
    await sql.raw(POSTGRES_ADD).execute(db);
    await sql.raw(POSTGRES_FUNCTION).execute(db);
  }
  for (const list of LISTS) {
    // Migrations run in one transaction on Postgres, so no row slips in between the fill and the triggers.
    await sql
      .raw(
        `insert into list_counts (list, tenant_id, subsidiary_id, status, n) ` +
          `select '${list}', tenant_id, coalesce(subsidiary_id, ''), status, count(*) from ${list} ` +
          `group by tenant_id, coalesce(subsidiary_id, ''), status`,
      )
      .execute(db);
    if (postgres) await createPostgresTriggers(db, list);
    else await createSqliteTriggers(db, list);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const list of LISTS) {
    for (const trigger of postgres ? ['rows', 'update'] : ['insert', 'delete', 'update']) {
      await sql.raw(`drop trigger ${list}_count_${trigger}${postgres ? ` on ${list}` : ''}`).execute(db);
    }
  }
  if (postgres) {
    await sql.raw('drop function list_counts_bump()').execute(db);
    await sql.raw('drop function list_counts_add(text, text[], bigint)').execute(db);
  }
  await db.schema.dropTable('list_counts').execute();
}
