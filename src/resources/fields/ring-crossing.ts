// Whether the rings of a polygon cross: a ring that crosses or touches itself (a "bowtie", which
// @turf/area would measure as if nothing were wrong), or a hole whose edge crosses the outer ring's
// or another hole's. A sweep over the segments sorted along one axis compares only segments whose
// extents overlap, so a field outline of 10,000 positions is checked in a few milliseconds.

type Position = readonly [number, number];

/** Sign of the turn a → b → c: 1 left, -1 right, 0 in line. */
const turn = (a: Position, b: Position, c: Position) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));

/** For c in line with a–b: whether c lies on the segment. */
const within = (a: Position, b: Position, c: Position) =>
  Math.min(a[0], b[0]) <= c[0] && c[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= c[1] && c[1] <= Math.max(a[1], b[1]);

/** Whether segments p–q and r–s have a point in common. */
function segmentsMeet(p: Position, q: Position, r: Position, s: Position): boolean {
  const [t1, t2, t3, t4] = [turn(p, q, r), turn(p, q, s), turn(r, s, p), turn(r, s, q)];
  if (t1 !== t2 && t3 !== t4) return true;
  return (t1 === 0 && within(p, q, r)) || (t2 === 0 && within(p, q, s)) || (t3 === 0 && within(r, s, p)) || (t4 === 0 && within(r, s, q));
}

/** Whether segments p–q and r–s cross at a point inside both (touching does not count). */
const segmentsCross = (p: Position, q: Position, r: Position, s: Position) =>
  turn(p, q, r) * turn(p, q, s) < 0 && turn(r, s, p) * turn(r, s, q) < 0;

/** How much of the rings' extent along one axis their segments cover together: the sweep's expected crowd. */
function crowding(rings: ReadonlyArray<readonly Position[]>, axis: 0 | 1): number {
  let [low, high, covered] = [Infinity, -Infinity, 0];
  for (const ring of rings) {
    for (let i = 0; i < ring.length; i++) {
      low = Math.min(low, ring[i]![axis]);
      high = Math.max(high, ring[i]![axis]);
      if (i > 0) covered += Math.abs(ring[i]![axis] - ring[i - 1]![axis]);
    }
  }
  return high > low ? covered / (high - low) : Infinity;
}

/** Where the rings of a polygon cross: `ring` is the offender, `other` the ring it crosses when that is another. */
export interface Crossing {
  ring: number;
  other?: number;
}

/**
 * The first crossing among closed rings (outer ring first, then holes), or undefined. Within a ring,
 * two segments that are not neighbours may not even touch; a hole may touch another ring at a point
 * (as OGC simple features allow) but not cross it. A position repeated right after itself is not a
 * crossing (it draws no line). The sweep runs along the axis the segments crowd least (a comb of long
 * east–west teeth is swept south to north).
 */
export function findCrossing(rings: ReadonlyArray<readonly Position[]>): Crossing | undefined {
  const distinct = rings.map((ring) => ring.filter((point, i) => i === 0 || point[0] !== ring[i - 1]![0] || point[1] !== ring[i - 1]![1]));
  const swap = crowding(distinct, 0) > crowding(distinct, 1);
  const oriented = swap ? distinct.map((ring) => ring.map(([x, y]) => [y, x] as const)) : distinct;
  // Segment s runs from start[s] to start[s] + 1 within `points`, on ring ringOf[s] of `sizes[ringOf[s]]` segments.
  const points: Position[] = [];
  const start: number[] = [];
  const ringOf: number[] = [];
  const indexInRing: number[] = [];
  const sizes = oriented.map((ring) => ring.length - 1);
  oriented.forEach((ring, r) => {
    const offset = points.length;
    points.push(...ring);
    for (let i = 0; i + 1 < ring.length; i++) {
      start.push(offset + i);
      ringOf.push(r);
      indexInRing.push(i);
    }
  });
  const count = start.length;
  const [west, east, south, north] = [0, 1, 2, 3].map(() => new Float64Array(count));
  for (let s = 0; s < count; s++) {
    const [a, b] = [points[start[s]!]!, points[start[s]! + 1]!];
    [west![s], east![s], south![s], north![s]] = [Math.min(a[0], b[0]), Math.max(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[1], b[1])];
  }
  const order = Uint32Array.from({ length: count }, (_, s) => s).sort((a, b) => west![a]! - west![b]!);
  const active: number[] = [];
  for (const s of order) {
    let kept = 0;
    for (const t of active) {
      // A segment that ends before this one starts cannot meet it or any later one: it leaves the sweep.
      if (east![t]! < west![s]!) continue;
      active[kept++] = t;
      if (north![t]! < south![s]! || north![s]! < south![t]!) continue;
      const [p, q, r, v] = [points[start[s]!]!, points[start[s]! + 1]!, points[start[t]!]!, points[start[t]! + 1]!];
      if (ringOf[s] === ringOf[t]) {
        const apart = Math.abs(indexInRing[s]! - indexInRing[t]!);
        if (apart === 1 || apart === sizes[ringOf[s]!]! - 1) continue; // neighbours share their end
        if (sizes[ringOf[s]!]! >= 3 && segmentsMeet(p, q, r, v)) return { ring: ringOf[s]! };
      } else if (segmentsCross(p, q, r, v)) {
        return { ring: Math.max(ringOf[s]!, ringOf[t]!), other: Math.min(ringOf[s]!, ringOf[t]!) };
      }
    }
    active.length = kept;
    active.push(s);
  }
  return undefined;
}
