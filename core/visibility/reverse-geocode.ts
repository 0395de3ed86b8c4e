/**
 * Offline reverse geocoding (DECISIONS "Visibility"): the nearest ZIP code centroid from the
 * US and Canada tables bundled in the `reverse-geocode` package; no network call. A point
 * farther than MAX_DISTANCE_KM from every centroid (open sea, another continent) has no
 * address rather than a misleading one.
 */
import reverseGeocode from 'reverse-geocode';
import type { TAddress } from './position.schemas.js';

const MAX_DISTANCE_KM = 150;
const COUNTRIES = [
  { code: 'us', name: 'US' },
  { code: 'ca', name: 'CA' },
] as const;

export function resolveAddress(latitude: number, longitude: number): TAddress | null {
  let best: { address: TAddress; distance: number } | null = null;
  for (const country of COUNTRIES) {
    // The package adds `distance` (km) to the entry it returns.
    const found = reverseGeocode.lookup(latitude, longitude, country.code) as
      | (ReturnType<typeof reverseGeocode.lookup> & { distance?: number })
      | undefined;
    if (!found || found.distance === undefined || !Number.isFinite(found.distance)) continue;
    if (best && best.distance <= found.distance) continue;
    best = {
      distance: found.distance,
      address: {
        Street: null,
        City: found.city ?? null,
        State: found.state_abbr ?? null,
        ZipCode: found.zipcode === undefined ? null : String(found.zipcode),
        Country: country.name,
      },
    };
  }
  return best && best.distance <= MAX_DISTANCE_KM ? best.address : null;
}

/** "Street, City, ST 64106, US" from the parts present. */
export function formatAddress(address: TAddress | null): string | null {
  if (!address) return null;
  const region = [address.State, address.ZipCode].filter(Boolean).join(' ');
  const parts = [address.Street, address.City, region, address.Country].filter((part) => part);
  return parts.length === 0 ? null : parts.join(', ');
}
