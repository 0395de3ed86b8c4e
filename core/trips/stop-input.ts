import type { Db } from '../../db/create-db.js';
import { notFound } from '../errors.js';
import { getLocation } from '../locations/location.repository.js';
import { newRecordId } from '../shared/record-id.js';
import type { Scope } from '../shared/scope.js';
import { API_REFERENCE_ORIGIN } from './trip-reference-rules.js';
import type { TNewReference, TNewStop, TReferenceInput, TStopInput } from './new-trip.schemas.js';

/** Server-assigned ids (docs/api-rules.md#loads): the prefix says the kind, as everywhere. */
export const newStopId = () => newRecordId('stp');
export const newReferenceId = () => newRecordId('ref');

export function newReferences(references: readonly TReferenceInput[] | null | undefined): TNewReference[] {
  return (references ?? []).map((reference) => ({ Id: newReferenceId(), ...reference, Origin: API_REFERENCE_ORIGIN }));
}

/**
 * A stop an integrator sent, as a new stop record with its id. A `LocationId` (a location of
 * the caller's tenant, else 404 naming the location) fills in what the stop leaves out: the
 * address, the coordinates, the time zone and the company (the location itself, so the stop
 * shows its CompanyNumber and CompanyName: docs/api-rules.md#locations).
 */
export async function newStopFromInput(db: Db, scope: Scope, stop: TStopInput, id: string = newStopId()): Promise<TNewStop> {
  const { References, ...fields } = stop;
  const record: TNewStop = { Id: id, ...fields, References: newReferences(References) };
  if (!stop.LocationId) return record;
  const location = await getLocation(db, scope, stop.LocationId);
  if (!location) throw notFound('Location');
  const { Street, City, State, ZipCode, Country } = location.PhysicalAddress;
  const hasCompany = stop.CompanyId != null || stop.CompanyNumber != null || stop.CompanyName != null;
  return {
    ...record,
    Address: stop.Address ?? { Street, City, State, ZipCode, Country },
    Coordinates: stop.Coordinates ?? location.Coordinates,
    TimeZone: stop.TimeZone ?? location.TimeZone,
    ...(hasCompany ? {} : { CompanyId: location.Id, CompanyNumber: location.CompanyNumber, CompanyName: location.Name }),
  };
}
