import type { TAddress } from './place.schemas.js';

/** The columns a place reported from the road is stored in (check calls, the inbound history's rows). */
export interface PlaceColumns {
  latitude: string | null;
  longitude: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  country: string | null;
}

/** Coordinates only when both halves are there; Address null when every part is. */
export function reportedPlace(row: PlaceColumns): { Coordinates: { Latitude: string; Longitude: string } | null; Address: TAddress | null } {
  const address = { Street: row.street, City: row.city, State: row.state, ZipCode: row.zip_code, Country: row.country };
  return {
    Coordinates: row.latitude !== null && row.longitude !== null ? { Latitude: row.latitude, Longitude: row.longitude } : null,
    Address: Object.values(address).every((value) => value === null) ? null : address,
  };
}
