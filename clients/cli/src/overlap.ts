// How much two outlines are one: the area of their intersection over the area of their union.
import turfArea from '@turf/area';
import { feature, featureCollection } from '@turf/helpers';
import intersect from '@turf/intersect';
import { polygonsOf, type Outline } from './outline.js';

export type Box = [number, number, number, number];

export function boxOf(outline: Outline): Box {
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const rings of polygonsOf(outline))
    for (const [x, y] of rings[0] ?? []) {
      box[0] = Math.min(box[0], x!);
      box[1] = Math.min(box[1], y!);
      box[2] = Math.max(box[2], x!);
      box[3] = Math.max(box[3], y!);
    }
  return box;
}

const boxesMeet = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** Intersection over union, 0 when the outlines do not meet; `boxes` spare the computation for outlines far apart. */
export function intersectionOverUnion(a: Outline, b: Outline, boxes: [Box, Box] = [boxOf(a), boxOf(b)]): number {
  if (!boxesMeet(...boxes)) return 0;
  const common = intersect(featureCollection([feature(a), feature(b)]));
  if (common === null) return 0;
  const shared = turfArea(common);
  const union = turfArea(a) + turfArea(b) - shared;
  return union > 0 ? shared / union : 0;
}
