import type { Database } from './database.js';

/**
 * The one owner of each table: the folder whose `*.repository.ts` files alone write it (and
 * `selectFrom` it, other than by a join). Others call that repository. `test/table-owners.test.ts`
 * holds the code to this map, and every table of `Database` must be in it.
 */
export const TABLE_OWNERS: Record<keyof Database, string> = {
  tenants: 'core/tenancy',
  subsidiaries: 'core/subsidiaries',
  api_clients: 'core/tenancy',
  signing_keys: 'core/signing-keys',

  customers: 'core/customers',
  customer_numbers: 'core/customers',
  carriers: 'core/carriers',
  carrier_insurance: 'core/carriers',
  // Owner-operators and factoring companies are written only by seeding; carriers' and assets' reads name them.
  owner_operators: 'core/assets',
  factoring_companies: 'core/carriers',
  users: 'core/users',
  locations: 'core/locations',

  drivers: 'core/assets',
  trucks: 'core/assets',
  trailers: 'core/assets',
  dispatch_preferences: 'core/dispatch-preferences',
  dispatch_preference_drivers: 'core/dispatch-preferences',
  asset_positions_latest: 'core/visibility',
  asset_positions: 'core/visibility',
  asset_telemetry: 'core/visibility',

  reference_definitions: 'core/reference-definitions',
  accessorial_types: 'core/accessorials',

  loads: 'core/loads',
  load_numbers: 'core/loads',
  // Each kind's repository claims and releases its pairs through core/external-ids.
  external_ids: 'core/external-ids',
  trips: 'core/trips',
  stops: 'core/trips',
  trip_references: 'core/trips',
  trip_line_items: 'core/trips',
  documents: 'core/documents',
  document_chunks: 'core/documents',
  document_type_changes: 'core/documents',

  carrier_settlement_statements: 'core/settlements',
  carrier_statement_trips: 'core/settlements',
  carrier_statement_trip_items: 'core/settlements',
  carrier_statement_payments: 'core/settlements',
  driver_settlement_statements: 'core/settlements',
  deductions: 'core/deductions',
  idempotency_keys: 'core/idempotency',
  accessorials: 'core/accessorials',
  maintenance_records: 'core/maintenance',
  fuel_transactions: 'core/fuel',
  toll_transactions: 'core/tolls',

  invoices: 'core/invoices',
  invoice_loads: 'core/invoices',
  invoice_line_items: 'core/invoices',
  invoice_payments: 'core/invoices',
  invoice_numbers: 'core/invoices',
  tenders: 'core/tenders',
  tracking_links: 'core/tracking',
  load_notes: 'core/load-notes',
  check_calls: 'core/check-calls',
  stop_detentions: 'core/detention',
  visibility_shares: 'core/visibility-shares',
  visibility_load_state: 'core/visibility-shares',
  // Subfolders (core/edi/inbound, core/edi/outbound) are inside the owner and may keep their own repositories.
  edi_partners: 'core/edi',
  edi_documents: 'core/edi',
  edi_load_status: 'core/edi/outbound',

  webhooks: 'core/webhooks',
  webhook_deliveries: 'core/webhooks',
  webhook_delivery_attempts: 'core/webhooks',
  delivery_attempt_counts: 'core/webhooks',

  outbox: 'core/events',
  event_feed_counter: 'core/events',
  event_feed_horizons: 'core/events',

  // The rate-limit stores are HTTP transport (adapters/http), outside the domains this map polices.
  rate_limits: 'adapters/http',
  request_idempotency_keys: 'core/idempotency',

  // Maintained by triggers; core/shared/list-counts.ts reads it for every list.
  list_counts: 'core/shared',
  asset_event_counts: 'core/visibility',
  asset_position_counts: 'core/visibility',
};
