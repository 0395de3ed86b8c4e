import { describe, expect, it } from 'vitest';
import { isBeyondDepartRadius, isInsideFence, metersBetween, stopFence, type FenceColumns } from '../core/locations/fence-geometry.js';

/** docs/api-rules.md#geofences: the fence of a stop and where a point lies against it. No database. */

const METERS_PER_DEGREE = 111_195.08;
const KC = { latitude: 39.0997, longitude: -94.5786 };

/** The point `north` and `east` metres from `from` (local, as a truck near a fence moves). */
function offset(from: { latitude: number; longitude: number }, north: number, east: number) {
  return {
    latitude: from.latitude + north / METERS_PER_DEGREE,
    longitude: from.longitude + east / (METERS_PER_DEGREE * Math.cos((from.latitude * Math.PI) / 180)),
  };
}
const text = (point: { latitude: number; longitude: number }): [string, string] => [point.latitude.toFixed(7), point.longitude.toFixed(7)];

const NONE: FenceColumns = {
  latitude: null,
  longitude: null,
  location_latitude: null,
  location_longitude: null,
  geofence_radius_meters: null,
  geofence_polygon: null,
  depart_radius_meters: null,
};
const atStop = { ...NONE, latitude: String(KC.latitude), longitude: String(KC.longitude) };

describe('metersBetween', () => {
  it('measures on the sphere: a degree of latitude is about 111.2 km, a degree of longitude shrinks with cos(latitude)', () => {
    expect(metersBetween({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(111_195, -1);
    expect(metersBetween(KC, { latitude: KC.latitude, longitude: KC.longitude + 1 })).toBeCloseTo(86_270, -2);
    expect(metersBetween(KC, offset(KC, 300, 0))).toBeCloseTo(300, 0);
  });
});

describe('stopFence', () => {
  it('is null for a stop without coordinates and without a location fence', () => {
    expect(stopFence(NONE)).toBeNull();
    expect(stopFence({ ...NONE, depart_radius_meters: 500 })).toBeNull();
  });

  it("defaults to a 300 m circle around the stop's coordinates, departing beyond 450 m", () => {
    const fence = stopFence(atStop)!;
    expect(fence).toMatchObject({ shape: 'circle', radiusMeters: 300, departMeters: 450 });
    expect(isInsideFence(fence, offset(KC, 0, 299))).toBe(true);
    expect(isInsideFence(fence, offset(KC, 0, 301))).toBe(false);
    expect(isBeyondDepartRadius(fence, offset(KC, 449, 0))).toBe(false);
    expect(isBeyondDepartRadius(fence, offset(KC, 451, 0))).toBe(true);
  });

  it("takes the location's DepartRadiusMeters beside the default circle, never inside the circle", () => {
    expect(stopFence({ ...atStop, depart_radius_meters: 1000 })).toMatchObject({ radiusMeters: 300, departMeters: 1000 });
    expect(stopFence({ ...atStop, depart_radius_meters: 100 })).toMatchObject({ radiusMeters: 300, departMeters: 300 });
  });

  it("uses the location's circle around the location's coordinates, not the stop's", () => {
    const yard = offset(KC, 2000, 0);
    const fence = stopFence({ ...atStop, location_latitude: String(yard.latitude), location_longitude: String(yard.longitude), geofence_radius_meters: 800 })!;
    expect(fence).toMatchObject({ shape: 'circle', radiusMeters: 800, departMeters: 1200 });
    expect(isInsideFence(fence, KC)).toBe(false);
    expect(isInsideFence(fence, offset(yard, 790, 0))).toBe(true);
    const custom = stopFence({ ...atStop, location_latitude: String(yard.latitude), location_longitude: String(yard.longitude), geofence_radius_meters: 800, depart_radius_meters: 2000 })!;
    expect(isBeyondDepartRadius(custom, offset(yard, 1900, 0))).toBe(false);
    expect(isBeyondDepartRadius(custom, offset(yard, 2100, 0))).toBe(true);
  });
});

describe('polygon fences', () => {
  // A U-shaped yard, 600 m wide and 600 m tall, with a notch 200 m wide and 400 m deep cut from its top.
  const corners = [
    [0, 0],
    [0, 600],
    [600, 600],
    [600, 400],
    [200, 400],
    [200, 200],
    [600, 200],
    [600, 0],
  ].map(([north, east]) => offset(KC, north!, east!));
  const fence = stopFence({ ...NONE, geofence_polygon: JSON.stringify(corners.map(text)) })!;

  it('is inside in the arms and the base of a concave shape', () => {
    expect(fence.shape).toBe('polygon');
    expect(isInsideFence(fence, offset(KC, 100, 300))).toBe(true);
    expect(isInsideFence(fence, offset(KC, 500, 100))).toBe(true);
    expect(isInsideFence(fence, offset(KC, 500, 500))).toBe(true);
  });

  it('is outside in the notch and around the shape', () => {
    expect(isInsideFence(fence, offset(KC, 500, 300))).toBe(false);
    expect(isInsideFence(fence, offset(KC, -10, 300))).toBe(false);
    expect(isInsideFence(fence, offset(KC, 300, 610))).toBe(false);
  });

  it("departs 300 m from the nearest edge by default, measured from the edge, not the centre", () => {
    expect(fence.departMeters).toBe(300);
    // 250 m south of the base edge: outside, not yet departed; 350 m: departed.
    expect(isBeyondDepartRadius(fence, offset(KC, -250, 300))).toBe(false);
    expect(isBeyondDepartRadius(fence, offset(KC, -350, 300))).toBe(true);
    // Deep in the notch, 100 m from each arm: outside the fence but never departed.
    expect(isBeyondDepartRadius(fence, offset(KC, 550, 300))).toBe(false);
    // Inside is never departed, whatever the radius.
    const zero = stopFence({ ...NONE, geofence_polygon: JSON.stringify(corners.map(text)), depart_radius_meters: 0 })!;
    expect(isBeyondDepartRadius(zero, offset(KC, 100, 300))).toBe(false);
    expect(isBeyondDepartRadius(zero, offset(KC, 500, 300))).toBe(true);
  });

  it('measures a point beyond a corner from the corner, not from the box around the shape', () => {
    // South-west of the corner at KC: 250 m outside the box each way, 354 m from the corner itself.
    expect(isBeyondDepartRadius(fence, offset(KC, -250, -250))).toBe(true);
    expect(isBeyondDepartRadius(fence, offset(KC, -200, -200))).toBe(false);
    expect(isInsideFence(fence, offset(KC, -250, -250))).toBe(false);
    // Far away, as most positions are: outside, and departed.
    expect(isInsideFence(fence, offset(KC, 50_000, 300))).toBe(false);
    expect(isBeyondDepartRadius(fence, offset(KC, 50_000, 300))).toBe(true);
  });

  it('takes the polygon over the stop coordinates, and DepartRadiusMeters from the edge', () => {
    const wide = stopFence({ ...atStop, geofence_polygon: JSON.stringify(corners.map(text)), depart_radius_meters: 1000 })!;
    expect(wide).toMatchObject({ shape: 'polygon', departMeters: 1000 });
    expect(isBeyondDepartRadius(wide, offset(KC, -900, 300))).toBe(false);
    expect(isBeyondDepartRadius(wide, offset(KC, -1100, 300))).toBe(true);
  });
});
