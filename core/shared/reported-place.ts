import type { CheckCallsTable } from '../../db/tables/check-calls.js';
import type { TAddress } from './place.schemas.js';

/** The columns a place reported from the road is stored in (check calls, positions, the inbound history's rows). */
export type PlaceColumns = Pick<CheckCallsTable, 'latitude' | 'longitude' | 'street' | 'city' | 'state' | 'zip_code' | 'country'>;

/** Coordinates only when both halves are there; Address null when every part is. */
export function reportedPlace(row: PlaceColumns): { Coordinates: { Latitude: string; Longitude: string } | null; Address: TAddress | null } {
  const address = { Street: row.street, City: row.city, State: row.state, ZipCode: row.zip_code, Country: row.country };
  return {
    Coordinates: row.latitude !== null && row.longitude !== null ? { Latitude: row.latitude, Longitude: row.longitude } : null,
    Address: Object.values(address).every((value) => value === null) ? null : address,
  };
}
