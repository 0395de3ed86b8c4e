import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Postgres: position history becomes a table partitioned by RANGE on recorded_at, one
 * partition per UTC day (created and dropped by workers/position-partitions.ts) and a DEFAULT
 * partition for readings of days without one. Old days then go with a DROP TABLE instead of a
 * DELETE that leaves a bloated table and index behind. SQLite keeps the one table.
 *
 * recorded_at is collated "C" on the column itself, not only in the partition key: the
 * partition bounds ('2026-11-22' ≤ key < '2026-11-23') then compare byte-wise whatever the
 * database's collation, and the app's plain `recorded_at >= $1` filters and the
 * (asset_id, recorded_at) index share the key's collation, which partition pruning requires.
 * For the stored `YYYY-MM-DDTHH:mm:ss.sssZ` strings byte order is time order.
 *
 * The primary key must include the partition key, so it becomes (id, recorded_at). Existing
 * rows are copied into the new table and land in the DEFAULT partition; the maintenance pass
 * that runs at startup moves the recent days' rows into their daily partitions.
 */
const COLUMNS = sql.raw(
  [
    'tenant_id',
    'subsidiary_id',
    'asset_id',
    'asset_type',
    'source',
    'latitude',
    'longitude',
    'street',
    'city',
    'state',
    'zip_code',
    'country',
    'formatted_address',
    'recorded_at',
    'received_at',
    'trip_id',
    'trip_number',
    'odometer',
    'odometer_reading_at',
    'id',
  ].join(', '),
);

/** The columns of 2026-11-22T0060 in its order; `recordedAt` differs between the two shapes. */
const columnDefinitions = (recordedAt: string) =>
  sql.raw(`
    tenant_id text not null,
    subsidiary_id text,
    asset_id text not null,
    asset_type text not null,
    source text not null,
    latitude text not null,
    longitude text not null,
    street text,
    city text,
    state text,
    zip_code text,
    country text,
    formatted_address text,
    recorded_at ${recordedAt},
    received_at text not null,
    trip_id text,
    trip_number text,
    odometer double precision,
    odometer_reading_at text,
    id text not null`);

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Moves the current asset_positions (table, key, foreign key, index) aside under `aside`. */
async function moveAside(db: Kysely<any>, aside: string): Promise<void> {
  await sql`alter table asset_positions rename to ${sql.id(aside)}`.execute(db);
  await sql`alter table ${sql.id(aside)} rename constraint asset_positions_pkey to ${sql.id(`${aside}_pkey`)}`.execute(db);
  await sql`alter table ${sql.id(aside)} rename constraint asset_positions_tenant_id_fkey to ${sql.id(`${aside}_tenant_id_fkey`)}`.execute(db);
  await sql`alter index asset_positions_asset_recorded_idx rename to ${sql.id(`${aside}_asset_recorded_idx`)}`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await moveAside(db, 'asset_positions_unpartitioned');
  await sql`
    create table asset_positions (${columnDefinitions('text collate "C" not null')},
      constraint asset_positions_pkey primary key (id, recorded_at),
      constraint asset_positions_tenant_id_fkey foreign key (tenant_id) references tenants (id)
    ) partition by range (recorded_at)`.execute(db);
  await sql`create index asset_positions_asset_recorded_idx on asset_positions (asset_id, recorded_at)`.execute(db);
  await sql`create table asset_positions_default partition of asset_positions default`.execute(db);
  await sql`insert into asset_positions (${COLUMNS}) select ${COLUMNS} from asset_positions_unpartitioned`.execute(db);
  await sql`drop table asset_positions_unpartitioned`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await moveAside(db, 'asset_positions_partitioned');
  await sql`
    create table asset_positions (${columnDefinitions('text not null')},
      constraint asset_positions_pkey primary key (id),
      constraint asset_positions_tenant_id_fkey foreign key (tenant_id) references tenants (id)
    )`.execute(db);
  await sql`create index asset_positions_asset_recorded_idx on asset_positions (asset_id, recorded_at)`.execute(db);
  await sql`insert into asset_positions (${COLUMNS}) select ${COLUMNS} from asset_positions_partitioned`.execute(db);
  // Drops every daily partition and the default one with it.
  await sql`drop table asset_positions_partitioned`.execute(db);
}
