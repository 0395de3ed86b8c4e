import type { ColumnType } from 'kysely';

/**
 * How many trips or loads a tenant has per subsidiary ('' for none) and status, kept exact by
 * database triggers (migration 2026-11-23T0071): the Total of an unfiltered or Status-only list.
 * Read-only for the app.
 */
export interface ListCountsTable {
  /** The listed table: 'trips' or 'loads'. */
  list: string;
  tenant_id: string;
  /** '' for rows without a subsidiary. */
  subsidiary_id: string;
  status: string;
  /** bigint on Postgres (the driver returns text), integer on SQLite. */
  n: ColumnType<number | string, never, never>;
}
