import type { DriversTable, TrailersTable, TrucksTable } from './tables/assets.js';
import type { AssetPositionsLatestTable, AssetPositionsTable } from './tables/asset-positions.js';
import type { AssetTelemetryTable } from './tables/asset-telemetry.js';
import type { DocumentChunksTable, DocumentsTable } from './tables/documents.js';
import type { DocumentTypeChangesTable } from './tables/document-history.js';
import type { LoadNumbersTable, LoadsTable, StopsTable, TripLineItemsTable, TripsTable } from './tables/loads.js';
import type { CarriersTable, CustomerNumbersTable, CustomersTable, FactoringCompaniesTable, OwnerOperatorsTable } from './tables/parties.js';
import type { ReferenceDefinitionsTable, TripReferencesTable } from './tables/references.js';
import type {
  AccessorialTypesTable,
  CarrierSettlementStatementsTable,
  CarrierStatementPaymentsTable,
  CarrierStatementTripItemsTable,
  CarrierStatementTripsTable,
  DeductionsTable,
  DriverSettlementStatementsTable,
} from './tables/settlements.js';
import type { ApiClientsTable, SigningKeysTable, SubsidiariesTable, TenantsTable } from './tables/tenancy.js';
import type { WebhooksTable } from './tables/webhooks.js';
import type { EventFeedCounterTable, EventFeedHorizonsTable } from './tables/event-feed.js';
import type { OutboxTable } from './tables/outbox.js';
import type { DeliveryAttemptCountsTable, WebhookDeliveriesTable, WebhookDeliveryAttemptsTable } from './tables/webhook-deliveries.js';
import type { AccessorialsTable, IdempotencyKeysTable, MaintenanceRecordsTable } from './tables/money.js';
import type { RateLimitsTable } from './tables/rate-limits.js';
import type { RequestIdempotencyKeysTable } from './tables/request-idempotency-keys.js';
import type { ListCountsTable } from './tables/list-counts.js';
import type { AssetEventCountsTable, AssetPositionCountsTable } from './tables/asset-event-counts.js';
import type { CarrierInsuranceTable, CarrierProfileColumns, LocationsTable, UsersTable } from './tables/master-data.js';
import type { DispatchPreferenceDriversTable, DispatchPreferencesTable } from './tables/dispatch-preferences.js';
import type { InvoiceLineItemsTable, InvoiceLoadsTable, InvoiceNumbersTable, InvoicePaymentsTable, InvoicesTable } from './tables/invoices.js';
import type { DeductionGeneratedFromColumn, FuelTransactionsTable, TollTransactionsTable, TruckOwnerOperatorColumn } from './tables/fuel-tolls.js';
import type { TendersTable } from './tables/tenders.js';
import type { ExternalIdsTable } from './tables/external-ids.js';
import type { TrackingLinksTable } from './tables/tracking-links.js';
import type { VisibilityLoadStateTable, VisibilitySharesTable } from './tables/visibility-shares.js';
import type { LoadNotesTable } from './tables/load-notes.js';
import type { CheckCallsTable } from './tables/check-calls.js';
import type { StopDetentionsTable } from './tables/stop-detentions.js';
import type { EdiDocumentsTable, EdiPartnersTable } from './tables/edi.js';
import type { EdiLoadStatusTable } from './tables/edi-load-status.js';

/**
 * Every table of the database, by name. Column types are chosen so that SQLite and Postgres
 * return the same JavaScript values: ids and date-times are text (ISO 8601 UTC, stored as
 * `YYYY-MM-DDTHH:mm:ss.sssZ`, see core/shared/datetime.ts), booleans are integers 0/1, money
 * is integer minor units (bigint on Postgres, parsed to number) with its currency beside it,
 * binary content is blob/bytea (a Buffer from both drivers).
 */
export interface Database {
  tenants: TenantsTable;
  subsidiaries: SubsidiariesTable;
  api_clients: ApiClientsTable;
  signing_keys: SigningKeysTable;

  customers: CustomersTable;
  customer_numbers: CustomerNumbersTable;
  carriers: CarriersTable & CarrierProfileColumns;
  carrier_insurance: CarrierInsuranceTable;
  owner_operators: OwnerOperatorsTable;
  factoring_companies: FactoringCompaniesTable;
  users: UsersTable;
  locations: LocationsTable;

  drivers: DriversTable;
  trucks: TrucksTable & TruckOwnerOperatorColumn;
  trailers: TrailersTable;
  dispatch_preferences: DispatchPreferencesTable;
  dispatch_preference_drivers: DispatchPreferenceDriversTable;
  asset_positions_latest: AssetPositionsLatestTable;
  asset_positions: AssetPositionsTable;
  asset_telemetry: AssetTelemetryTable;

  reference_definitions: ReferenceDefinitionsTable;
  accessorial_types: AccessorialTypesTable;

  loads: LoadsTable;
  load_numbers: LoadNumbersTable;
  external_ids: ExternalIdsTable;
  trips: TripsTable;
  stops: StopsTable;
  trip_references: TripReferencesTable;
  trip_line_items: TripLineItemsTable;
  documents: DocumentsTable;
  document_chunks: DocumentChunksTable;
  document_type_changes: DocumentTypeChangesTable;

  carrier_settlement_statements: CarrierSettlementStatementsTable;
  carrier_statement_trips: CarrierStatementTripsTable;
  carrier_statement_trip_items: CarrierStatementTripItemsTable;
  carrier_statement_payments: CarrierStatementPaymentsTable;
  driver_settlement_statements: DriverSettlementStatementsTable;
  deductions: DeductionsTable & DeductionGeneratedFromColumn;
  idempotency_keys: IdempotencyKeysTable;
  accessorials: AccessorialsTable;
  maintenance_records: MaintenanceRecordsTable;
  fuel_transactions: FuelTransactionsTable;
  toll_transactions: TollTransactionsTable;

  invoices: InvoicesTable;
  invoice_loads: InvoiceLoadsTable;
  invoice_line_items: InvoiceLineItemsTable;
  invoice_payments: InvoicePaymentsTable;
  invoice_numbers: InvoiceNumbersTable;
  tenders: TendersTable;
  tracking_links: TrackingLinksTable;
  load_notes: LoadNotesTable;
  check_calls: CheckCallsTable;
  stop_detentions: StopDetentionsTable;
  visibility_shares: VisibilitySharesTable;
  visibility_load_state: VisibilityLoadStateTable;
  edi_partners: EdiPartnersTable;
  edi_documents: EdiDocumentsTable;
  edi_load_status: EdiLoadStatusTable;

  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  delivery_attempt_counts: DeliveryAttemptCountsTable;

  outbox: OutboxTable;
  event_feed_counter: EventFeedCounterTable;
  event_feed_horizons: EventFeedHorizonsTable;

  rate_limits: RateLimitsTable;
  request_idempotency_keys: RequestIdempotencyKeysTable;

  list_counts: ListCountsTable;
  asset_event_counts: AssetEventCountsTable;
  asset_position_counts: AssetPositionCountsTable;
}
