import type { Kysely } from 'kysely';

/**
 * Every list and search reads through an index that holds its scope filter and its order
 * (ARCHITECTURE: "Lists scale"): the pager's inner select of the order keys, the rows it skips
 * for a deep page and the count of the filtered list then read only the index, and the page's
 * own rows are fetched by key. Without them a tenant's 300,000 trips were sorted in full for
 * every page.
 *
 * Each list gets one index for tenant-wide callers, (tenant_id, <order>), and one for
 * subsidiary-bound callers, (tenant_id, subsidiary_id, <order>). The order columns carry the
 * list's direction, so a list that sorts one key descending and the next ascending (newest
 * first, id breaking ties) is read in one forward pass. A filter that is always applied
 * (deductions: not deleted and of one type; carrier statements: readable ones) is part of the
 * index, so counts still never touch the table. The subsidiary variants replace the plain
 * (tenant_id, subsidiary_id) indexes, which are their prefixes.
 *
 * A search filter that is common and selective has its own index when it would otherwise
 * walk the whole tenant: a trip's driver, truck or number, a load's customer. Such an index
 * ends with the subsidiary, so one index serves both kinds of caller without reading rows.
 *
 * Not here: position history (migration 0072), documents (read per owner), and catalogs
 * (accessorial types, reference definitions, subsidiaries: a handful of rows per tenant).
 */

interface ListIndex {
  name: string;
  table: string;
  /** Column names, each optionally followed by ` desc`. */
  columns: string[];
}

const LIST_INDEXES: ListIndex[] = [
  // Trips and loads: creation order; the status filter of their searches has its own pair.
  { name: 'trips_list_idx', table: 'trips', columns: ['tenant_id', 'created_at', 'id'] },
  { name: 'trips_subsidiary_list_idx', table: 'trips', columns: ['tenant_id', 'subsidiary_id', 'created_at', 'id'] },
  { name: 'trips_status_list_idx', table: 'trips', columns: ['tenant_id', 'status', 'created_at', 'id'] },
  { name: 'trips_subsidiary_status_list_idx', table: 'trips', columns: ['tenant_id', 'subsidiary_id', 'status', 'created_at', 'id'] },
  // A trip search by driver or truck (the asset's trips, in creation order): the asset's entries,
  // already in order, with the subsidiary at the end so a bound caller's filter needs no row.
  { name: 'trips_driver_list_idx', table: 'trips', columns: ['tenant_id', 'driver_id', 'created_at', 'id', 'subsidiary_id'] },
  { name: 'trips_truck_list_idx', table: 'trips', columns: ['tenant_id', 'truck_id', 'created_at', 'id', 'subsidiary_id'] },
  { name: 'trips_trip_number_idx', table: 'trips', columns: ['tenant_id', 'trip_number'] },
  { name: 'loads_list_idx', table: 'loads', columns: ['tenant_id', 'created_at', 'id'] },
  { name: 'loads_subsidiary_list_idx', table: 'loads', columns: ['tenant_id', 'subsidiary_id', 'created_at', 'id'] },
  { name: 'loads_status_list_idx', table: 'loads', columns: ['tenant_id', 'status', 'created_at', 'id'] },
  { name: 'loads_subsidiary_status_list_idx', table: 'loads', columns: ['tenant_id', 'subsidiary_id', 'status', 'created_at', 'id'] },
  { name: 'loads_customer_list_idx', table: 'loads', columns: ['tenant_id', 'customer_id', 'created_at', 'id', 'subsidiary_id'] },

  // Assets: by id.
  { name: 'drivers_list_idx', table: 'drivers', columns: ['tenant_id', 'id'] },
  { name: 'drivers_subsidiary_list_idx', table: 'drivers', columns: ['tenant_id', 'subsidiary_id', 'id'] },
  { name: 'trucks_list_idx', table: 'trucks', columns: ['tenant_id', 'id'] },
  { name: 'trucks_subsidiary_list_idx', table: 'trucks', columns: ['tenant_id', 'subsidiary_id', 'id'] },
  { name: 'trailers_list_idx', table: 'trailers', columns: ['tenant_id', 'id'] },
  { name: 'trailers_subsidiary_list_idx', table: 'trailers', columns: ['tenant_id', 'subsidiary_id', 'id'] },

  // Money: newest first. Deductions and credits share a table and deleted ones are never listed.
  { name: 'deductions_list_idx', table: 'deductions', columns: ['tenant_id', 'type', 'date desc', 'id', 'deleted_at'] },
  {
    name: 'deductions_subsidiary_list_idx',
    table: 'deductions',
    columns: ['tenant_id', 'subsidiary_id', 'type', 'date desc', 'id', 'deleted_at'],
  },
  { name: 'maintenance_records_list_idx', table: 'maintenance_records', columns: ['tenant_id', 'service_date desc', 'id'] },
  {
    name: 'maintenance_records_subsidiary_list_idx',
    table: 'maintenance_records',
    columns: ['tenant_id', 'subsidiary_id', 'service_date desc', 'id'],
  },
  {
    name: 'driver_settlement_statements_list_idx',
    table: 'driver_settlement_statements',
    columns: ['tenant_id', 'statement_date', 'number'],
  },
  {
    name: 'driver_settlement_statements_subsidiary_list_idx',
    table: 'driver_settlement_statements',
    columns: ['tenant_id', 'subsidiary_id', 'statement_date', 'number'],
  },
  // Only settled, undeleted statements are readable; both flags ride along so counts stay in the index.
  {
    name: 'carrier_settlement_statements_list_idx',
    table: 'carrier_settlement_statements',
    columns: ['tenant_id', 'statement_date', 'number', 'is_deleted', 'status'],
  },
  {
    name: 'carrier_settlement_statements_subsidiary_list_idx',
    table: 'carrier_settlement_statements',
    columns: ['tenant_id', 'subsidiary_id', 'statement_date', 'number', 'is_deleted', 'status'],
  },

  // Telemetry of one asset, newest first: the scope columns ride along, so a deep page and the
  // count read only the index (position history keeps its (asset_id, recorded_at) index: see the header).
  {
    name: 'asset_telemetry_list_idx',
    table: 'asset_telemetry',
    columns: ['asset_id', 'tenant_id', 'recorded_at desc', 'id', 'subsidiary_id'],
  },

  // Webhooks: creation order. The delivery log of one subscription, newest first, with its tenant
  // in the index so the scope check needs no row.
  { name: 'webhooks_list_idx', table: 'webhooks', columns: ['tenant_id', 'created_at', 'id'] },
  { name: 'webhooks_subsidiary_list_idx', table: 'webhooks', columns: ['tenant_id', 'subsidiary_id', 'created_at', 'id'] },
  {
    name: 'webhook_delivery_attempts_list_idx',
    table: 'webhook_delivery_attempts',
    columns: ['webhook_id', 'tenant_id', 'attempted_at', 'id'],
  },
];

/** Indexes the ones above make redundant: each is a prefix of a new one, on the same columns. */
const REPLACED: ListIndex[] = [
  { name: 'trips_tenant_id_subsidiary_id_idx', table: 'trips', columns: ['tenant_id', 'subsidiary_id'] },
  { name: 'loads_tenant_id_subsidiary_id_idx', table: 'loads', columns: ['tenant_id', 'subsidiary_id'] },
  { name: 'drivers_tenant_id_subsidiary_id_idx', table: 'drivers', columns: ['tenant_id', 'subsidiary_id'] },
  { name: 'trucks_tenant_id_subsidiary_id_idx', table: 'trucks', columns: ['tenant_id', 'subsidiary_id'] },
  { name: 'trailers_tenant_id_subsidiary_id_idx', table: 'trailers', columns: ['tenant_id', 'subsidiary_id'] },
  {
    name: 'maintenance_records_tenant_id_subsidiary_id_idx',
    table: 'maintenance_records',
    columns: ['tenant_id', 'subsidiary_id', 'service_date'],
  },
  {
    name: 'driver_settlement_statements_tenant_id_subsidiary_id_idx',
    table: 'driver_settlement_statements',
    columns: ['tenant_id', 'subsidiary_id'],
  },
  {
    name: 'carrier_settlement_statements_tenant_id_subsidiary_id_idx',
    table: 'carrier_settlement_statements',
    columns: ['tenant_id', 'subsidiary_id'],
  },
  { name: 'webhooks_tenant_id_subsidiary_id_idx', table: 'webhooks', columns: ['tenant_id', 'subsidiary_id'] },
  // Every read of telemetry names the asset and the tenant.
  { name: 'asset_telemetry_asset_recorded_idx', table: 'asset_telemetry', columns: ['asset_id', 'recorded_at'] },
  // Every read of the attempt log names the tenant and the subscription (list, export, health, delete).
  {
    name: 'webhook_delivery_attempts_log_idx',
    table: 'webhook_delivery_attempts',
    columns: ['webhook_id', 'attempted_at', 'id'],
  },
];

async function create(db: Kysely<any>, index: ListIndex): Promise<void> {
  await db.schema.createIndex(index.name).on(index.table).columns(index.columns).execute();
}

async function drop(db: Kysely<any>, index: ListIndex): Promise<void> {
  await db.schema.dropIndex(index.name).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of LIST_INDEXES) await create(db, index);
  for (const index of REPLACED) await drop(db, index);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of REPLACED) await create(db, index);
  for (const index of LIST_INDEXES) await drop(db, index);
}
