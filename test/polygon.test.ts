import { describe, expect, it } from 'vitest';
import { polygonProblem } from '../core/locations/polygon.js';

type Ring = Array<[string, string]>;
/** Points written as [x, y] (longitude, latitude) for readability, turned into [Latitude, Longitude]. */
const ring = (...xy: Array<[number | string, number | string]>): Ring => xy.map(([x, y]) => [String(y), String(x)]);

describe('polygonProblem', () => {
  it('accepts simple rings: convex, concave, either orientation, negative and mixed-precision coordinates', () => {
    for (const points of [
      ring([0, 0], [1, 0], [0, 1]),
      ring([0, 0], [2, 0], [2, 2], [1, 1], [0, 2]),
      ring([0, 2], [1, 1], [2, 2], [2, 0], [0, 0]),
      ring(['-97.3350', '37.69'], ['-97.325', '37.6900'], ['-97.3250', '37.684'], ['-97.335', '37.6840']),
      ring([0, 0], [4, 0], [4, 1], [1, 1], [1, 2], [4, 2], [4, 3], [0, 3]),
    ]) {
      expect(polygonProblem(points), JSON.stringify(points)).toBeNull();
    }
  });

  it('refuses two edges that cross, naming them', () => {
    expect(polygonProblem(ring([0, 0], [2, 2], [2, 0], [0, 2]))).toBe(
      'must not intersect itself: the edge from point 0 to point 1 meets the edge from point 2 to point 3',
    );
  });

  it('refuses a vertex touching a non-neighbouring edge, and two edges overlapping along a line', () => {
    // Point 3 lies on the edge 0→1.
    expect(polygonProblem(ring([0, 0], [4, 0], [4, 2], [2, 0], [0, 2]))).toContain('meets');
    // Edges 0→1 and 3→4 overlap on y = 0 without sharing a vertex.
    expect(polygonProblem(ring([0, 0], [3, 0], [3, 1], [1, 0], [5, 0], [5, 2], [0, 2]))).toContain('meets');
  });

  it('refuses neighbouring edges that fold back, and collinear rings of no area', () => {
    expect(polygonProblem(ring([0, 0], [2, 0], [1, 0], [1, 1]))).toContain('the edge from point 0 to point 1 meets the edge from point 1 to point 2');
    expect(polygonProblem(ring([0, 0], [1, 1], [2, 2]))).toContain('meets');
    // Exactly collinear only with exact arithmetic: 0.1 + 0.2 is not 0.3 in floating point.
    expect(polygonProblem(ring(['0', '0'], ['0.1', '0.1'], ['0.3', '0.3'], ['0.2', '0.2']))).toContain('meets');
  });

  it('refuses a repeated point, including a closing copy of the first', () => {
    expect(polygonProblem(ring([0, 0], [1, 0], [0, 1], [0, 0]))).toBe('must not repeat a point (points 0 and 3 are the same; the ring closes itself)');
    expect(polygonProblem(ring(['1.50', '0'], [2, 2], ['1.5', '0.000'], [0, 2]))).toContain('points 0 and 2 are the same');
  });

  it('accepts points that are very close but distinct and not collinear', () => {
    expect(polygonProblem(ring(['0', '0'], ['0.000000001', '0'], ['0', '0.000000001']))).toBeNull();
  });
});
