import type { ColumnType } from 'kysely';

/**
 * How many events of one type an asset has: stop arrivals and departures on the trips it is
 * assigned to, and its positions; kept exact by database triggers (migrations 2026-11-23T0073
 * and T0074) and, on Postgres, by the partition retention (core/visibility/asset-event-counts.repository.ts).
 * The Total of an asset event search without a time range. Read-only for the app.
 */
export interface AssetEventCountsTable {
  asset_id: string;
  event_type: 'Arrival' | 'Departure' | 'Position';
  /** bigint on Postgres (the driver returns text), integer on SQLite. */
  n: ColumnType<number | string, never, never>;
}

/**
 * How many readings of an asset's history were taken under each subsidiary ('' for none); kept
 * exact by triggers (migration 2026-11-23T0085) and, on Postgres, by the partition retention.
 * The history's Total for a subsidiary-bound caller. Read-only for the app.
 */
export interface AssetPositionCountsTable {
  asset_id: string;
  subsidiary_id: string;
  /** bigint on Postgres (the driver returns text), integer on SQLite. */
  n: ColumnType<number | string, never, never>;
}
