import type { TGeofence } from './geofence.schemas.js';

/**
 * The fence rules across fields of one location (docs/api-rules.md#locations): a circle is
 * drawn around the location's Coordinates, so it needs them, and a circle's depart radius is
 * measured from its centre, so one shorter than the circle's radius would mark a truck still
 * inside as departed. Checked on the location as a write would leave it.
 */
export interface FenceFields {
  Coordinates: unknown;
  Geofence: TGeofence | null;
  DepartRadiusMeters: number | null;
}

export interface FenceProblem {
  /** The fields the rule ties together, the one to name first. */
  fields: readonly string[];
  message: string;
}

export function fenceProblem(location: FenceFields): FenceProblem | null {
  const fence = location.Geofence;
  if (!fence || !('RadiusMeters' in fence)) return null;
  if (location.Coordinates === null) {
    return { fields: ['Geofence', 'Coordinates'], message: "A circle (RadiusMeters) is drawn around the location's Coordinates: give them, or a Polygon." };
  }
  if (location.DepartRadiusMeters !== null && location.DepartRadiusMeters < fence.RadiusMeters) {
    return {
      fields: ['DepartRadiusMeters', 'Geofence'],
      message: `DepartRadiusMeters must be at least the circle's RadiusMeters (${fence.RadiusMeters}): it is measured from the centre.`,
    };
  }
  return null;
}
