/**
 * Whether a geofence polygon is a simple ring (docs/api-rules.md#locations): no point twice,
 * and no two edges meeting except neighbours at their shared point. The ring closes itself
 * (the last point joins the first). Edges are straight lines in latitude/longitude, as a fence
 * of a few kilometres is drawn on a map.
 *
 * The decimal strings are compared exactly: each becomes an integer scaled by the largest
 * number of decimals among them, and the orientation tests are BigInt cross products, so points
 * that are exactly collinear or touching are recognised as such (floating point would round).
 */

interface Point {
  x: bigint;
  y: bigint;
}

/** `[Latitude, Longitude]` pairs as exact integers on one scale (x the longitude, y the latitude). */
function exactPoints(points: ReadonlyArray<readonly [string, string]>): Point[] {
  const decimals = Math.max(0, ...points.flat().map((text) => text.split('.')[1]?.length ?? 0));
  const scaled = (text: string) => {
    const negative = text.startsWith('-');
    const [whole, fraction = ''] = text.replace('-', '').split('.');
    const value = BigInt(whole! + fraction.padEnd(decimals, '0'));
    return negative ? -value : value;
  };
  return points.map(([latitude, longitude]) => ({ x: scaled(longitude), y: scaled(latitude) }));
}

const sign = (value: bigint) => (value > 0n ? 1 : value < 0n ? -1 : 0);
/** Which side of the line a→b the point c is on: 1 left, -1 right, 0 on it. */
const orientation = (a: Point, b: Point, c: Point) => sign((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
const between = (value: bigint, one: bigint, other: bigint) => (one <= other ? one <= value && value <= other : other <= value && value <= one);
/** Whether c, known to be on the line a→b, lies on the segment from a to b. */
const onSegment = (a: Point, b: Point, c: Point) => between(c.x, a.x, b.x) && between(c.y, a.y, b.y);

/** Whether the closed segments p1–p2 and q1–q2 share any point (crossing, touching or overlapping). */
function segmentsMeet(p1: Point, p2: Point, q1: Point, q2: Point): boolean {
  const o1 = orientation(p1, p2, q1);
  const o2 = orientation(p1, p2, q2);
  const o3 = orientation(q1, q2, p1);
  const o4 = orientation(q1, q2, p2);
  // Each segment's ends on different sides of (or one on) the other's line: they meet.
  if (o1 !== o2 && o3 !== o4) return true;
  // Otherwise only an end lying on the other segment can be shared (collinear cases).
  return (o1 === 0 && onSegment(p1, p2, q1)) || (o2 === 0 && onSegment(p1, p2, q2)) || (o3 === 0 && onSegment(q1, q2, p1)) || (o4 === 0 && onSegment(q1, q2, p2));
}

/** Neighbouring edges s→a and s→b (from their shared point s) fold onto each other: collinear, pointing the same way. */
const folds = (s: Point, a: Point, b: Point) => orientation(s, a, b) === 0 && (a.x - s.x) * (b.x - s.x) + (a.y - s.y) * (b.y - s.y) > 0n;

/** Why the ring is not simple, naming points by their 0-based index, or null when it is. */
export function polygonProblem(points: ReadonlyArray<readonly [string, string]>): string | null {
  const ring = exactPoints(points);
  const n = ring.length;
  const at = (i: number) => ring[i % n]!;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (at(i).x === at(j).x && at(i).y === at(j).y) return `must not repeat a point (points ${i} and ${j} are the same; the ring closes itself)`;
    }
  }
  const edge = (i: number) => `the edge from point ${i} to point ${(i + 1) % n}`;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const next = j === i + 1;
      const wraps = i === 0 && j === n - 1;
      const meet = next
        ? folds(at(j), at(i), at(j + 1))
        : wraps
          ? folds(at(i), at(i + 1), at(j))
          : segmentsMeet(at(i), at(i + 1), at(j), at(j + 1));
      if (meet) return `must not intersect itself: ${edge(i)} meets ${edge(j)}`;
    }
  }
  return null;
}
