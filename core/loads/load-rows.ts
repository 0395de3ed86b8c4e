import type { Db } from '../../db/create-db.js';
import { addDocumentRows } from '../documents/document-rows.js';
import { claimExternalIds } from '../external-ids/external-id.repository.js';
import { pairsOf, storeExternalIds } from '../external-ids/external-ids.schemas.js';
import { emptyRowSet, insertRowSet, type RowSet } from '../shared/row-set.js';
import { deriveLoadStatus } from '../shared/statuses.js';
import { lineItemRow, referenceRow, stopRow, tripRow, type TripRowsContext } from '../trips/trip-rows.js';
import type { TNewTrip } from '../trips/new-trip.schemas.js';
import { insertNewTrips } from '../trips/trip-write.repository.js';
import { insertLoadRow, loadRecordOf, type LoadRecord } from './load.repository.js';
import type { TNewLoad } from './new-load.schemas.js';

/** The tables a new load fills, in the order foreign keys allow them to be filled. */
export const LOAD_TABLES = ['loads', 'trips', 'stops', 'trip_references', 'trip_line_items', 'documents', 'document_chunks', 'external_ids'] as const;

export type LoadRowSet = RowSet<(typeof LOAD_TABLES)[number]>;

/**
 * What the rows of a load take from where it is created: the tenant, the time of the write, and
 * the tenant's reference definitions (`listReferenceDefinitionTypes`) for catalog-backed references.
 */
export type LoadRowsContext = TripRowsContext;

/**
 * The rows of one load with its trips, stops, references, line items and documents, from the
 * API shape of a new load (`ZNewLoad`, new-load.schemas.ts) with its defaults:
 * statuses derived from the trips and stop times, Manual ETAs from appointments and windows,
 * time zones from coordinates, reference types from their definitions. Everything that stores a
 * new load (the fixture loader, `loads.createLoad`, `loads.importLoad`, tenders) builds it here, so every path stores
 * a load the same way. The caller has checked what the load points at and that its ids are new.
 * The rows are appended to `rows` when given (a fixture collects many loads into one set).
 */
export function buildLoadRows(load: TNewLoad, ctx: LoadRowsContext, rows: LoadRowSet = emptyRowSet(LOAD_TABLES)): LoadRowSet {
  const subsidiaryId = load.SubsidiaryId ?? null;
  const tripStatuses = load.Trips.map((trip) => trip.Status ?? 'Planned');
  rows.loads.push({
    id: load.Id,
    tenant_id: ctx.tenantId,
    subsidiary_id: subsidiaryId,
    load_number: load.LoadNumber,
    customer_id: load.CustomerId ?? null,
    status: load.Status ?? deriveLoadStatus(tripStatuses),
    order_number: load.OrderNumber ?? null,
    equipment: load.Equipment ?? null,
    external_ids: storeExternalIds(load.ExternalIds ?? {}),
    created_at: ctx.now,
    updated_at: ctx.now,
  });
  for (const pair of pairsOf(load.ExternalIds ?? {})) {
    rows.external_ids.push({ tenant_id: ctx.tenantId, kind: 'loads', source: pair.source, value: pair.value, record_id: load.Id });
  }
  for (const document of load.Documents ?? []) {
    addDocumentRows(rows, document, ctx, { parentType: 'Load', parentId: load.LoadNumber, subsidiaryId, loadId: load.Id });
  }
  load.Trips.forEach((trip, index) => buildTripRows(trip, load, index + 1, ctx, rows));
  return rows;
}

/**
 * The rows of one trip of `load` at `sequence` (from 1) with its stops, references, line items
 * and documents, appended to `rows`: a trip of a new load, or one added to a load.
 */
export function buildTripRows(trip: TNewTrip, load: Pick<TNewLoad, 'Id' | 'SubsidiaryId'>, sequence: number, ctx: LoadRowsContext, rows: LoadRowSet): void {
  const subsidiaryId = load.SubsidiaryId ?? null;
  rows.trips.push(tripRow(trip, load, sequence, ctx));
  trip.Stops.forEach((stop, stopIndex) => {
    rows.stops.push(stopRow(stop, trip, stopIndex + 1, ctx));
    for (const reference of stop.References ?? []) rows.trip_references.push(referenceRow(reference, trip.Id, stop.Id, ctx));
  });
  for (const reference of trip.References ?? []) rows.trip_references.push(referenceRow(reference, trip.Id, null, ctx));
  for (const document of trip.Documents ?? []) {
    addDocumentRows(rows, document, ctx, { parentType: 'Trip', parentId: trip.Id, subsidiaryId, loadId: load.Id, tripId: trip.Id });
  }
  (trip.LineItems ?? []).forEach((item, itemIndex) => rows.trip_line_items.push(lineItemRow(item, trip.Id, itemIndex + 1, ctx)));
}

/**
 * Inserts a load's rows in foreign-key order, in the caller's transaction, and claims its
 * ExternalIds pairs (docs/api-rules.md#external-ids): a pair another load holds is a 409
 * Conflict/Duplicate naming it, and a concurrent claim of the same pair waits for this one.
 */
export async function insertLoadRows(trx: Db, rows: LoadRowSet): Promise<void> {
  await insertRowSet(
    trx,
    LOAD_TABLES.filter((table) => table !== 'external_ids'),
    rows,
  );
  await claimLoadExternalIds(trx, rows);
}

/**
 * `insertLoadRows` for the rows of one new load, answering its record as `getLoadRecord` would
 * read it, made of the load, trip, stop and line-item rows as stored (RETURNING) instead of
 * reading them back. The same tables in an order foreign keys allow.
 */
export async function insertNewLoadRows(trx: Db, rows: LoadRowSet): Promise<LoadRecord> {
  const row = await insertLoadRow(trx, rows.loads[0]!);
  const { trips, stops, lineItems } = await insertNewTrips(trx, rows);
  await insertRowSet(trx, ['trip_references', 'documents', 'document_chunks'], rows);
  await claimLoadExternalIds(trx, rows);
  // A new load's trips have the references inserted here and no other: with none, none to read.
  const references = rows.trip_references.length === 0 ? [] : undefined;
  return loadRecordOf(trx, row, trips, { stops, lineItems, references });
}

async function claimLoadExternalIds(trx: Db, rows: LoadRowSet): Promise<void> {
  for (const pair of rows.external_ids) {
    await claimExternalIds(trx, pair.tenant_id, 'loads', pair.record_id, [{ source: pair.source, value: pair.value }]);
  }
}
