// Shapefiles written byte by byte, for what @mapbox/shp-write cannot make: PolygonZ, null shapes, a .dbf in
// Latin-1, a record that lies about its length, a million polygons streamed to disk.
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A ring of [x, y] or [x, y, z] positions; a shape is the rings of one polygon, or null (a null shape record). */
export type Shape = number[][][] | null;

const POLYGON = 5;
const POLYGON_Z = 15;

function record(number: number, shape: Shape, type: number): Uint8Array {
  if (shape === null) {
    const bytes = new Uint8Array(12);
    const view = new DataView(bytes.buffer);
    view.setInt32(0, number, false);
    view.setInt32(4, 2, false);
    view.setInt32(8, 0, true);
    return bytes;
  }
  const points = shape.flat();
  const z = type === POLYGON_Z;
  const content = 44 + 4 * shape.length + 16 * points.length + (z ? 16 + 8 * points.length : 0);
  const bytes = new Uint8Array(8 + content);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, number, false);
  view.setInt32(4, content / 2, false);
  view.setInt32(8, type, true);
  const xs = points.map((p) => p[0]!);
  const ys = points.map((p) => p[1]!);
  [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].forEach((v, i) => view.setFloat64(12 + 8 * i, v, true));
  view.setInt32(44, shape.length, true);
  view.setInt32(48, points.length, true);
  let at = 52;
  let start = 0;
  for (const ring of shape) {
    view.setInt32(at, start, true);
    at += 4;
    start += ring.length;
  }
  for (const [x, y] of points) {
    view.setFloat64(at, x!, true);
    view.setFloat64(at + 8, y!, true);
    at += 16;
  }
  if (z) {
    const zs = points.map((p) => p[2] ?? 0);
    view.setFloat64(at, Math.min(...zs), true);
    view.setFloat64(at + 8, Math.max(...zs), true);
    at += 16;
    for (const value of zs) {
      view.setFloat64(at, value, true);
      at += 8;
    }
  }
  return bytes;
}

function header(type: number, fileBytes: number): Uint8Array {
  const bytes = new Uint8Array(100);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, 9994, false);
  view.setInt32(24, fileBytes / 2, false);
  view.setInt32(28, 1000, true);
  view.setInt32(32, type, true);
  return bytes;
}

/** A .shp of polygons (PolygonZ when `z`), a record per shape. */
export function shpBytes(shapes: Shape[], { z = false, type }: { z?: boolean; type?: number } = {}): Uint8Array {
  const shapeType = type ?? (z ? POLYGON_Z : POLYGON);
  const records = shapes.map((shape, i) => record(i + 1, shape, shapeType));
  const length = 100 + records.reduce((sum, r) => sum + r.length, 0);
  const bytes = new Uint8Array(length);
  bytes.set(header(shapeType, length));
  let at = 100;
  for (const r of records) {
    bytes.set(r, at);
    at += r.length;
  }
  return bytes;
}

/** A .dbf of character columns, its text encoded by `encode` (Latin-1 bytes, or UTF-8). */
export function dbfBytes(columns: string[], rows: string[][], encode: (text: string) => Uint8Array, width = 40): Uint8Array {
  const headerLength = 32 + 32 * columns.length + 1;
  const recordLength = 1 + width * columns.length;
  const bytes = new Uint8Array(headerLength + rows.length * recordLength + 1).fill(0x20, headerLength);
  const view = new DataView(bytes.buffer);
  bytes[0] = 0x03;
  bytes.set([125, 1, 1], 1);
  view.setUint32(4, rows.length, true);
  view.setUint16(8, headerLength, true);
  view.setUint16(10, recordLength, true);
  columns.forEach((name, i) => {
    bytes.set(new TextEncoder().encode(name), 32 + 32 * i);
    bytes[32 + 32 * i + 11] = 'C'.charCodeAt(0);
    bytes[32 + 32 * i + 16] = width;
  });
  bytes[headerLength - 1] = 0x0d;
  rows.forEach((row, r) => {
    const at = headerLength + r * recordLength;
    bytes[at] = 0x20;
    row.forEach((value, c) => bytes.set(encode(value).subarray(0, width), at + 1 + c * width));
  });
  bytes[bytes.length - 1] = 0x1a;
  return bytes;
}

export const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
export const utf8 = (text: string) => new TextEncoder().encode(text);

/** Writes `name`.shp and whichever of .dbf, .prj, .cpg are given into `folder`; answers the .shp's path. */
export async function writeShapefile(
  folder: string,
  name: string,
  parts: { shp: Uint8Array; dbf?: Uint8Array; prj?: string; cpg?: string },
): Promise<string> {
  await writeFile(join(folder, `${name}.shp`), parts.shp);
  if (parts.dbf) await writeFile(join(folder, `${name}.dbf`), parts.dbf);
  if (parts.prj !== undefined) await writeFile(join(folder, `${name}.prj`), parts.prj);
  if (parts.cpg !== undefined) await writeFile(join(folder, `${name}.cpg`), parts.cpg);
  return join(folder, `${name}.shp`);
}

/** A .shp of `count` small squares written as a stream, a chunk of records at a time: no more than a chunk in memory. */
export async function writeManySquares(path: string, count: number): Promise<void> {
  const square = (i: number): Shape => {
    const x = (i % 1000) * 10;
    const y = Math.floor(i / 1000) * 10;
    return [
      [
        [x, y],
        [x, y + 5],
        [x + 5, y + 5],
        [x + 5, y],
        [x, y],
      ],
    ];
  };
  // One record, copied for each square with its number and position changed: 136 bytes, its points from byte 56.
  const template = record(1, square(0), POLYGON);
  const perChunk = 10_000;
  const stream = createWriteStream(path);
  const write = (bytes: Uint8Array) =>
    new Promise<void>((resolve, reject) => stream.write(bytes, (error) => (error ? reject(error) : resolve())));
  await write(header(POLYGON, 100 + count * template.length));
  for (let first = 0; first < count; first += perChunk) {
    const records = Math.min(perChunk, count - first);
    const chunk = new Uint8Array(records * template.length);
    const view = new DataView(chunk.buffer);
    for (let k = 0; k < records; k++) {
      const at = k * template.length;
      chunk.set(template, at);
      view.setInt32(at, first + k + 1, false);
      const dx = ((first + k) % 1000) * 10;
      const dy = Math.floor((first + k) / 1000) * 10;
      for (let offset = 12; offset < 44; offset += 16) {
        view.setFloat64(at + offset, view.getFloat64(at + offset, true) + dx, true);
        view.setFloat64(at + offset + 8, view.getFloat64(at + offset + 8, true) + dy, true);
      }
      for (let point = 0; point < 5; point++) {
        const offset = at + 56 + point * 16;
        view.setFloat64(offset, view.getFloat64(offset, true) + dx, true);
        view.setFloat64(offset + 8, view.getFloat64(offset + 8, true) + dy, true);
      }
    }
    await write(chunk);
  }
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
}
