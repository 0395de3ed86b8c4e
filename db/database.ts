import type { ApiClientsTable, SigningKeysTable, SubsidiariesTable, TenantsTable } from './tables/tenancy.js';

/**
 * Every table of the database, by name. Column types are chosen so that SQLite and Postgres
 * return the same JavaScript values: ids and date-times are text (ISO 8601 UTC), booleans are
 * integers 0/1, money is integer minor units (bigint on Postgres, parsed to number).
 */
export interface Database {
  tenants: TenantsTable;
  subsidiaries: SubsidiariesTable;
  api_clients: ApiClientsTable;
  signing_keys: SigningKeysTable;
}
