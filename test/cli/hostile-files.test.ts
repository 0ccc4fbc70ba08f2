// `akker fields import` on files made to break it: a .shp that lies about a record's length, a file of no
// features with --delete-missing, .zip bombs, a million polygons, positions of null, a 560 MB GeoJSON, .prj files
// that are not what their names say, and positions outside where their coordinate system is used. Each ends
// in a one-line message and its exit code, with nothing of the farm lost.
import { open as openFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FEATURES } from '../../clients/cli/src/read/limits.js';
import { signUpWithKey, type Account } from '../helpers/app.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { tempDir } from '../helpers/temp.js';
import { RD_NEW_PRJ, rdRectangle, rvoParcels, writeRvoShapefile, writeRvoZip } from './fixtures.js';
import { akker, type CliRun } from './run.js';
import { dbfBytes, shpBytes, utf8, writeManySquares, writeShapefile } from './shapefile-bytes.js';

interface Field {
  b_id: string;
  b_name: string;
  b_id_source: string | null;
}

/** A message of one line, from the command itself: no stack trace, no error of JavaScript's own. */
function expectOneLine(run: CliRun, code: number, message: string | RegExp) {
  expect(run.code, run.out + run.err).toBe(code);
  expect(run.err).toMatch(/^akker: [^\n]+\n$/);
  expect(run.err).toMatch(message);
  expect(run.err).not.toMatch(/TypeError|RangeError|stack| {4}at /);
}

const lonLatSquare = (lon: number, lat: number) => [
  [
    [lon, lat],
    [lon, lat + 0.002],
    [lon + 0.003, lat + 0.002],
    [lon + 0.003, lat],
    [lon, lat],
  ],
];

/** Sets the sizes the headers of a .zip's first entry declare (local header and central directory). */
function declareSizes(zip: Uint8Array, sizes: { uncompressed: number }): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  view.setUint32(22, sizes.uncompressed, true);
  for (let at = zip.length - 22; at >= 0; at--) {
    if (view.getUint32(at, true) === 0x02014b50) {
      view.setUint32(at + 24, sizes.uncompressed, true);
      break;
    }
  }
  return zip;
}

describe('akker fields import on damaged and hostile files', () => {
  let server: ListeningApp;
  let user: Account;
  let env: Record<string, string>;
  const folder = tempDir('cli-hostile-');

  const newFarm = async () =>
    ((await (await server.send(user.key, 'POST', '/api/farms', { b_name_farm: 'De Hoeve' })).json()) as { b_id_farm: string }).b_id_farm;
  const fieldsOf = async (farm: string) =>
    ((await (await server.send(user.key, 'GET', `/api/farms/${farm}/fields?limit=200`)).json()) as { data: Field[] }).data;
  /** A farm with the fields of rvoParcels(2): S1000 and S1001. */
  const farmWithTwoFields = async () => {
    const farm = await newFarm();
    const run = await akker(
      ['fields', 'import', await writeRvoZip(join(folder, `two-${farm}.zip`), rvoParcels(2)), '--farm', farm, '--year', '2025'],
      env,
    );
    expect(run.code, run.out + run.err).toBe(0);
    return farm;
  };

  beforeAll(async () => {
    server = await startListeningApp('pglite');
    user = await signUpWithKey(server.app);
    env = { AKKER_URL: server.url, AKKER_API_KEY: user.key };
  });
  afterAll(() => server.close());

  describe('--delete-missing and files that cannot be read whole', () => {
    it('refuses a .shp whose first record states a length of -8 (exit 2), deleting nothing', async () => {
      const farm = await farmWithTwoFields();
      const shp = await writeRvoShapefile(tempDir('cli-minus-8-'), rvoParcels(2));
      const bytes = await readFile(shp);
      new DataView(bytes.buffer, bytes.byteOffset).setInt32(104, -4, false); // in 16-bit words: -8 bytes
      await writeFile(shp, bytes);
      const run = await akker(['fields', 'import', shp, '--farm', farm, '--delete-missing'], env);
      expectOneLine(run, 2, /percelen\.shp: the \.shp is damaged: record 1 \(at byte 100\) states a length of -8 bytes/);
      expect(await fieldsOf(farm)).toHaveLength(2);
    });

    it('refuses a .dbf of another number of records than its .shp', async () => {
      const shp = await writeShapefile(tempDir('cli-dbf-count-'), 'percelen', {
        shp: shpBytes([rdRectangle(155000, 463000).coordinates]),
        dbf: dbfBytes(['NAAM'], [['A'], ['B']], utf8),
        prj: RD_NEW_PRJ,
      });
      expectOneLine(await akker(['fields', 'import', shp, '--farm', await newFarm()], env), 2, /the \.dbf has 2 records, the \.shp 1/);
    });

    it('refuses --delete-missing with a file of no features (exit 2), deleting nothing', async () => {
      const farm = await farmWithTwoFields();
      const path = join(folder, 'empty.geojson');
      await writeFile(path, JSON.stringify({ type: 'FeatureCollection', features: [] }));
      expectOneLine(
        await akker(['fields', 'import', path, '--farm', farm, '--delete-missing'], env),
        2,
        /has no features: with --delete-missing/,
      );
      expect(await fieldsOf(farm)).toHaveLength(2);
    });

    it('deletes nothing when a feature of the file was refused: its field is shown as kept, not only in Akker', async () => {
      const farm = await farmWithTwoFields();
      const parcels = rvoParcels(2);
      // S1001's outline crosses itself now: refused by the local checks, so its field must not look missing.
      parcels[1]!.outline = {
        type: 'Polygon',
        coordinates: [
          [
            [155300, 463000],
            [155500, 463150],
            [155500, 463000],
            [155300, 463150],
            [155300, 463000],
          ],
        ],
      };
      const run = await akker(
        ['fields', 'import', await writeRvoZip(join(folder, 'bow-tie.zip'), parcels), '--farm', farm, '--year', '2025', '--delete-missing'],
        env,
      );
      expect(run.code).toBe(1);
      expect(run.out).toContain('0 only in Akker, 1 refused by the local checks');
      expect(run.out).toMatch(/Perceel 2\s+refused\s+source id, kept/);
      expect(run.out).toContain('--delete-missing: nothing deleted, as 1 feature was not read');
      expect(run.out).toContain('deleted 0');
      expect((await fieldsOf(farm)).map((f) => f.b_id_source)).toEqual(['S1000', 'S1001']);
    });
  });

  describe('.zip bombs', () => {
    const shp = shpBytes([rdRectangle(155000, 463000).coordinates]);

    it('refuses a .zip whose entries declare more than an import reads, before unpacking anything', async () => {
      const path = join(folder, 'declared.zip');
      await writeFile(path, declareSizes(zipSync({ 'percelen.shp': [shp, { level: 9 }] }), { uncompressed: 0xfffffff0 }));
      expectOneLine(
        await akker(['fields', 'import', path, '--farm', await newFarm()], env),
        2,
        /declared\.zip: the \.zip unpacks to 4096 MB, more than the 64 MB an import reads/,
      );
    });

    it('refuses an entry packed a thousandfold, before unpacking it', async () => {
      const path = join(folder, 'ratio.zip');
      const padded = new Uint8Array(20 * 1024 * 1024);
      padded.set(shp);
      await writeFile(path, zipSync({ 'percelen.shp': [padded, { level: 9 }] }));
      expectOneLine(
        await akker(['fields', 'import', path, '--farm', await newFarm()], env),
        2,
        /percelen\.shp unpacks to \d+ times its packed size/,
      );
    });

    it('stops unpacking an entry that grows past the size it declares', async () => {
      const path = join(folder, 'lying.zip');
      const padded = new Uint8Array(20 * 1024 * 1024);
      await writeFile(path, declareSizes(zipSync({ 'percelen.shp': [padded, { level: 9 }] }), { uncompressed: 100 }));
      expectOneLine(
        await akker(['fields', 'import', path, '--farm', await newFarm()], env),
        2,
        /lying\.zip: the \.zip cannot be read: too many bytes/,
      );
    });
  });

  describe('files too large for a farm', () => {
    it('refuses a shapefile of a million polygons with one line (exit 2)', async () => {
      const dir = tempDir('cli-million-');
      const path = join(dir, 'percelen.shp');
      await writeManySquares(path, 1_000_000);
      try {
        expectOneLine(
          await akker(['fields', 'import', path, '--farm', await newFarm(), '--crs', 'EPSG:28992'], env),
          2,
          /percelen\.shp is 130 MB: an import reads files of at most 64 MB/,
        );
      } finally {
        await rm(dir, { recursive: true });
      }
    }, 180_000);

    it(`refuses a shapefile of more than ${MAX_FEATURES} polygons with one line (exit 2)`, async () => {
      const path = join(tempDir('cli-many-'), 'percelen.shp');
      await writeManySquares(path, MAX_FEATURES + 1);
      expectOneLine(
        await akker(['fields', 'import', path, '--farm', await newFarm(), '--crs', 'EPSG:28992'], env),
        2,
        /has more than 10000 features/,
      );
    });

    it('refuses a GeoJSON of more features than that, and one of 560 MB before reading it', async () => {
      const many = join(folder, 'many.geojson');
      const feature = { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: lonLatSquare(5.6, 52) } };
      await writeFile(
        many,
        JSON.stringify({ type: 'FeatureCollection', features: Array.from({ length: MAX_FEATURES + 1 }, () => feature) }),
      );
      expectOneLine(
        await akker(['fields', 'import', many, '--farm', await newFarm(), '--start', '2024-01-01'], env),
        2,
        /many\.geojson has 10001 features, more than the 10000/,
      );

      // Sparse: 560 MB long, a few bytes on disk.
      const huge = join(folder, 'huge.geojson');
      await writeFile(huge, '{"type":"FeatureCollection","features":[');
      const handle = await openFile(huge, 'r+');
      await handle.truncate(560 * 1024 * 1024);
      await handle.close();
      expectOneLine(
        await akker(['fields', 'import', huge, '--farm', await newFarm()], env),
        2,
        /huge\.geojson is 560 MB: an import reads files of at most 64 MB/,
      );
    });
  });

  it('reports positions of null as a feature not sent, with no TypeError (exit 1)', async () => {
    const farm = await newFarm();
    const path = join(folder, 'null-positions.geojson');
    const broken = lonLatSquare(5.6, 52);
    broken[0]![1] = [null, null] as unknown as number[];
    await writeFile(
      path,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', properties: { name: 'Kapot' }, geometry: { type: 'Polygon', coordinates: broken } },
          { type: 'Feature', properties: { name: 'Nul' }, geometry: { type: 'MultiPolygon', coordinates: [null] } },
          { type: 'Feature', properties: { name: 'Goed' }, geometry: { type: 'Polygon', coordinates: lonLatSquare(5.61, 52) } },
        ],
      }),
    );
    const run = await akker(['fields', 'import', path, '--farm', farm, '--start', '2024-01-01'], env);
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out).toContain(
      'feature 1 (Kapot): not sent: it has coordinates that are not rings of [x, y] positions of numbers (a Polygon)',
    );
    expect(run.out).toContain('feature 2 (Nul): not sent: it has coordinates that are not rings');
    expect(run.out + run.err).not.toMatch(/TypeError| {4}at /);
    expect((await fieldsOf(farm)).map((f) => f.b_name)).toEqual(['Goed']);
  });

  describe('coordinate systems', () => {
    const WGS84_GDAL =
      'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],' +
      'PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]]';
    const RD_NEW_ESRI_SHIFT =
      'PROJCS["RD_New",GEOGCS["GCS_Amersfoort",DATUM["D_Amersfoort",SPHEROID["Bessel_1841",6377397.155,299.1528128],' +
      'TOWGS84[565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],' +
      'PROJECTION["Double_Stereographic"],PARAMETER["False_Easting",155000.0],PARAMETER["False_Northing",463000.0],' +
      'PARAMETER["Central_Meridian",5.38763888888889],PARAMETER["Scale_Factor",0.9999079],PARAMETER["Latitude_Of_Origin",52.15616055555555],UNIT["Meter",1.0]]';

    /** A one-parcel shapefile with this .prj, its ring in lon/lat or in RD metres. */
    const withPrj = (prj: string, ring: number[][][]) =>
      writeShapefile(tempDir('cli-prj-'), 'percelen', {
        shp: shpBytes([ring]),
        dbf: dbfBytes(['NAAM', 'BEGINDAT'], [['Kavel', '2020-01-01']], utf8),
        prj,
      });

    it.each([
      [
        'geographic Amersfoort',
        'GEOGCS["Amersfoort",DATUM["Amersfoort",SPHEROID["Bessel 1841",6377397.155,299.1528128,AUTHORITY["EPSG","7004"]],' +
          'TOWGS84[565.2369,50.0087,465.658,-0.406857,0.350733,-1.87035,4.0812],AUTHORITY["EPSG","6289"]],PRIMEM["Greenwich",0],' +
          'UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4289"]]',
        /"Amersfoort" \(geographic\), which this command cannot convert: its datum is Amersfoort, not WGS 84/,
      ],
      [
        'ED50',
        'GEOGCS["ED50",DATUM["European_Datum_1950",SPHEROID["International 1924",6378388,297],TOWGS84[-87,-98,-121,0,0,0,0]],' +
          'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]]',
        /"ED50" \(geographic\).*its datum is European_Datum_1950, not WGS 84/,
      ],
      [
        'WGS 84 in grads',
        'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["grad",0.015707963267949]]',
        /its angular unit is grad \(0\.015707963267949\), not the degree/,
      ],
      [
        'WGS 84 on the Paris meridian',
        'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Paris",2.33722917],UNIT["degree",0.0174532925199433]]',
        /its prime meridian is paris \(2\.33722917\), not Greenwich/,
      ],
    ])('refuses a .prj of %s, naming it (exit 2), sending nothing', async (_what, prj, message) => {
      const farm = await newFarm();
      expectOneLine(await akker(['fields', 'import', await withPrj(prj, lonLatSquare(5.6, 52)), '--farm', farm], env), 2, message);
      expect(await fieldsOf(farm)).toEqual([]);
    });

    it.each([
      [
        'a Transverse Mercator named RD_New',
        RD_NEW_ESRI_SHIFT.replace('Double_Stereographic', 'Transverse_Mercator'),
        /"RD_New" \(projection Transverse_Mercator\).*its projection is not one of those/,
      ],
      ['RD New with another false easting', RD_NEW_PRJ.replace('155000', '0'), /its false_easting is 0, not 155000, so it is not RD New/],
      ['RD New with a parameter more', RD_NEW_PRJ.replace(/]$/, ',PARAMETER["azimuth",10]]'), /a parameter azimuth that RD New has not/],
      [
        'RD New with another datum shift',
        RD_NEW_ESRI_SHIFT.replace('565.417', '593.16'),
        /its TOWGS84 .* is not the shift this command applies/,
      ],
      [
        'RD New with an EXTENSION',
        RD_NEW_PRJ.replace(/]$/, ',EXTENSION["PROJ4","+proj=longlat +datum=WGS84"]]'),
        /its EXTENSION is not understood/,
      ],
      ['a .prj that is not WKT', 'Amersfoort / RD New', /the \.prj is not WKT that can be read/],
    ])('refuses %s (exit 2), sending nothing', async (_what, prj, message) => {
      const farm = await newFarm();
      expectOneLine(
        await akker(['fields', 'import', await withPrj(prj, rdRectangle(155000, 463000).coordinates), '--farm', farm], env),
        2,
        message,
      );
      expect(await fieldsOf(farm)).toEqual([]);
    });

    it('takes a WGS 84 .prj as GDAL writes it and RD New as ESRI writes it with its datum shift', async () => {
      const farm = await newFarm();
      expect((await akker(['fields', 'import', await withPrj(WGS84_GDAL, lonLatSquare(5.6, 52)), '--farm', farm], env)).code).toBe(0);
      const rd = await akker(
        ['fields', 'import', await withPrj(RD_NEW_ESRI_SHIFT, rdRectangle(155000, 463000).coordinates), '--farm', farm],
        env,
      );
      expect(rd.code, rd.out + rd.err).toBe(0);
      expect(rd.out).toContain('in EPSG:28992');
      expect(await fieldsOf(farm)).toHaveLength(2);
    });

    it.each([
      [
        '(1e9, 1e9)',
        1e9,
        1e9,
        /feature 1 has a position \(1000000000, 1000000000\) outside where its coordinate system is used: EPSG:28992 is used in the Netherlands/,
      ],
      ['(50 m, 40 m)', 50, 40, /feature 1 has a position \(50, 40\) outside where its coordinate system is used/],
    ])('refuses RD coordinates of %s as outside RD New (exit 2), sending nothing', async (_what, x, y, message) => {
      const farm = await newFarm();
      const shp = await withPrj(RD_NEW_PRJ, rdRectangle(x, y).coordinates);
      expectOneLine(await akker(['fields', 'import', shp, '--farm', farm], env), 2, message);
      expectOneLine(await akker(['fields', 'import', shp, '--farm', farm, '--crs', 'EPSG:28992'], env), 2, message);
      expect(await fieldsOf(farm)).toEqual([]);
    });
  });
});
