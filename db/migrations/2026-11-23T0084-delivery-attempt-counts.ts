import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * `delivery_attempt_counts`: per subscription and attempt status, how many delivery attempts
 * the subscription's log holds, so the log's Total without a time or event-type filter is a sum
 * over at most four rows instead of a count of every attempt (a subscription with 180,000
 * attempts: 60 ms on Postgres, where even an index-only count visits each entry).
 *
 * Kept by triggers as `list_counts` is (migration 0071, which explains the choices): SQLite row
 * triggers; Postgres statement triggers over the transition tables, the changes summed per
 * counter and upserted in key order, so the attempt log's batched inserts (core/webhooks/attempt-log.ts,
 * up to 500 rows a statement) bump each counter once per statement and concurrent writers wait
 * rather than deadlock. Attempts of customer tracking deliveries (no subscription) count nowhere.
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const UPSERT = 'on conflict (webhook_id, status) do update set n = delivery_attempt_counts.n + excluded.n';

const sqliteBump = (ref: 'new' | 'old', delta: 1 | -1) => `
    insert into delivery_attempt_counts (webhook_id, status, n)
    select ${ref}.webhook_id, ${ref}.status, ${delta} where ${ref}.webhook_id is not null ${UPSERT};`;

const SQLITE_TRIGGERS = [
  ['delivery_attempts_count_insert', `after insert on webhook_delivery_attempts begin ${sqliteBump('new', 1)} end`],
  ['delivery_attempts_count_delete', `after delete on webhook_delivery_attempts begin ${sqliteBump('old', -1)} end`],
  [
    'delivery_attempts_count_update',
    `after update of webhook_id, status on webhook_delivery_attempts
     when old.webhook_id is not new.webhook_id or old.status is not new.status
     begin ${sqliteBump('old', -1)} ${sqliteBump('new', 1)} end`,
  ],
] as const;

const changes = (rows: string, delta: 1 | -1) => `select webhook_id, status, ${delta} as delta from ${rows} where webhook_id is not null`;

const upsertChanges = (source: string) => `
    insert into delivery_attempt_counts (webhook_id, status, n)
    select webhook_id, status, sum(delta) from (${source}) changes
    group by webhook_id, status having sum(delta) <> 0
    order by webhook_id, status ${UPSERT};`;

const POSTGRES_FUNCTION = `
create function delivery_attempt_counts_bump() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then${upsertChanges(changes('new_rows', 1))}
  elsif tg_op = 'DELETE' then${upsertChanges(changes('old_rows', -1))}
  else${upsertChanges(`${changes('new_rows', 1)} union all ${changes('old_rows', -1)}`)}
  end if;
  return null;
end $$`;

/** Transition tables allow one event per trigger, and no column list on an update trigger. */
const POSTGRES_TRIGGERS = [
  ['delivery_attempts_count_insert', 'insert', 'new table as new_rows'],
  ['delivery_attempts_count_delete', 'delete', 'old table as old_rows'],
  ['delivery_attempts_count_update', 'update', 'old table as old_rows new table as new_rows'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('delivery_attempt_counts')
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('n', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_attempt_counts_pkey', ['webhook_id', 'status'])
    .execute();
  // Migrations run in one transaction on Postgres, so no row slips in between the fill and the triggers.
  await sql
    .raw(
      'insert into delivery_attempt_counts (webhook_id, status, n) select webhook_id, status, count(*) ' +
        'from webhook_delivery_attempts where webhook_id is not null group by webhook_id, status',
    )
    .execute(db);
  if (postgres) {
    await sql.raw(POSTGRES_FUNCTION).execute(db);
    for (const [name, event, tables] of POSTGRES_TRIGGERS) {
      await sql
        .raw(`create trigger ${name} after ${event} on webhook_delivery_attempts referencing ${tables} for each statement execute function delivery_attempt_counts_bump()`)
        .execute(db);
    }
  } else {
    for (const [name, body] of SQLITE_TRIGGERS) await sql.raw(`create trigger ${name} ${body}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const [name] of postgres ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) {
    await sql.raw(`drop trigger ${name}${postgres ? ' on webhook_delivery_attempts' : ''}`).execute(db);
  }
  if (postgres) await sql.raw('drop function delivery_attempt_counts_bump()').execute(db);
  await db.schema.dropTable('delivery_attempt_counts').execute();
}
