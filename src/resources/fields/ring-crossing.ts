// Whether the rings of a polygon cross: a ring that crosses or touches itself (a "bowtie", which
// @turf/area would measure as if nothing were wrong), or a hole whose edge crosses the outer ring's
// or another hole's. A line sweeps the segments from west to east keeping those it crosses in order
// from south to north, and compares a segment only with its neighbours in that order when it joins
// or they become neighbours (Shamos and Hoey): O(n log n) expected whatever the shape (the order is
// a skip list), where comparing every segment with all those whose extent overlaps it costs O(n²)
// for a comb of long slanted teeth.
import { forEachEdge } from './edges.js';
import { SweepOrder, type SweepNode } from './sweep-order.js';

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

/** West before east, south before north: the order in which the sweep meets points. */
const comparePoints = (a: Position, b: Position) => a[0] - b[0] || a[1] - b[1];

/** A segment of ring `ring`, the `index`th of its `ringSize`, with its ends ordered west (or south) first. */
interface Segment {
  id: number;
  west: Position;
  east: Position;
  ring: number;
  index: number;
  ringSize: number;
  /** Where the sweep keeps it while it crosses it. */
  node?: SweepNode<Segment>;
}

const contains = (segment: Segment, point: Position) =>
  turn(segment.west, segment.east, point) === 0 && within(segment.west, segment.east, point);

/**
 * Whether `segment` lies above `other` just east of where `segment` begins, `other` being one the
 * sweep crosses there: above the point, or through it and steeper, or along it and made later.
 */
function liesAbove(segment: Segment, other: Segment): boolean {
  const side = turn(other.west, other.east, segment.west);
  if (side !== 0) return side > 0;
  const direction = turn(other.west, other.east, segment.east);
  if (direction !== 0) return direction > 0;
  return segment.id > other.id;
}

/** Adds to `through` (up to `limit`) the segments next to `node` in `order`, itself included, that contain `point`. */
function gatherThrough(order: SweepOrder<Segment>, node: SweepNode<Segment>, point: Position, through: Segment[], limit: number) {
  for (
    let at: SweepNode<Segment> | undefined = node;
    at && contains(at.item, point) && through.length < limit;
    at = order.next(at, 'down')
  ) {
    if (!through.includes(at.item)) through.push(at.item);
  }
  for (let at = order.next(node, 'up'); at && contains(at.item, point) && through.length < limit; at = order.next(at, 'up')) {
    if (!through.includes(at.item)) through.push(at.item);
  }
}

/**
 * The first pair of segments for which `counts` holds that the sweep finds, if any. `counts` must
 * hold for any pair that crosses at a point inside both; pairs that touch or overlap without
 * counting are allowed. With `gather`, it is also asked of up to that many segments through each
 * point that begins or ends a segment (which the neighbour rule alone can miss when segments that
 * do not count lie between two that do).
 */
function sweep(segments: Segment[], counts: (a: Segment, b: Segment) => boolean, gather = 0): [Segment, Segment] | undefined {
  const starts = [...segments].sort((a, b) => comparePoints(a.west, b.west));
  const ends = [...segments].sort((a, b) => comparePoints(a.east, b.east));
  const order = new SweepOrder<Segment>(liesAbove);
  const through: Segment[] = [];
  let [nextStart, nextEnd] = [0, 0];
  try {
    // Every segment starts before it ends, so there is an end to come while there is a start.
    for (let end = ends[nextEnd]; end !== undefined; end = ends[nextEnd]) {
      const start = starts[nextStart];
      const point = start !== undefined && comparePoints(start.west, end.east) <= 0 ? start.west : end.east;
      through.length = 0;
      for (let ending = ends[nextEnd]; ending !== undefined && comparePoints(ending.east, point) === 0; ending = ends[++nextEnd]) {
        const node = ending.node;
        if (node === undefined) throw new Error('The sweep met the end of a segment it did not start');
        if (gather > 0) gatherThrough(order, node, point, through, gather);
        const below = order.next(node, 'down');
        const above = order.next(node, 'up');
        order.remove(node);
        node.item.node = undefined;
        if (below && above && counts(below.item, above.item)) return [below.item, above.item];
      }
      for (
        let segment = starts[nextStart];
        segment !== undefined && comparePoints(segment.west, point) === 0;
        segment = starts[++nextStart]
      ) {
        const node = (segment.node = order.insert(segment));
        const below = order.next(node, 'down');
        const above = order.next(node, 'up');
        if (below && counts(segment, below.item)) return [segment, below.item];
        if (above && counts(segment, above.item)) return [segment, above.item];
        if (gather > 0) gatherThrough(order, node, point, through, gather);
      }
      for (const [i, a] of through.entries()) {
        for (const b of through.slice(i + 1)) if (counts(a, b)) return [a, b];
      }
    }
    return undefined;
  } finally {
    for (const segment of segments) segment.node = undefined;
  }
}

/** Whether two segments of one ring are consecutive (they share an end). */
const neighbours = (a: Segment, b: Segment) => {
  const apart = Math.abs(a.index - b.index);
  return apart === 1 || apart === a.ringSize - 1;
};

/** Where the rings of a polygon cross: `ring` is the offender, `other` the ring it crosses when that is another. */
export interface Crossing {
  ring: number;
  other?: number;
}

/** The segments of each ring, but the edge from a position to itself repeated right after it (it draws no line). */
function segmentsOf(rings: ReadonlyArray<readonly Position[]>): Segment[][] {
  let id = 0;
  return rings.map((ring, r) => {
    const lines: Array<[west: Position, east: Position]> = [];
    forEachEdge(ring, (start, end) => {
      const order = comparePoints(start, end);
      if (order !== 0) lines.push(order < 0 ? [start, end] : [end, start]);
    });
    return lines.map(([west, east], index) => ({ id: id++, west, east, ring: r, index, ringSize: lines.length }));
  });
}

/**
 * The first crossing among closed rings (outer ring first, then holes), or undefined. Within a ring,
 * two segments that are not neighbours may not even touch; a hole may touch another ring at a point
 * (as OGC simple features allow) but not cross it. Every ring is checked on its own first, in order,
 * so a ring that crosses itself is named before any crossing between rings.
 */
export function findCrossing(rings: ReadonlyArray<readonly Position[]>): Crossing | undefined {
  const segments = segmentsOf(rings);
  for (const ring of segments) {
    // In a ring of 3 segments all are neighbours. In a longer one, of any 3 segments two are not, so 3
    // gathered through a point are enough to find two that touch there and count.
    if (ring.length < 4) continue;
    const touching = sweep(ring, (a, b) => !neighbours(a, b) && segmentsMeet(a.west, a.east, b.west, b.east), 3);
    if (touching) return { ring: touching[0].ring };
  }
  if (segments.length < 2) return undefined;
  const crossing = sweep(segments.flat(), (a, b) => a.ring !== b.ring && segmentsCross(a.west, a.east, b.west, b.east));
  if (crossing === undefined) return undefined;
  const [a, b] = crossing;
  return { ring: Math.max(a.ring, b.ring), other: Math.min(a.ring, b.ring) };
}
