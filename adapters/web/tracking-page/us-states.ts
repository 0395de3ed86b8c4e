import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoBounds } from 'd3-geo';
import { feature } from 'topojson-client';
import type { Feature, Geometry } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';

export interface StateShape {
  feature: Feature<Geometry>;
  /** [[west, south], [east, north]] in degrees; west > east when the state crosses 180°. */
  bounds: [[number, number], [number, number]];
}

let states: StateShape[] | undefined;

/**
 * US state outlines from `us-atlas` (states-10m, 115 KB of TopoJSON), read and converted once,
 * on the first page that needs them, so the server starts as fast as before and every later
 * page only projects the few states near its route.
 */
export function usStates(): StateShape[] {
  if (!states) {
    const path = createRequire(import.meta.url).resolve('us-atlas/states-10m.json');
    const topology = JSON.parse(readFileSync(path, 'utf8')) as Topology<{ states: GeometryCollection }>;
    const collection = feature(topology, topology.objects.states);
    states = collection.features.map((shape) => ({ feature: shape as Feature<Geometry>, bounds: geoBounds(shape) }));
  }
  return states;
}
