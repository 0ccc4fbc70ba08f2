// Whether a ring crosses or touches itself (a "bowtie"), which @turf/area would measure as if nothing
// were wrong. A sweep over the segments sorted along one axis compares only segments whose extents
// overlap, so a field outline of 10,000 positions is checked in a few milliseconds.

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

/** How much of the ring's extent along one axis its segments cover together: the sweep's expected crowd. */
function crowding(points: readonly Position[], axis: 0 | 1): number {
  let [low, high, covered] = [Infinity, -Infinity, 0];
  for (let i = 0; i < points.length; i++) {
    low = Math.min(low, points[i]![axis]);
    high = Math.max(high, points[i]![axis]);
    if (i > 0) covered += Math.abs(points[i]![axis] - points[i - 1]![axis]);
  }
  return high > low ? covered / (high - low) : Infinity;
}

/**
 * Whether two segments of a closed ring that are not neighbours meet. A position repeated right
 * after itself is not a crossing (it draws no line), so such repeats are dropped first. The sweep
 * runs along the axis the segments crowd least (a comb of long east–west teeth is swept south to north).
 */
export function ringCrossesItself(ring: readonly Position[]): boolean {
  const distinct = ring.filter((point, i) => i === 0 || point[0] !== ring[i - 1]![0] || point[1] !== ring[i - 1]![1]);
  const points = crowding(distinct, 0) <= crowding(distinct, 1) ? distinct : distinct.map(([x, y]) => [y, x] as const);
  const segments = points.length - 1;
  if (segments < 3) return false;
  const [west, east, south, north] = [0, 1, 2, 3].map(() => new Float64Array(segments));
  for (let i = 0; i < segments; i++) {
    const [a, b] = [points[i]!, points[i + 1]!];
    [west![i], east![i], south![i], north![i]] = [Math.min(a[0], b[0]), Math.max(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[1], b[1])];
  }
  const order = Uint32Array.from({ length: segments }, (_, i) => i).sort((a, b) => west![a]! - west![b]!);
  const active: number[] = [];
  for (const i of order) {
    let kept = 0;
    for (const j of active) {
      // A segment that ends before this one starts cannot meet it or any later one: it leaves the sweep.
      if (east![j]! < west![i]!) continue;
      active[kept++] = j;
      const apart = Math.abs(i - j);
      if (apart === 1 || apart === segments - 1) continue; // neighbours share their end
      if (north![j]! < south![i]! || north![i]! < south![j]!) continue;
      if (segmentsMeet(points[i]!, points[i + 1]!, points[j]!, points[j + 1]!)) return true;
    }
    active.length = kept;
    active.push(i);
  }
  return false;
}
