// wkt-parser (proj4's reader of WKT) ships no types: it answers the WKT as an object, each PARAMETER under its
// name and again lower-cased, with proj4's derived members beside them.
declare module 'wkt-parser' {
  export default function parseWkt(wkt: string): Record<string, unknown>;
}
