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

export function edgeGeometry(random: Random): unknown {
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
