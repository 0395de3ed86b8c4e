import type { Db } from '../../db/create-db.js';
import { AppError } from '../errors.js';
import { findVisibleDefinitionIds } from '../reference-definitions/reference-definition.repository.js';
import { newRecordId } from '../shared/record-id.js';
import type { Scope } from '../shared/scope.js';
import type { TNewStop, TNewTrip } from '../trips/new-trip.schemas.js';
import { newReferences, newStopFromInput } from '../trips/stop-input.js';
import { definitionIdsOf } from '../trips/trip-rows.js';
import type { TTripInput } from './load-write.schemas.js';
import { missingRecord } from './new-load-checks.js';
import { assignableStatuses, type AssignableTable } from '../trips/assignable.repository.js';

/** Server-assigned ids (docs/api-rules.md#loads): the prefix says the kind, as everywhere. */
export const newLoadId = () => newRecordId('lod');
export const newTripId = () => newRecordId('trp');

const TRIP_RESOURCES = [
  { field: 'DriverId', table: 'drivers', what: 'Driver' },
  { field: 'TruckId', table: 'trucks', what: 'Truck' },
  { field: 'TrailerId', table: 'trailers', what: 'Trailer' },
  { field: 'CarrierId', table: 'carriers', what: 'Carrier' },
] as const satisfies ReadonlyArray<{ field: keyof TTripInput; table: AssignableTable; what: string }>;

interface InactiveResource {
  field: string;
  what: string;
  id: string;
}

/** A new trip before its load's number is known: TripNumber is set only when the integrator sent one. */
export type UnnumberedTrip = Omit<TNewTrip, 'TripNumber'> & { TripNumber: string | undefined };

export interface NewTrips {
  trips: UnnumberedTrip[];
  /** Records named that are Inactive: the 409 of `refuseInactive`, after the caller's 404s and If-Match. */
  inactive: InactiveResource[];
}

export interface NewTripsPlace {
  /** Where the trips are in the body, for the field a problem names: `Trips[0].` on a new load, `` for one added trip. */
  fieldOf: (index: number, field: string) => string;
}

/**
 * The trips an integrator sent, as new trip records with server ids (docs/api-rules.md#loads):
 * every record they name must be visible to the caller (404 naming the field: drivers,
 * trucks and trailers in its scope, carriers and reference definitions in its tenant, locations
 * through `newStopFromInput`); a trip with a driver or a carrier is Assigned, else Planned.
 */
export async function newTripsFromInput(db: Db, scope: Scope, inputs: readonly TTripInput[], place: NewTripsPlace): Promise<NewTrips> {
  const trips: UnnumberedTrip[] = [];
  const inactive: InactiveResource[] = [];
  for (const [index, trip] of inputs.entries()) {
    // The records the trip names, read in one statement; the first missing one in body order is the 404.
    const named = TRIP_RESOURCES.flatMap((resource) => {
      const id = trip[resource.field];
      return id === undefined ? [] : [{ table: resource.table, id, what: resource.what, field: place.fieldOf(index, resource.field) }];
    });
    const statuses = await assignableStatuses(db, scope, named);
    named.forEach(({ what, field, id }, position) => {
      const status = statuses[position];
      if (status === undefined) throw missingRecord(what, field);
      if (status === 'Inactive') inactive.push({ field, what, id });
    });
    const definitionIds = definitionIdsOf([trip]);
    if (definitionIds.length > 0 && (await findVisibleDefinitionIds(db, scope, definitionIds)).length !== definitionIds.length) {
      throw missingRecord('Reference definition', place.fieldOf(index, 'References'));
    }
    const stops: TNewStop[] = [];
    for (const [stopIndex, stop] of trip.Stops.entries()) {
      // Only a LocationId can be missing here: its 404 names the stop's field.
      const record = await newStopFromInput(db, scope, stop).catch((error: unknown) => {
        if (error instanceof AppError && error.appCode === 'NOT_FOUND') throw missingRecord('Location', place.fieldOf(index, `Stops[${stopIndex}].LocationId`));
        throw error;
      });
      stops.push(record);
    }
    trips.push({
      Id: newTripId(),
      TripNumber: trip.TripNumber,
      Status: trip.DriverId !== undefined || trip.CarrierId !== undefined ? 'Assigned' : 'Planned',
      DriverId: trip.DriverId ?? null,
      TruckId: trip.TruckId ?? null,
      TrailerId: trip.TrailerId ?? null,
      CarrierId: trip.CarrierId ?? null,
      Stops: stops,
      References: newReferences(trip.References),
      LineItems: trip.LineItems ?? [],
    });
  }
  return { trips, inactive };
}

/** docs/api-rules.md#loads: a trip without a TripNumber gets `<LoadNumber>-<n>`, n its position in the load from 1. */
export function numberTrips(trips: readonly UnnumberedTrip[], loadNumber: string, firstPosition: number): TNewTrip[] {
  return trips.map((trip, index) => ({ ...trip, TripNumber: trip.TripNumber ?? `${loadNumber}-${firstPosition + index}` }));
}

/** docs/api-rules.md#loads: an Inactive driver, truck, trailer or carrier cannot go on a new trip. */
export function refuseInactive(inactive: readonly InactiveResource[]): void {
  const [first] = inactive;
  if (!first) return;
  throw new AppError('CONFLICT', `${first.what} ${first.id} is Inactive and cannot be assigned to a trip.`, {
    subtype: 'InvalidState',
    extensions: { Field: first.field },
  });
}
