// Field geometries: the schema says only "an array", so valid and edge-case polygons are made here.
import type { Random } from './random.js';

type Position = [number, number];

const rectangleRing = (lon: number, lat: number, width: number, height: number): Position[] => [
  [lon, lat],
  [lon + width, lat],
  [lon + width, lat + height],
  [lon, lat + height],
  [lon, lat],
];

/** A closed ring of `positions` positions on a circle (the first repeated as the last). */
function circleRing(positions: number, lon = 5.5, lat = 52, radius = 0.01): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < positions - 1; i++) {
    const angle = (2 * Math.PI * i) / (positions - 1);
    ring.push([lon + radius * Math.cos(angle), lat + radius * Math.sin(angle)]);
  }
  ring.push(ring[0]!);
  return ring;
}

/**
 * A valid ring of `teeth` long teeth rising so steeply that every segment's extent overlaps every
 * other's along both axes (4 × teeth + 4 positions): the worst case of a self-crossing check that
 * compares overlapping extents. With `cut`, a last tooth crosses all the others.
 */
function slantedComb(teeth: number, cut: boolean, lon = 5, lat = 52): Position[] {
  const at = (x: number, y: number): Position => [lon + x * 1e-5, lat + y * 1e-6];
  const rise = 4 * teeth;
  const ring: Position[] = [at(1, 0)];
  for (let i = 0; i < teeth; i++) ring.push(at(1000, rise + 2 * i), at(1000, rise + 2 * i + 1), at(1, 2 * i + 1), at(1, 2 * i + 2));
  return cut ? [...ring, at(1000, -1), at(0, -1), at(1, 0)] : [...ring, at(0, 2 * teeth), at(0, 0), at(1, 0)];
}

/** Geometries that are cheap to send and were once dear to check: empty polygons and rings by the thousand, combs. */
function geometryBomb(random: Random): unknown {
  const count = random.pick([2, 2_501, 60_000, 1_048_536]);
  const cases: Array<() => unknown> = [
    () => ({ type: 'Polygon', coordinates: [] }),
    () => ({ type: 'Polygon', coordinates: [[]] }),
    () => ({ type: 'Polygon', coordinates: [rectangleRing(5, 52, 0.01, 0.01), []] }),
    () => ({ type: 'MultiPolygon', coordinates: [[]] }),
    () => ({ type: 'MultiPolygon', coordinates: Array.from({ length: count }, () => [[]]) }),
    () => ({ type: 'Polygon', coordinates: Array.from({ length: count }, () => []) }),
    () => ({ type: 'MultiPolygon', coordinates: Array.from({ length: Math.ceil(count / 2) }, () => [[], []]) }),
    () => ({ type: 'Polygon', coordinates: [slantedComb(random.pick([100, 2_499, 2_500]), random.chance(0.5))] }),
  ];
  return random.pick(cases)();
}

export function edgeGeometry(random: Random): unknown {
  if (random.chance(0.25)) return geometryBomb(random);
  const lon = random.int(-179_000, 179_000) / 1000;
  const lat = random.int(-89_000, 89_000) / 1000;
  const cases: Array<() => unknown> = [
    () => ({
      type: 'Polygon',
      coordinates: [rectangleRing(lon, lat, random.pick([1e-9, 1e-5, 0.003, 0.5]), random.pick([1e-9, 0.002, 0.5]))],
    }),
    () => ({ type: 'Polygon', coordinates: [rectangleRing(lon, lat, 0, 0)] }),
    () => ({
      type: 'Polygon',
      coordinates: [
        [
          [-180, -90],
          [180, -90],
          [180, 90],
          [-180, 90],
          [-180, -90],
        ],
      ],
    }),
    () => ({
      type: 'Polygon',
      coordinates: [
        [
          [179.9, 10],
          [-179.9, 10],
          [-179.9, 10.1],
          [179.9, 10.1],
          [179.9, 10],
        ],
      ],
    }),
    () => ({
      type: 'Polygon',
      coordinates: [
        [
          [5, 52],
          [5.01, 52.01],
          [5.01, 52],
          [5, 52.01],
          [5, 52],
        ],
      ],
    }),
    () => ({
      type: 'Polygon',
      coordinates: [
        [
          [5, 52],
          [5.01, 52],
          [5.02, 52],
          [5, 52],
        ],
      ],
    }),
    () => ({ type: 'Polygon', coordinates: [rectangleRing(5, 52, 0.01, 0.01), rectangleRing(5.004, 52.004, 0.002, 0.002)] }),
    () => ({ type: 'MultiPolygon', coordinates: [[rectangleRing(5, 52, 0.01, 0.01)], [rectangleRing(lon, lat, 0.001, 0.001)]] }),
    () => ({ type: 'Polygon', coordinates: [circleRing(random.pick([10_000, 10_001]))] }),
    () => ({ type: 'Polygon', coordinates: [rectangleRing(5e-324, 5e-324, 5e-324, 5e-324)] }),
    () => ({ type: 'Polygon', coordinates: [rectangleRing(179.999999, 89.999999, 0.000001, 0.000001)] }),
    () => ({ type: 'Polygon', coordinates: [rectangleRing(180, 90, 1, 1)] }),
    () => ({ type: 'Point', coordinates: [5, 52] }),
    () => ({
      type: 'Polygon',
      coordinates: [
        [
          [5, 52, 3],
          [5.01, 52, 3],
          [5.01, 52.01, 3],
          [5, 52],
        ],
      ],
    }),
  ];
  return random.pick(cases)();
}
