// Rings that cross are refused (STACK.md: turf measures a bowtie as area 0 and calls it valid), without
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
