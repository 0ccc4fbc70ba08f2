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

/** Where a system is used, as EPSG gives it (longitude and latitude bounds in WGS 84). */
const areasOfUse: Record<CrsCode, { west: number; south: number; east: number; north: number; where: string }> = {
  'EPSG:4326': { west: -180, south: -90, east: 180, north: 90, where: 'the world' },
  'EPSG:28992': { west: 3.2, south: 50.75, east: 7.22, north: 55.77, where: 'the Netherlands, onshore and offshore' },
  'EPSG:3857': { west: -180, south: -85.06, east: 180, north: 85.06, where: 'the world between 85.06°S and 85.06°N' },
};

/** Why a position, converted to WGS 84 from `crs`, lies outside where that system is used; undefined when inside. */
export function outsideAreaOfUse(crs: CrsCode, [lon, lat]: number[]): string | undefined {
  const area = areasOfUse[crs];
  if (lon! >= area.west && lon! <= area.east && lat! >= area.south && lat! <= area.north) return undefined;
  return `${crs} is used in ${area.where} (longitude ${area.west}° to ${area.east}°, latitude ${area.south}° to ${area.north}°)`;
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
