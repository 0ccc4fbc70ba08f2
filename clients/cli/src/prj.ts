// A shapefile's .prj (WKT 1, as ESRI and GDAL write it) read with wkt-parser, and taken for one of the systems this
// command converts only when every element and parameter is that system's: a name alone says nothing (a Transverse
// Mercator called "RD_New" is not RD New), nor does a datum, prime meridian or unit left unread.
import parseWkt from 'wkt-parser';
import type { CrsCode } from './crs.js';
import { CommandFailure } from './failures.js';

type Node = Record<string, unknown>;

const DEGREE = 0.0174532925199433;
const SPHEROIDS = {
  'WGS 84': { a: 6378137, rf: 298.257223563 },
  'Bessel 1841': { a: 6377397.155, rf: 299.1528128 },
};
/** EPSG transformation 15739, the shift crs.ts applies: a .prj may state it, or none; another would be ignored. */
const AMERSFOORT_TO_WGS84 = [565.417, 50.3319, 465.552, -0.398957, 0.343988, -1.8774, 4.0725];

/** The WKT keywords this reader understands; any other (EXTENSION, VERTCS, COMPD_CS…) is a part left unread. */
const KEYWORDS = new Set([
  'PROJCS',
  'GEOGCS',
  'DATUM',
  'SPHEROID',
  'TOWGS84',
  'PRIMEM',
  'UNIT',
  'PROJECTION',
  'PARAMETER',
  'AUTHORITY',
  'AXIS',
]);

interface Projected {
  crs: CrsCode;
  label: string;
  datum: 'wgs84' | 'amersfoort';
  spheroid: keyof typeof SPHEROIDS;
  projections: string[];
  /** Every parameter the projection has, by its lower-cased name, with its value. */
  parameters: Record<string, number>;
}

const PROJECTED: Projected[] = [
  {
    crs: 'EPSG:28992',
    label: 'RD New',
    datum: 'amersfoort',
    spheroid: 'Bessel 1841',
    projections: ['oblique_stereographic', 'double_stereographic'],
    parameters: {
      latitude_of_origin: 52.15616055555555,
      central_meridian: 5.38763888888889,
      scale_factor: 0.9999079,
      false_easting: 155000,
      false_northing: 463000,
    },
  },
  {
    crs: 'EPSG:3857',
    label: 'Web Mercator',
    datum: 'wgs84',
    spheroid: 'WGS 84',
    projections: ['mercator_auxiliary_sphere'],
    parameters: { false_easting: 0, false_northing: 0, central_meridian: 0, standard_parallel_1: 0, auxiliary_sphere_type: 0 },
  },
];

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const near = (value: unknown, expected: number, tolerance: number) =>
  typeof value === 'number' && Math.abs(value - expected) <= tolerance * Math.max(1, Math.abs(expected));
const nameOf = (node: unknown) => (isNode(node) && typeof node.name === 'string' ? node.name : '?');

/** What in a geographic system differs from WGS 84 (or Amersfoort), or undefined. */
function geographicProblem(geogcs: Node, datum: Projected['datum'], spheroid: keyof typeof SPHEROIDS): string | undefined {
  const datumNode = isNode(geogcs.DATUM) ? geogcs.DATUM : {};
  if (geogcs.datumCode !== datum) return `its datum is ${nameOf(datumNode)}, not ${datum === 'wgs84' ? 'WGS 84' : 'Amersfoort'}`;
  const ellipsoid = isNode(datumNode.SPHEROID) ? datumNode.SPHEROID : {};
  const expected = SPHEROIDS[spheroid];
  if (!near(ellipsoid.a, expected.a, 1e-9) || !near(ellipsoid.rf, expected.rf, 1e-9))
    return `its spheroid ${nameOf(ellipsoid)} (${String(ellipsoid.a)}, ${String(ellipsoid.rf)}) is not ${spheroid}`;
  const shift = datumNode.TOWGS84;
  const expectedShift = datum === 'wgs84' ? [0, 0, 0, 0, 0, 0, 0] : AMERSFOORT_TO_WGS84;
  if (shift !== undefined && !(Array.isArray(shift) && expectedShift.every((value, i) => near(shift[i] ?? 0, value, 1e-9))))
    return `its TOWGS84 (${String(shift)}) is not the shift this command applies (${expectedShift.join(', ')})`;
  const meridian = isNode(geogcs.PRIMEM) ? geogcs.PRIMEM : {};
  if (meridian.convert !== 0) return `its prime meridian is ${nameOf(meridian)} (${String(meridian.convert)}), not Greenwich`;
  const unit = isNode(geogcs.UNIT) ? geogcs.UNIT : {};
  if (!near(unit.convert, DEGREE, 1e-12)) return `its angular unit is ${nameOf(unit)} (${String(unit.convert)}), not the degree`;
  return undefined;
}

function projectedProblem(wkt: Node, prj: string, system: Projected): string | undefined {
  const geogcs = isNode(wkt.GEOGCS) ? wkt.GEOGCS : undefined;
  if (!geogcs) return 'it has no GEOGCS';
  const geographic = geographicProblem(geogcs, system.datum, system.spheroid);
  if (geographic) return geographic;
  const stated = [...prj.matchAll(/PARAMETER\s*\[\s*"([^"]*)"/gi)].map((match) => match[1]!.toLowerCase());
  const unknown = stated.find((name) => !(name in system.parameters));
  if (unknown !== undefined) return `it has a parameter ${unknown} that ${system.label} has not`;
  if (new Set(stated).size !== stated.length) return 'it states a parameter twice';
  for (const [name, value] of Object.entries(system.parameters)) {
    if (!stated.includes(name)) return `it does not state ${name}`;
    if (!near(wkt[name], value, 1e-9)) return `its ${name} is ${String(wkt[name])}, not ${value}`;
  }
  const unit = isNode(wkt.UNIT) ? wkt.UNIT : {};
  if (unit.convert !== 1) return `its unit is ${nameOf(unit)} (${String(unit.convert)}), not the metre`;
  return undefined;
}

const refusal = (name: string, why: string) =>
  new CommandFailure(
    `the .prj describes ${name}, which this command cannot convert: ${why}. It converts WGS 84, RD New (EPSG:28992) and ` +
      'Web Mercator (EPSG:3857) when the .prj states them whole; if the .prj is wrong, give the system with --crs',
  );

/** The CRS a .prj describes, or a failure naming it and what is not understood. */
export function crsFromPrj(prj: string): CrsCode {
  let wkt: Node;
  try {
    wkt = parseWkt(prj.trim());
  } catch {
    throw new CommandFailure(`the .prj is not WKT that can be read (${prj.slice(0, 60)}…): give the file's coordinate system with --crs`);
  }
  const name = `"${nameOf(wkt)}"`;
  const unread = [...prj.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*\[/g)].map((match) => match[1]!.toUpperCase()).find((k) => !KEYWORDS.has(k));
  if (unread !== undefined) throw refusal(name, `its ${unread} is not understood`);
  if (wkt.type === 'GEOGCS') {
    const problem = geographicProblem(wkt, 'wgs84', 'WGS 84');
    if (problem) throw refusal(`${name} (geographic)`, problem);
    return 'EPSG:4326';
  }
  if (wkt.type !== 'PROJCS') throw refusal(name, 'it is neither a GEOGCS nor a PROJCS');
  const projection = String(wkt.PROJECTION ?? '').toLowerCase();
  const system = PROJECTED.find((candidate) => candidate.projections.includes(projection));
  if (!system) throw refusal(`${name} (projection ${String(wkt.PROJECTION)})`, 'its projection is not one of those');
  const problem = projectedProblem(wkt, prj, system);
  if (problem) throw refusal(`${name} (projection ${String(wkt.PROJECTION)})`, `${problem}, so it is not ${system.label}`);
  return system.crs;
}
