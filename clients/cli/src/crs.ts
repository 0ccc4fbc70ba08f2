// The coordinate reference systems a file can be in, recognised from a .prj, a GeoJSON `crs` member or --crs.
import proj4 from 'proj4';
import { CommandFailure } from './failures.js';

/**
 * RD New with the seven-parameter datum shift to WGS 84 that GDAL and PROJ use for EPSG:28992
 * (EPSG transformation 15739). Without `towgs84`, a position lands about 100 m off.
 */
const RD_NEW =
  '+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel ' +
  '+towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs';
const WEB_MERCATOR = '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs';
const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';

export type CrsCode = 'EPSG:4326' | 'EPSG:28992' | 'EPSG:3857';

const definitions: Record<CrsCode, string> = { 'EPSG:4326': WGS84, 'EPSG:28992': RD_NEW, 'EPSG:3857': WEB_MERCATOR };

export const crsCodes = Object.keys(definitions) as CrsCode[];

/** The proj4 definition of a CRS. */
export const definitionOf = (crs: CrsCode): string => definitions[crs];

/** `EPSG:28992`, `epsg:28992`, `28992`, `urn:ogc:def:crs:EPSG::28992`, or CRS84: the code, or undefined when not one of ours. */
export function crsFromName(name: string): CrsCode | undefined {
  const text = name.trim();
  if (/^urn:ogc:def:crs:OGC:(1\.3)?:?CRS84$/i.test(text)) return 'EPSG:4326';
  const code = /^(?:urn:ogc:def:crs:)?EPSG:{0,2}(?:[\d.]*:)?(\d+)$/i.exec(text)?.[1] ?? /^(\d+)$/.exec(text)?.[1];
  const crs = `EPSG:${code}`;
  return (crsCodes as string[]).includes(crs) ? (crs as CrsCode) : undefined;
}

/** The --crs option: one of the known codes, or a usage failure. */
export function crsOption(value: string): CrsCode {
  const crs = crsFromName(value);
  if (!crs) throw new CommandFailure(`--crs ${value} is not known: use one of ${crsCodes.join(', ')}`);
  return crs;
}

const number = (text: string, parameter: string): number | undefined => {
  const match = new RegExp(`PARAMETER\\["${parameter}",\\s*(-?[\\d.]+)`, 'i').exec(text);
  return match ? Number(match[1]) : undefined;
};
const near = (value: number | undefined, expected: number) => value !== undefined && Math.abs(value - expected) < 1e-6;

/** Whether a .prj describes RD New: by its name, or as an oblique stereographic projection with RD's parameters. */
function isRdNew(prj: string): boolean {
  if (/Amersfoort[ _/]+RD[ _]New|RD_New/i.test(prj)) return true;
  if (!/(Oblique|Double)_Stereographic/i.test(prj)) return false;
  return near(number(prj, 'latitude_of_origin'), 52.15616055555555) && near(number(prj, 'central_meridian'), 5.38763888888889);
}

/**
 * The CRS of a shapefile's .prj text: RD New, Web Mercator and WGS 84 by what they describe; any other
 * is a failure naming --crs, as proj4 would read it without a datum shift.
 */
export function crsFromPrj(prj: string): CrsCode {
  if (isRdNew(prj)) return 'EPSG:28992';
  if (/Pseudo[-_ ]Mercator|Web_Mercator|Mercator_Auxiliary_Sphere/i.test(prj)) return 'EPSG:3857';
  if (/^\s*GEOGCS\[/i.test(prj) && /WGS[ _]?(19)?84/i.test(prj)) return 'EPSG:4326';
  throw new CommandFailure(
    `the .prj describes a coordinate system this command does not know (${prj.slice(0, 60)}…): give the file's one with --crs (${crsCodes.join(', ')})`,
  );
}

/** A .prj text for a CRS, as an export writes it beside a shapefile (ESRI WKT). */
export const prjOf: Record<CrsCode, string> = {
  'EPSG:4326':
    'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]',
  'EPSG:28992':
    'PROJCS["Amersfoort_RD_New",GEOGCS["GCS_Amersfoort",DATUM["D_Amersfoort",SPHEROID["Bessel_1841",6377397.155,299.1528128]],' +
    'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Double_Stereographic"],PARAMETER["False_Easting",155000.0],' +
    'PARAMETER["False_Northing",463000.0],PARAMETER["Central_Meridian",5.38763888888889],PARAMETER["Scale_Factor",0.9999079],' +
    'PARAMETER["Latitude_Of_Origin",52.15616055555555],UNIT["Meter",1.0]]',
  'EPSG:3857':
    'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
    'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],PARAMETER["False_Easting",0.0],' +
    'PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",0.0],PARAMETER["Standard_Parallel_1",0.0],' +
    'PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0]]',
};

/** A GeoJSON `crs` member (the 2008 specification's named CRS), as an export in another CRS than WGS 84 writes it. */
export const geoJsonCrsMember = (crs: CrsCode) => ({ type: 'name', properties: { name: `urn:ogc:def:crs:EPSG::${crs.slice(5)}` } });

/** Converts positions between two CRSs. */
export function converter(from: CrsCode, to: CrsCode): (position: number[]) => number[] {
  // Positions in 2D: a height (KML writes one) is dropped, as Akker takes [longitude, latitude].
  if (from === to) return (position) => [position[0]!, position[1]!];
  const transform = proj4(definitionOf(from), definitionOf(to));
  return (position) => transform.forward([position[0]!, position[1]!]);
}
