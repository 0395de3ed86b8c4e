import { z } from 'zod';
import { ZLatitudeInput, ZLongitudeInput } from '../shared/place.schemas.js';
import { polygonProblem } from './polygon.js';

/**
 * A location's fence fields (docs/api-rules.md#locations): their shapes and bounds. Using them
 * for arrivals, departures and detention is not this module's business.
 */

export const GEOFENCE_RADIUS = { min: 50, max: 5000 } as const;
export const POLYGON_POINTS = { min: 3, max: 100 } as const;
export const MAX_DEPART_RADIUS_METERS = 10_000;
export const MAX_DETENTION_FREE_MINUTES = 1440;

const ZPolygonPoint = z
  .tuple([ZLatitudeInput, ZLongitudeInput])
  .meta({ description: '[Latitude, Longitude]: decimal degrees as text, like Coordinates.', example: ['39.0997', '-94.5786'] });

/** As sent: exactly one of RadiusMeters (a circle around the location's Coordinates) and Polygon. */
export const ZGeofenceInput = z
  .strictObject({
    RadiusMeters: z
      .number()
      .int()
      .min(GEOFENCE_RADIUS.min)
      .max(GEOFENCE_RADIUS.max)
      .optional()
      .meta({ description: "A circle of this radius around the location's Coordinates (which it then needs).", example: 300 }),
    Polygon: z
      .array(ZPolygonPoint)
      .min(POLYGON_POINTS.min)
      .max(POLYGON_POINTS.max)
      .superRefine((points, ctx) => {
        const problem = polygonProblem(points);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional()
      .meta({
        description:
          'The ring of points, 3 to 100, each once: the last joins the first by itself. It must not intersect itself ' +
          '(no two edges meet except neighbours at their shared point). Edges are straight lines in latitude/longitude.',
      }),
  })
  .superRefine((fence, ctx) => {
    const given = [fence.RadiusMeters, fence.Polygon].filter((member) => member !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', message: 'must hold exactly one of RadiusMeters and Polygon' });
  })
  .meta({ description: 'Exactly one of RadiusMeters and Polygon.', minProperties: 1, maxProperties: 1 });
export type TGeofenceInput = z.output<typeof ZGeofenceInput>;

/** As read: the circle or the polygon, as written. */
export const ZGeofence = z
  .union([
    z.object({ RadiusMeters: z.number().int().meta({ example: 300 }) }),
    z.object({ Polygon: z.array(z.tuple([z.string(), z.string()])).meta({ description: '[Latitude, Longitude] points, as written.' }) }),
  ])
  .meta({ id: 'Geofence', description: "A circle of RadiusMeters around the location's Coordinates, or a Polygon." });
export type TGeofence = z.infer<typeof ZGeofence>;

export const ZDepartRadiusMeters = z
  .number()
  .int()
  .min(0)
  .max(MAX_DEPART_RADIUS_METERS)
  .meta({
    description:
      "How far a truck must go for a departure: from a circle's centre (then at least its RadiusMeters) or from a " +
      "polygon's nearest edge. null: the default (1.5 times a circle's radius; 300 outside a polygon).",
    example: 450,
  });

export const ZDetentionFreeMinutes = z
  .number()
  .int()
  .min(0)
  .max(MAX_DETENTION_FREE_MINUTES)
  .meta({ description: "Free time at this location before detention, in minutes (at most a day). null: the customer's, else 120.", example: 120 });

/** The fence as stored and read, from the one member a valid input holds. */
export function toGeofence(fence: TGeofenceInput): TGeofence {
  return fence.RadiusMeters !== undefined ? { RadiusMeters: fence.RadiusMeters } : { Polygon: fence.Polygon!.map(([latitude, longitude]) => [latitude, longitude]) };
}
