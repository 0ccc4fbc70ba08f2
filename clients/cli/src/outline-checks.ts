// What Akker would refuse in an outline, checked before anything is sent: such a feature is reported, not sent.
// The API stays the judge of everything else.
import kinks from '@turf/kinks';
import { polygonsOf, type Outline } from './outline.js';

/** Akker's cap on the positions of a field's outline, all rings together. */
export const MAX_POSITIONS = 10_000;

function ringProblem(ring: number[][]): string | undefined {
  if (ring.length < 4) return `a ring has ${ring.length} positions; at least 4 are needed`;
  const [first, last] = [ring[0]!, ring[ring.length - 1]!];
  if (first[0] !== last[0] || first[1] !== last[1]) return 'a ring is not closed: its last position differs from its first';
  return undefined;
}

/** The first reason Akker would refuse the outline, or undefined. */
export function outlineProblem(outline: Outline): string | undefined {
  const polygons = polygonsOf(outline);
  const positions = polygons.reduce((sum, rings) => sum + rings.reduce((n, ring) => n + ring.length, 0), 0);
  if (positions > MAX_POSITIONS) return `has ${positions} positions; Akker takes at most ${MAX_POSITIONS}`;
  for (const rings of polygons) {
    if (rings.length === 0) return 'has a polygon without rings';
    for (const ring of rings) {
      const problem = ringProblem(ring);
      if (problem) return problem;
    }
    if (kinks({ type: 'Polygon', coordinates: rings }).features.length > 0) return 'its outline crosses itself';
  }
  return undefined;
}
