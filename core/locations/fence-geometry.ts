/**
 * The fence of a stop and where a position lies against it (docs/api-rules.md#geofences).
 *
 * A stop's fence is its location's Geofence when it names a location that has one, else a
 * circle of 300 m around the stop's Coordinates; a stop without either has none. A circle is
 * measured on the sphere (haversine). A polygon is measured on a local equirectangular
 * projection around its own mean latitude: at the size of a fence (at most a few kilometres)
 * it is off by far less than GPS jitter, and it keeps edges straight as the polygon's rules
 * draw them (core/locations/polygon.ts). Inside a polygon is the even-odd rule, so concave
 * shapes work: a point in a notch is outside.
 *
 * Positions are tested one by one in the ingestion's transaction, so a fence is prepared once
 * (projected ring, depart radius) and each test costs a few multiplications per edge. Every
 * batch reads its trips' fences afresh, and parsing and projecting a polygon of up to 100
 * points costs tens of µs against the microsecond of a circle: a polygon's outline is kept
 * by its stored text (bounded), and its bounding box answers for a position far from it, as
 * most are, without looking at an edge.
 */
import type { LatLng } from '../eta/road-distance.js';

export const DEFAULT_FENCE_RADIUS_METERS = 300;
/** A circle's depart radius without DepartRadiusMeters: 1.5 times its radius. */
export const DEFAULT_CIRCLE_DEPART_FACTOR = 1.5;
/** How far outside a polygon a truck must be for a departure without DepartRadiusMeters. */
export const DEFAULT_POLYGON_DEPART_METERS = 300;

/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS_METERS = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

interface Projected {
  x: number;
  y: number;
}

/** A polygon projected around its own origin, with the box that bounds it there. Shared by every fence of its text: never changed. */
interface Outline {
  readonly origin: LatLng;
  readonly cosOrigin: number;
  readonly ring: readonly Projected[];
  readonly minX: number;
  readonly maxX: number;
  readonly minY: number;
  readonly maxY: number;
}

export type Fence =
  | { shape: 'circle'; centre: LatLng; radiusMeters: number; departMeters: number }
  | { shape: 'polygon'; outline: Outline; departMeters: number };

/** The stored columns a stop's fence is made of: the stop's coordinates and its location's fence fields. */
export interface FenceColumns {
  latitude: string | null;
  longitude: string | null;
  location_latitude: string | null;
  location_longitude: string | null;
  geofence_radius_meters: number | null;
  /** JSON text of `[[Latitude, Longitude], ...]`, as the locations table stores it. */
  geofence_polygon: string | null;
  depart_radius_meters: number | null;
}

function latLng(latitude: string | null, longitude: string | null): LatLng | null {
  if (latitude === null || longitude === null) return null;
  const point = { latitude: Number(latitude), longitude: Number(longitude) };
  return Number.isFinite(point.latitude) && Number.isFinite(point.longitude) ? point : null;
}

/** The stop's fence, or null when it has none (no location fence and no coordinates). */
export function stopFence(columns: FenceColumns): Fence | null {
  const depart = columns.depart_radius_meters;
  if (columns.geofence_polygon !== null) return { shape: 'polygon', outline: outlineOf(columns.geofence_polygon), departMeters: depart ?? DEFAULT_POLYGON_DEPART_METERS };
  const locationCentre = latLng(columns.location_latitude, columns.location_longitude);
  if (columns.geofence_radius_meters !== null && locationCentre) return circleFence(locationCentre, columns.geofence_radius_meters, depart);
  const stopCentre = latLng(columns.latitude, columns.longitude);
  return stopCentre ? circleFence(stopCentre, DEFAULT_FENCE_RADIUS_METERS, depart) : null;
}

/** A circle's depart radius is measured from its centre, so it is never inside the circle itself. */
export function circleFence(centre: LatLng, radiusMeters: number, departMeters: number | null): Fence {
  const depart = departMeters ?? radiusMeters * DEFAULT_CIRCLE_DEPART_FACTOR;
  return { shape: 'circle', centre, radiusMeters, departMeters: Math.max(depart, radiusMeters) };
}

/** Outlines by their stored text, oldest first: a location's polygon changes rarely, and a batch reads it again and again. */
const outlines = new Map<string, Outline>();
/**
 * Outlines kept: the polygons of the stops a process is watching at once. One of 100 points
 * with its text as the key holds about 11 KB, so the cache stays under 25 MB.
 */
const MAX_OUTLINES = 2000;

/** The outline of a stored polygon (`[[Latitude, Longitude], ...]`), parsed and projected once per text while it is kept. */
function outlineOf(text: string): Outline {
  let outline = outlines.get(text);
  if (outline) return outline;
  const points = (JSON.parse(text) as [string, string][]).map(([latitude, longitude]) => latLng(latitude, longitude)!);
  outline = projectOutline(points);
  if (outlines.size >= MAX_OUTLINES) outlines.delete(outlines.keys().next().value!);
  outlines.set(text, outline);
  return outline;
}

function projectOutline(points: readonly LatLng[]): Outline {
  const origin = {
    latitude: points.reduce((sum, point) => sum + point.latitude, 0) / points.length,
    longitude: points[0]!.longitude,
  };
  const cosOrigin = Math.cos(radians(origin.latitude));
  const ring = points.map((point) => project(origin, cosOrigin, point));
  const xs = ring.map((point) => point.x);
  const ys = ring.map((point) => point.y);
  return { origin, cosOrigin, ring, minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
}

function project(origin: LatLng, cosOrigin: number, point: LatLng): Projected {
  return {
    x: radians(point.longitude - origin.longitude) * cosOrigin * EARTH_RADIUS_METERS,
    y: radians(point.latitude - origin.latitude) * EARTH_RADIUS_METERS,
  };
}

/** Haversine distance in metres. */
export function metersBetween(from: LatLng, to: LatLng): number {
  const dLat = radians(to.latitude - from.latitude);
  const dLon = radians(to.longitude - from.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(from.latitude)) * Math.cos(radians(to.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** How far the point is outside the outline's box along x or y, in metres; 0 or less inside it. */
function outsideBox(outline: Outline, p: Projected): number {
  return Math.max(outline.minX - p.x, p.x - outline.maxX, outline.minY - p.y, p.y - outline.maxY);
}

/** Even-odd rule: a ray from the point crosses the ring's edges an odd number of times. */
function inRing(ring: readonly Projected[], p: Projected): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** Distance from the point to the ring's nearest edge, in metres. */
function distanceToRing(ring: readonly Projected[], p: Projected): number {
  let nearest = Number.POSITIVE_INFINITY;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j]!;
    const b = ring[i]!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const length = dx * dx + dy * dy;
    const along = length === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length));
    nearest = Math.min(nearest, Math.hypot(p.x - (a.x + along * dx), p.y - (a.y + along * dy)));
  }
  return nearest;
}

/** Whether the position is inside the fence (on its edge counts as inside a circle). */
export function isInsideFence(fence: Fence, point: LatLng): boolean {
  if (fence.shape === 'circle') return metersBetween(fence.centre, point) <= fence.radiusMeters;
  const { outline } = fence;
  const projected = project(outline.origin, outline.cosOrigin, point);
  return outsideBox(outline, projected) <= 0 && inRing(outline.ring, projected);
}

/**
 * Whether the position is beyond the depart radius: farther than it from a circle's centre, or
 * outside a polygon and farther than it from the polygon's nearest edge.
 */
export function isBeyondDepartRadius(fence: Fence, point: LatLng): boolean {
  if (fence.shape === 'circle') return metersBetween(fence.centre, point) > fence.departMeters;
  const { outline } = fence;
  const projected = project(outline.origin, outline.cosOrigin, point);
  // Farther than the radius outside the box is farther than it from every edge, which lie in the box.
  if (outsideBox(outline, projected) > fence.departMeters) return true;
  return !inRing(outline.ring, projected) && distanceToRing(outline.ring, projected) > fence.departMeters;
}
