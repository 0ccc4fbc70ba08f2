// Files the CLI tests import, made by the tests: an RVO Mijn Percelen export (a shapefile in RD New with a .prj,
// written with @mapbox/shp-write), a GeoJSON with a `crs` member, a KML.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { write, zip } from '@mapbox/shp-write';
import type { Feature, Polygon, Position } from 'geojson';
import { epochMsOfDate, NO_END_MS } from '../../clients/cli/src/rvo-dates.js';

/** A .prj as GIS software writes it for EPSG:28992: the projection by name and parameters, no datum shift. */
export const RD_NEW_PRJ =
  'PROJCS["Amersfoort / RD New",GEOGCS["Amersfoort",DATUM["Amersfoort",SPHEROID["Bessel 1841",6377397.155,299.1528128]],' +
  'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Oblique_Stereographic"],PARAMETER["latitude_of_origin",52.1561605555556],' +
  'PARAMETER["central_meridian",5.38763888888889],PARAMETER["scale_factor",0.9999079],PARAMETER["false_easting",155000],' +
  'PARAMETER["false_northing",463000],UNIT["metre",1]]';

/** A rectangle in RD New (metres), its ring clockwise as a shapefile has it. */
export const rdRectangle = (x: number, y: number, width = 200, height = 150): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [x, y],
      [x, y + height],
      [x + width, y + height],
      [x + width, y],
      [x, y],
    ],
  ],
});

/**
 * Where PROJ puts the corners of rdRectangle(155000, 463000) in WGS 84: cs2cs of PROJ 9.1.1 from
 * `+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000
 * +ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs` to
 * `+proj=longlat +datum=WGS84` (`cs2cs EPSG:28992 EPSG:4326`, which picks the same shift, agrees within 1e-8°).
 */
export const PROJ_CORNERS: Record<string, Position> = {
  '155000 463000': [5.3872035089, 52.1551722997],
  '155200 463000': [5.3901260249, 52.1551722594],
  '155200 463150': [5.3901261182, 52.1565204483],
  '155000 463150': [5.3872035138, 52.1565204886],
};

export interface RvoParcel {
  SECTORID: string;
  NAAM: string;
  begin: string;
  end: string | null;
  /** null: the file names no crop. */
  GEWASCODE: number | null;
  TITEL: string;
  outline: Polygon;
}

export const rvoFeature = (parcel: RvoParcel): Feature<Polygon> => ({
  type: 'Feature',
  geometry: parcel.outline,
  properties: {
    SECTORID: parcel.SECTORID,
    NAAM: parcel.NAAM,
    BEGINDAT: epochMsOfDate(parcel.begin),
    EINDDAT: parcel.end === null ? NO_END_MS : epochMsOfDate(parcel.end),
    ...(parcel.GEWASCODE === null ? {} : { GEWASCODE: parcel.GEWASCODE }),
    TITEL: parcel.TITEL,
  },
});

/** `count` RVO parcels in a row east of RD (155000, 463000), the first on PROJ_CORNERS. */
export const rvoParcels = (count: number, prefix = 'S'): RvoParcel[] =>
  Array.from({ length: count }, (_, i) => ({
    SECTORID: `${prefix}${1000 + i}`,
    NAAM: `Perceel ${i + 1}`,
    begin: '2019-01-01',
    end: i === 1 ? '2030-06-30' : null,
    GEWASCODE: i % 2 === 0 ? 233 : 265,
    TITEL: '01',
    outline: rdRectangle(155000 + i * 300, 463000 + Math.floor(i / 50) * 300),
  }));

/** An RVO export as a .zip: shapefile, .dbf and the .prj. */
export async function writeRvoZip(path: string, parcels: RvoParcel[], prj: string = RD_NEW_PRJ): Promise<string> {
  const bytes = await zip<'nodebuffer'>(
    { type: 'FeatureCollection', features: parcels.map(rvoFeature) },
    { outputType: 'nodebuffer', compression: 'STORE', types: { polygon: 'percelen' }, prj },
  );
  await writeFile(path, bytes);
  return path;
}

/** An RVO export as loose files in `folder`: percelen.shp, .shx, .dbf and (unless null) .prj. Answers the .shp's path. */
export async function writeRvoShapefile(folder: string, parcels: RvoParcel[], prj: string | null = RD_NEW_PRJ): Promise<string> {
  const features = parcels.map(rvoFeature);
  const files = await new Promise<{ shp: DataView; shx: DataView; dbf: DataView }>((resolve, reject) =>
    write(
      features.map((f) => f.properties!),
      'POLYGON',
      features.map((f) => f.geometry.coordinates),
      (error, written) => (error ? reject(error) : resolve(written)),
    ),
  );
  const bytes = (view: DataView) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  await writeFile(join(folder, 'percelen.shp'), bytes(files.shp));
  await writeFile(join(folder, 'percelen.shx'), bytes(files.shx));
  await writeFile(join(folder, 'percelen.dbf'), bytes(files.dbf));
  if (prj !== null) await writeFile(join(folder, 'percelen.prj'), prj);
  return join(folder, 'percelen.shp');
}

/** A KML document with a placemark per outline (longitude, latitude). */
export const kml = (placemarks: Array<{ name: string; ring: Position[] }>) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>${placemarks
    .map(
      ({ name, ring }) =>
        `<Placemark><name>${name}</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${ring
          .map(([lon, lat]) => `${lon},${lat},0`)
          .join(' ')}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>`,
    )
    .join('')}</Document></kml>`;
