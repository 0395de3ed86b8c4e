/**
 * Road distance between two points, estimated without a road network: the great-circle
 * distance times 1.2 (docs/api-rules.md#positions-and-etas). Roads are rarely straight; 1.2 is the
 * usual circuity factor for US highway freight and keeps ETAs reproducible from coordinates alone.
 */

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Mean Earth radius in statute miles (IUGG mean radius 6,371.0088 km). */
export const EARTH_RADIUS_MILES = 3958.7613;
export const ROAD_CIRCUITY_FACTOR = 1.2;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Haversine distance in miles; stable for short distances, where the law of cosines is not. */
export function greatCircleMiles(from: LatLng, to: LatLng): number {
  const dLat = radians(to.latitude - from.latitude);
  const dLon = radians(to.longitude - from.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(from.latitude)) * Math.cos(radians(to.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function roadMiles(from: LatLng, to: LatLng): number {
  return greatCircleMiles(from, to) * ROAD_CIRCUITY_FACTOR;
}

/** Stored coordinate strings as numbers; null when either is missing or not a finite number. */
export function toLatLng(latitude: string | null, longitude: string | null): LatLng | null {
  if (latitude === null || longitude === null) return null;
  const lat = Number(latitude);
  const lon = Number(longitude);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || latitude.trim() === '' || longitude.trim() === '') return null;
  return { latitude: lat, longitude: lon };
}
