import type { Db } from '../../db/create-db.js';
import { isAssetVisible } from '../assets/asset.repository.js';
import { isCarrierVisible } from '../carriers/carrier.repository.js';
import { findCustomerRef } from '../customers/customer.repository.js';
import { AppError, notFound } from '../errors.js';
import { findVisibleDefinitionIds } from '../reference-definitions/reference-definition.repository.js';
import type { Scope } from '../shared/scope.js';
import { anyIdTaken } from '../shared/taken-ids.js';
import { isSubsidiaryVisible } from '../subsidiaries/subsidiary.repository.js';
import { takenLoadNumbers } from './load.repository.js';
import { duplicateLoadNumber } from './load-number.repository.js';
import type { TNewLoad } from './new-load.schemas.js';

/** A 404 naming the body field whose record the caller cannot see (one body for missing and out of scope). */
export function missingRecord(what: string, field: string): AppError {
  return new AppError('NOT_FOUND', `${what} was not found.`, { extensions: { Field: field } });
}

/**
 * What a new load may point at and may not collide with. Referenced records must be visible
 * to the caller (another tenant's or subsidiary's are "not found", as everywhere); ids and the
 * load number must be new.
 */
export async function checkNewLoad(db: Db, scope: Scope, load: TNewLoad): Promise<void> {
  if (load.SubsidiaryId) {
    if (!(await isSubsidiaryVisible(db, scope, load.SubsidiaryId))) throw missingRecord('Subsidiary', 'SubsidiaryId');
  }
  if (load.CustomerId) {
    // A deleted customer reads as 404 everywhere, so no new load may name it; one of no
    // subsidiary is every client's (docs/api-rules.md#tenants-and-subsidiaries).
    if (!(await findCustomerRef(db, scope, load.CustomerId))) throw missingRecord('Customer', 'CustomerId');
  }

  const definitionIds = new Set<string>();
  for (const trip of load.Trips) {
    for (const [table, id, what] of [
      ['drivers', trip.DriverId, 'Driver'],
      ['trucks', trip.TruckId, 'Truck'],
      ['trailers', trip.TrailerId, 'Trailer'],
    ] as const) {
      if (id && !(await isAssetVisible(db, scope, table, id))) throw notFound(what);
    }
    if (trip.CarrierId && !(await isCarrierVisible(db, scope, trip.CarrierId))) throw notFound('Carrier');
    for (const reference of [...(trip.References ?? []), ...trip.Stops.flatMap((stop) => stop.References ?? [])]) {
      if (reference.ReferenceId) definitionIds.add(reference.ReferenceId);
    }
  }
  if (definitionIds.size > 0) {
    const found = await findVisibleDefinitionIds(db, scope, [...definitionIds]);
    if (found.length !== definitionIds.size) throw notFound('Reference definition');
  }

  await checkNewIds(db, scope, load);
}

async function checkNewIds(db: Db, scope: Scope, load: TNewLoad): Promise<void> {
  const conflict = (what: string) => new AppError('CONFLICT', `${what} already exists.`, { subtype: 'InvalidState' });
  const trips = load.Trips.map((trip) => trip.Id);
  const stops = load.Trips.flatMap((trip) => trip.Stops.map((stop) => stop.Id));
  const references = load.Trips.flatMap((trip) => [
    ...(trip.References ?? []).map((reference) => reference.Id),
    ...trip.Stops.flatMap((stop) => (stop.References ?? []).map((reference) => reference.Id)),
  ]);
  const documents = [...(load.Documents ?? []), ...load.Trips.flatMap((trip) => trip.Documents ?? [])].map((document) => document.id);
  for (const [what, ids] of [
    ['Trip', trips],
    ['Stop', stops],
    ['Reference', references],
    ['Document', documents],
  ] as const) {
    if (new Set(ids).size !== ids.length) throw conflict(`A ${what.toLowerCase()} id given twice`);
  }

  // Ids are unique across the whole database (docs/fixtures.md#rules), not only within the tenant.
  const taken = (table: 'loads' | 'trips' | 'stops' | 'trip_references' | 'documents', ids: string[]) => anyIdTaken(db, table, ids);
  if (await taken('loads', [load.Id])) throw conflict('A load with this Id');
  if ((await takenLoadNumbers(db, scope, [load.LoadNumber])).size > 0) throw duplicateLoadNumber(load.LoadNumber);
  if (await taken('trips', trips)) throw conflict('A trip with one of these ids');
  if (await taken('stops', stops)) throw conflict('A stop with one of these ids');
  if (await taken('trip_references', references)) throw conflict('A reference with one of these ids');
  if (await taken('documents', documents)) throw conflict('A document with one of these ids');
}
