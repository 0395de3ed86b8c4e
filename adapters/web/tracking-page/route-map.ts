import { geoMercator, geoPath } from 'd3-geo';
import type { TrackingPage } from '../../../core/tracking/tracking-page.js';
import { escapeHtml } from './escape.js';
import { usStates, type StateShape } from './us-states.js';

const WIDTH = 600;
const HEIGHT = 400;
const PADDING = 40;
/** The smallest area shown, in degrees, so a route within one city still has a readable map. */
const MIN_SPAN = 1.5;

type LonLat = [number, number];

function lonLat(coordinates: { Latitude: string; Longitude: string } | null): LonLat | null {
  if (!coordinates) return null;
  const point: LonLat = [Number(coordinates.Longitude), Number(coordinates.Latitude)];
  return Number.isFinite(point[0]) && Number.isFinite(point[1]) ? point : null;
}

interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** The route's points with a margin (15 % of the span, at least MIN_SPAN overall). */
function viewBox(points: readonly LonLat[]): Box {
  const lons = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  const grow = (low: number, high: number): [number, number] => {
    const margin = Math.max((high - low) * 0.15, (MIN_SPAN - (high - low)) / 2, 0);
    return [low - margin, high + margin];
  };
  const [west, east] = grow(Math.min(...lons), Math.max(...lons));
  const [south, north] = grow(Math.min(...lats), Math.max(...lats));
  return { west, south, east, north };
}

function overlaps(state: StateShape, box: Box): boolean {
  const [[west, south], [east, north]] = state.bounds;
  if (north < box.south || south > box.north) return false;
  if (west > east) return box.east >= west || box.west <= east;
  return !(east < box.west || west > box.east);
}

/**
 * The route drawn offline as inline SVG (no tiles, no outside request): the outlines of the
 * states near the route, the route through the stops in order, a numbered marker per stop and
 * the truck at its last known position. The projection is fitted to the route's points, and
 * paths are clipped to the picture and rounded to a tenth of a pixel, which keeps the markup
 * small. Null when no point of the route is geocoded.
 */
export function renderRouteMap(page: TrackingPage): string | null {
  const stops = page.Stops.map((stop) => ({ stop, point: lonLat(stop.Coordinates) })).filter(
    (entry): entry is { stop: (typeof page.Stops)[number]; point: LonLat } => entry.point !== null,
  );
  const truck = page.LastPosition ? lonLat(page.LastPosition.Coordinates) : null;
  const points = [...stops.map((entry) => entry.point), ...(truck ? [truck] : [])];
  if (points.length === 0) return null;

  const box = viewBox(points);
  const frame = {
    type: 'MultiPoint' as const,
    coordinates: [
      [box.west, box.south],
      [box.east, box.north],
      [box.west, box.north],
      [box.east, box.south],
    ],
  };
  const projection = geoMercator()
    .fitExtent(
      [
        [PADDING, PADDING],
        [WIDTH - PADDING, HEIGHT - PADDING],
      ],
      frame,
    )
    .clipExtent([
      [0, 0],
      [WIDTH, HEIGHT],
    ]);
  const path = geoPath(projection).digits(1);
  const at = (point: LonLat) => projection(point) ?? [0, 0];
  const xy = ([x, y]: [number, number]) => `${x.toFixed(1)},${y.toFixed(1)}`;

  // The picture shows more than the route's box (its aspect differs): draw every state in it.
  const [west, north] = projection.invert?.([0, 0]) ?? [box.west, box.north];
  const [east, south] = projection.invert?.([WIDTH, HEIGHT]) ?? [box.east, box.south];
  const shown: Box = { west, south, east, north };
  const outlines = usStates()
    .filter((state) => overlaps(state, shown))
    .map((state) => path(state.feature))
    .filter((d): d is string => Boolean(d))
    .map((d) => `<path d="${d}"/>`)
    .join('');
  const route = stops.length > 1 ? `<polyline class="map-route" points="${stops.map((entry) => xy(at(entry.point))).join(' ')}"/>` : '';
  const markers = stops
    .map(({ stop, point }) => {
      const [x, y] = at(point);
      const label = [stop.City, stop.State].filter(Boolean).join(', ') || stop.StopType;
      return (
        `<g class="map-stop map-stop-${escapeHtml(stop.Status.toLowerCase())}" id="map-stop-${stop.Sequence}" data-sequence="${stop.Sequence}">` +
        `<title>${stop.Sequence}. ${escapeHtml(stop.StopType)}: ${escapeHtml(label)}</title>` +
        `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="15"/>` +
        `<text x="${x.toFixed(1)}" y="${(y + 5.5).toFixed(1)}" text-anchor="middle">${stop.Sequence}</text>` +
        `<text class="map-label" x="${(x + 20).toFixed(1)}" y="${(y + 6).toFixed(1)}">${escapeHtml(label)}</text>` +
        `</g>`
      );
    })
    .join('');
  const truckMarker = truck
    ? (() => {
        const [x, y] = at(truck);
        return (
          `<g class="map-truck" id="map-truck"><title>Last known position</title>` +
          `<circle class="map-truck-halo" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="22"/>` +
          `<rect x="${(x - 13).toFixed(1)}" y="${(y - 9).toFixed(1)}" width="17" height="13" rx="2"/>` +
          `<rect x="${(x + 5).toFixed(1)}" y="${(y - 4).toFixed(1)}" width="9" height="8" rx="2"/>` +
          `<circle class="map-wheel" cx="${(x - 7).toFixed(1)}" cy="${(y + 6).toFixed(1)}" r="3"/>` +
          `<circle class="map-wheel" cx="${(x + 9).toFixed(1)}" cy="${(y + 6).toFixed(1)}" r="3"/></g>`
        );
      })()
    : '';
  return (
    `<svg class="map" id="route-map" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="map-title" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="map-title">Map of the route of load ${escapeHtml(page.LoadNumber)}</title>` +
    `<rect class="map-water" width="${WIDTH}" height="${HEIGHT}"/>` +
    `<g class="map-states">${outlines}</g>${route}${markers}${truckMarker}</svg>`
  );
}
