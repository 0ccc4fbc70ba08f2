// Rings that cross are refused (turf measures a bowtie as area 0 and calls it valid), without
// refusing the outlines real fields have.
import { describe, expect, it } from 'vitest';
import { findCrossing } from '../../src/resources/fields/ring-crossing.js';

type Ring = Array<[number, number]>;

const circle = (positions: number): Ring => {
  const ring: Ring = [];
  for (let i = 0; i < positions - 1; i++) {
    const angle = (2 * Math.PI * i) / (positions - 1);
    ring.push([5 + 0.01 * Math.cos(angle), 52 + 0.01 * Math.sin(angle)]);
  }
  return [...ring, ring[0]!];
};

/** A valid ring of long east–west teeth, every tooth spanning the whole width: the crowded case of a sweep. */
const comb = (teeth: number): Ring => {
  const ring: Ring = [[0, 0]];
  for (let i = 0; i < teeth; i++) ring.push([1000, 2 * i], [1000, 2 * i + 1], [1, 2 * i + 1], [1, 2 * i + 2]);
  return [...ring, [0, 2 * teeth], [0, 0]];
};

/**
 * A comb whose teeth rise so steeply that every segment's extent overlaps every other's along both
 * axes: sweeping along either axis, each segment meets all the others (the worst case of a sweep
 * that compares overlapping extents). `teeth` 2,499 gives 10,000 positions.
 */
const slantedComb = (teeth: number): Ring => {
  const rise = 4 * teeth;
  const ring: Ring = [[1, 0]];
  for (let i = 0; i < teeth; i++) ring.push([1000, rise + 2 * i], [1000, rise + 2 * i + 1], [1, 2 * i + 1], [1, 2 * i + 2]);
  return [...ring, [0, 2 * teeth], [0, 0], [1, 0]];
};

describe('findCrossing, one ring', () => {
  it.each<[string, Ring]>([
    [
      'a square',
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 0],
      ],
    ],
    [
      'a square with repeated positions',
      [
        [0, 0],
        [1, 0],
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 1],
        [0, 0],
      ],
    ],
    [
      'a concave L',
      [
        [0, 0],
        [2, 0],
        [2, 1],
        [1, 1],
        [1, 2],
        [0, 2],
        [0, 0],
      ],
    ],
    ['a circle of 10,000 positions', circle(10_000)],
    ['a comb of 2,000 teeth', comb(2_000)],
    ['a slanted comb of 10,000 positions', slantedComb(2_499)],
  ])('accepts %s', (_, ring) => {
    expect(findCrossing([ring])).toBeUndefined();
  });

  it.each<[string, Ring]>([
    [
      'a bowtie',
      [
        [0, 0],
        [1, 1],
        [1, 0],
        [0, 1],
        [0, 0],
      ],
    ],
    [
      'a ring touching itself at a vertex',
      [
        [0, 0],
        [2, 0],
        [2, 2],
        [1, 0],
        [0, 2],
        [0, 0],
      ],
    ],
    [
      'a ring running back along itself',
      [
        [0, 0],
        [2, 0],
        [2, 1],
        [1, 1],
        [1, 0],
        [3, 0],
        [3, 2],
        [0, 2],
        [0, 0],
      ],
    ],
    ['a comb whose last tooth cuts the first', [...comb(50).slice(0, -2), [500, -1], [0, -1], [0, 0]]],
    [
      'a slanted comb of 10,000 positions whose last tooth cuts them all',
      [...slantedComb(2_499).slice(0, -3), [1000, -1], [0, -1], [1, 0]],
    ],
    ['a circle with one position pulled across it', circle(1_000).map((p, i) => (i === 500 ? [5.02, 52.0] : p))],
  ])('refuses %s', (_, ring) => {
    expect(findCrossing([ring])).toEqual({ ring: 0 });
  });
});

describe('findCrossing, holes', () => {
  const outer: Ring = [
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
    [0, 0],
  ];
  const square = (x: number, y: number, size: number): Ring => [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
    [x, y],
  ];

  it('accepts holes inside the outer ring, and a hole touching it at one point', () => {
    expect(findCrossing([outer, square(2, 2, 2), square(6, 6, 2)])).toBeUndefined();
    expect(
      findCrossing([
        outer,
        [
          [0, 5],
          [3, 4],
          [3, 6],
          [0, 5],
        ],
      ]),
    ).toBeUndefined();
  });

  it('refuses a hole that crosses the outer ring, or another hole, naming both', () => {
    expect(findCrossing([outer, square(8, 8, 4)])).toEqual({ ring: 1, other: 0 });
    expect(findCrossing([outer, square(2, 2, 3), square(4, 4, 3)])).toEqual({ ring: 2, other: 1 });
  });

  it('refuses a hole that crosses itself', () => {
    expect(
      findCrossing([
        outer,
        [
          [2, 2],
          [4, 4],
          [4, 2],
          [2, 4],
          [2, 2],
        ],
      ]),
    ).toEqual({ ring: 1 });
  });
});

// The rules of findCrossing, checked pair by pair: every pair of segments, O(n²). A ring that crosses
// or touches itself is named first (the lowest such ring); otherwise any pair of rings that cross.
type Point = [number, number];
const turnOf = (a: Point, b: Point, c: Point) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
const onSegment = (a: Point, b: Point, c: Point) =>
  turnOf(a, b, c) === 0 &&
  Math.min(a[0], b[0]) <= c[0] &&
  c[0] <= Math.max(a[0], b[0]) &&
  Math.min(a[1], b[1]) <= c[1] &&
  c[1] <= Math.max(a[1], b[1]);
const meet = ([p, q]: Point[], [r, s]: Point[]) =>
  (turnOf(p!, q!, r!) * turnOf(p!, q!, s!) < 0 && turnOf(r!, s!, p!) * turnOf(r!, s!, q!) < 0) ||
  onSegment(p!, q!, r!) ||
  onSegment(p!, q!, s!) ||
  onSegment(r!, s!, p!) ||
  onSegment(r!, s!, q!);
const cross = ([p, q]: Point[], [r, s]: Point[]) =>
  turnOf(p!, q!, r!) * turnOf(p!, q!, s!) < 0 && turnOf(r!, s!, p!) * turnOf(r!, s!, q!) < 0;

function referenceCrossings(rings: Ring[]): { selfTouching?: number; crossingPairs: Set<string> } {
  const segments = rings.map((ring) => {
    const points = ring.filter((p, i) => i === 0 || p[0] !== ring[i - 1]![0] || p[1] !== ring[i - 1]![1]);
    return points.slice(1).map((end, i) => [points[i]!, end]);
  });
  for (let r = 0; r < segments.length; r++) {
    const ring = segments[r]!;
    for (let i = 0; i < ring.length; i++) {
      for (let j = i + 2; j < ring.length; j++) {
        if (i === 0 && j === ring.length - 1) continue;
        if (meet(ring[i]!, ring[j]!)) return { selfTouching: r, crossingPairs: new Set() };
      }
    }
  }
  const crossingPairs = new Set<string>();
  for (let r = 0; r < segments.length; r++)
    for (let o = 0; o < r; o++) for (const a of segments[r]!) for (const b of segments[o]!) if (cross(a, b)) crossingPairs.add(`${r},${o}`);
  return { crossingPairs };
}

/** A small deterministic generator (mulberry32), so that a failure can be replayed from its seed. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (below: number) => Math.floor(next() * below) };
}

/**
 * Rings on a small integer grid, where positions repeat, segments overlap, touch and run along one
 * another (the degenerate cases a sweep must get right): random walks, star shapes around a centre
 * (often simple), rectangles, and repeated positions.
 */
function randomRing(random: ReturnType<typeof generator>, size: number): Ring {
  const kind = random.int(3);
  let points: Point[];
  if (kind === 0) {
    points = Array.from({ length: 3 + random.int(8) }, () => [random.int(size), random.int(size)] as Point);
  } else if (kind === 1) {
    const [cx, cy] = [random.int(size), random.int(size)];
    const angles = Array.from({ length: 3 + random.int(10) }, () => random.next() * 2 * Math.PI).sort((a, b) => a - b);
    points = angles.map((angle) => {
      const radius = 1 + random.int(size / 2);
      return [cx + Math.round(radius * Math.cos(angle)), cy + Math.round(radius * Math.sin(angle))] as Point;
    });
  } else {
    const [x, y, w, h] = [random.int(size), random.int(size), 1 + random.int(size / 2), 1 + random.int(size / 2)];
    points = [
      [x, y],
      [x + w, y],
      [x + w, y + h],
      [x, y + h],
    ];
  }
  if (random.int(4) === 0) points.splice(random.int(points.length), 0, points[random.int(points.length)]!);
  return [...points, points[0]!];
}

describe('findCrossing against a check of every pair', () => {
  it('agrees on 20,000 random polygons with up to 4 rings on small grids', () => {
    const random = generator(20_260_611);
    const outcomes = { self: 0, between: 0, none: 0 };
    for (let round = 0; round < 20_000; round++) {
      const size = 3 + random.int(10);
      const rings = Array.from({ length: 1 + random.int(4) }, () => randomRing(random, size));
      const expected = referenceCrossings(rings);
      const found = findCrossing(rings);
      const context = JSON.stringify(rings);
      if (expected.selfTouching !== undefined) {
        outcomes.self++;
        expect(found, context).toEqual({ ring: expected.selfTouching });
      } else if (expected.crossingPairs.size > 0) {
        outcomes.between++;
        expect(found?.other, context).toBeDefined();
        expect(expected.crossingPairs.has(`${found!.ring},${found!.other}`), context).toBe(true);
      } else {
        outcomes.none++;
        expect(found, context).toBeUndefined();
      }
    }
    // Each kind of answer was tried many times.
    expect(Math.min(outcomes.self, outcomes.between, outcomes.none)).toBeGreaterThan(1_000);
  });
});
