// `akker fields import` on the files farmers really have: parcels without a name (names made up, shown as such),
// 3-D coordinates, two parcels of one name, features that are no polygon, a .zip with layers of points, .dbf
// files in Latin-1 or UTF-8 with and without a .cpg, two features of one source id.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { zip } from '@mapbox/shp-write';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithKey, type Account } from '../helpers/app.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { tempDir } from '../helpers/temp.js';
import { kml, RD_NEW_PRJ, rdRectangle, rvoFeature, rvoParcels, writeRvoZip } from './fixtures.js';
import { akker } from './run.js';
import { dbfBytes, latin1, shpBytes, utf8, writeShapefile } from './shapefile-bytes.js';

interface Field {
  b_id: string;
  b_name: string;
  b_id_source: string | null;
}

const square = (lon: number, lat = 52, altitude?: number) =>
  [
    [lon, lat],
    [lon + 0.003, lat],
    [lon + 0.003, lat + 0.002],
    [lon, lat + 0.002],
    [lon, lat],
  ].map((p) => (altitude === undefined ? p : [...p, altitude]));

const geoJson = (features: Array<{ properties: Record<string, unknown>; geometry: unknown }>) =>
  JSON.stringify({ type: 'FeatureCollection', features: features.map((f) => ({ type: 'Feature', ...f })) });

describe('akker fields import on real files', () => {
  let server: ListeningApp;
  let user: Account;
  let env: Record<string, string>;
  const folder = tempDir('cli-real-');

  const newFarm = async () =>
    ((await (await server.send(user.key, 'POST', '/api/farms', { b_name_farm: 'De Hoeve' })).json()) as { b_id_farm: string }).b_id_farm;
  const fieldsOf = async (farm: string) =>
    ((await (await server.send(user.key, 'GET', `/api/farms/${farm}/fields?limit=200`)).json()) as { data: Field[] }).data;

  beforeAll(async () => {
    server = await startListeningApp('pglite');
    user = await signUpWithKey(server.app);
    env = { AKKER_URL: server.url, AKKER_API_KEY: user.key };
  });
  afterAll(() => server.close());

  describe('a feature without a name', () => {
    it('is imported from an RVO export, named by its sector id, shown as made up; a name given in Akker is kept', async () => {
      const farm = await newFarm();
      const parcels = rvoParcels(4);
      parcels[3]!.NAAM = '';
      const path = await writeRvoZip(join(folder, 'unnamed.zip'), parcels);
      const run = await akker(['fields', 'import', path, '--farm', farm, '--year', '2025'], env);
      expect(run.code, run.out + run.err).toBe(0);
      expect(run.out).toMatch(/4\s+Sector S1003 \(made up\)\s+new/);
      expect(run.out).toContain('created 4');
      expect(run.out).toContain('1 name made up (the file states none; --name-from PROPERTY takes them from a property)');
      expect((await fieldsOf(farm)).map((f) => f.b_name)).toEqual(['Perceel 1', 'Perceel 2', 'Perceel 3', 'Sector S1003']);

      // The farmer names it in Akker: the next import (with --update) leaves that name alone.
      const field = (await fieldsOf(farm))[3]!;
      const etag = (await server.send(user.key, 'GET', `/api/fields/${field.b_id}`)).headers.get('etag')!;
      const renamed = await fetch(`${server.url}/api/fields/${field.b_id}`, {
        method: 'PATCH',
        headers: { 'X-API-Key': user.key, 'Content-Type': 'application/json', 'If-Match': etag },
        body: JSON.stringify({ b_name: 'Achter de schuur' }),
      });
      expect(renamed.status).toBe(200);
      const again = await akker(['fields', 'import', path, '--farm', farm, '--year', '2025', '--update'], env);
      expect(again.code, again.out + again.err).toBe(0);
      expect(again.out).toContain('0 new, 4 unchanged, 0 changed');
      expect((await fieldsOf(farm))[3]!.b_name).toBe('Achter de schuur');
    });

    it("is named by the file's name and its position when the file has nothing else; --name-from still wins", async () => {
      const farm = await newFarm();
      const path = join(folder, 'kavels.geojson');
      await writeFile(
        path,
        geoJson([
          { properties: { perceel: 'Noord' }, geometry: { type: 'Polygon', coordinates: [square(5.6)] } },
          { properties: {}, geometry: { type: 'Polygon', coordinates: [square(5.61)] } },
        ]),
      );
      const dry = await akker(['fields', 'import', path, '--farm', farm, '--start', '2024-01-01', '--dry-run'], env);
      expect(dry.code, dry.out + dry.err).toBe(0);
      expect(dry.out).toMatch(/1\s+kavels\.geojson #1 \(made up\)/);
      expect(dry.out).toMatch(/2\s+kavels\.geojson #2 \(made up\)/);
      const run = await akker(['fields', 'import', path, '--farm', farm, '--start', '2024-01-01', '--name-from', 'perceel'], env);
      expect(run.code, run.out + run.err).toBe(0);
      expect(run.out).toContain('1 name made up');
      expect((await fieldsOf(farm)).map((f) => f.b_name)).toEqual(['Noord', 'kavels.geojson #2']);
      const typo = await akker(['fields', 'import', path, '--farm', farm, '--start', '2024-01-01', '--name-from', 'percel'], env);
      expect(typo.code).toBe(2);
      expect(typo.err).toContain('--name-from percel: no feature of the file has that property');
    });

    it('says in plain words what a feature without a start date lacks', async () => {
      const path = join(folder, 'undated.geojson');
      await writeFile(path, geoJson([{ properties: { name: 'A' }, geometry: { type: 'Polygon', coordinates: [square(5.6)] } }]));
      const run = await akker(['fields', 'import', path, '--farm', await newFarm()], env);
      expect(run.code).toBe(2);
      expect(run.err).toBe('akker: feature 1 of the file states no start date: give one with --start YYYY-MM-DD\n');
    });
  });

  it('drops the heights of a PolygonZ shapefile and of KML positions to 2-D', async () => {
    const farm = await newFarm();
    const ring = rdRectangle(155000, 463000).coordinates[0]!.map(([x, y]) => [x!, y!, 1.25]);
    const dir = tempDir('cli-z-');
    const shp = await writeShapefile(dir, 'hoogte', {
      shp: shpBytes([[ring]], { z: true }),
      dbf: dbfBytes(['NAAM', 'BEGINDAT'], [['Hoog', '2020-01-01']], utf8),
      prj: RD_NEW_PRJ,
    });
    const fromShp = await akker(['fields', 'import', shp, '--farm', farm], env);
    expect(fromShp.code, fromShp.out + fromShp.err).toBe(0);
    expect(fromShp.out).toContain('created 1');

    const kmlPath = join(folder, 'hoogte.kml');
    await writeFile(
      kmlPath,
      kml([{ name: 'Berg', ring: square(5.6) }])
        .replaceAll(',0 ', ',12.5 ')
        .replace(/,0</, ',12.5<'),
    );
    const fromKml = await akker(['fields', 'import', kmlPath, '--farm', farm, '--start', '2024-01-01'], env);
    expect(fromKml.code, fromKml.out + fromKml.err).toBe(0);
    const fields = await fieldsOf(farm);
    expect(fields.map((f) => f.b_name)).toEqual(['Hoog', 'Berg']);
    for (const field of fields) {
      const { b_geometry: geometry } = (await (await server.send(user.key, 'GET', `/api/fields/${field.b_id}`)).json()) as {
        b_geometry: { coordinates: number[][][] };
      };
      expect(geometry.coordinates.flat(2).length).toBe(10); // 5 positions of 2 numbers each
    }
  });

  it('imports two parcels of one name as two fields, unchanged the second time', async () => {
    const farm = await newFarm();
    const path = join(folder, 'same-name.geojson');
    await writeFile(
      path,
      geoJson([5.6, 5.61].map((lon) => ({ properties: { name: 'Achter' }, geometry: { type: 'Polygon', coordinates: [square(lon)] } }))),
    );
    expect((await akker(['fields', 'import', path, '--farm', farm, '--start', '2024-01-01'], env)).code).toBe(0);
    expect((await fieldsOf(farm)).map((f) => f.b_name)).toEqual(['Achter', 'Achter']);
    expect((await akker(['fields', 'import', path, '--farm', farm, '--start', '2024-01-01'], env)).out).toContain('0 new, 2 unchanged');
  });

  it('reports features without geometry, points and lines, sends the rest, and exits 1', async () => {
    const farm = await newFarm();
    const path = join(folder, 'mixed.geojson');
    await writeFile(
      path,
      geoJson([
        { properties: { name: 'Leeg' }, geometry: null },
        { properties: { name: 'Put' }, geometry: { type: 'Point', coordinates: [5.6, 52] } },
        { properties: { name: 'Sloot' }, geometry: { type: 'LineString', coordinates: square(5.6) } },
        { properties: { name: 'Goed' }, geometry: { type: 'Polygon', coordinates: [square(5.6)] } },
      ]),
    );
    const run = await akker(['fields', 'import', path, '--farm', farm, '--start', '2024-01-01'], env);
    expect(run.code).toBe(1);
    expect(run.out).toContain('feature 1 (Leeg): not sent: it has no geometry');
    expect(run.out).toContain('feature 2 (Put): not sent: it is a Point, not a Polygon or MultiPolygon');
    expect(run.out).toContain('feature 3 (Sloot): not sent: it is a LineString, not a Polygon or MultiPolygon');
    expect((await fieldsOf(farm)).map((f) => f.b_name)).toEqual(['Goed']);

    // A null shape in a shapefile is a feature without geometry too.
    const shp = await writeShapefile(tempDir('cli-null-shape-'), 'percelen', {
      shp: shpBytes([null, [rdRectangle(156000, 463000).coordinates[0]!]]),
      dbf: dbfBytes(
        ['NAAM', 'BEGINDAT'],
        [
          ['Niets', '2020-01-01'],
          ['Iets', '2020-01-01'],
        ],
        utf8,
      ),
      prj: RD_NEW_PRJ,
    });
    const fromShp = await akker(['fields', 'import', shp, '--farm', farm], env);
    expect(fromShp.code).toBe(1);
    expect(fromShp.out).toContain('feature 1 (Niets): not sent: it has no geometry');
    expect((await fieldsOf(farm)).map((f) => f.b_name)).toEqual(['Goed', 'Iets']);
  });

  it('reads the polygon layers of a .zip that also holds a layer of points, and says it left that out', async () => {
    const farm = await newFarm();
    const points = [
      { type: 'Feature' as const, geometry: { type: 'Point' as const, coordinates: [155100, 463100] }, properties: { NAAM: 'Put' } },
    ];
    const bytes = await zip<'nodebuffer'>(
      { type: 'FeatureCollection', features: [...rvoParcels(2).map(rvoFeature), ...points] },
      { outputType: 'nodebuffer', compression: 'STORE', types: { polygon: 'percelen', point: 'putten' }, prj: RD_NEW_PRJ },
    );
    const path = join(folder, 'with-points.zip');
    await writeFile(path, bytes);
    const run = await akker(['fields', 'import', path, '--farm', farm, '--year', '2025'], env);
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.out).toContain('with-points.zip:putten.shp holds points, not field outlines: not read');
    expect(run.out).toContain('2 features');
    expect((await fieldsOf(farm)).map((f) => f.b_id_source)).toEqual(['S1000', 'S1001']);
  });

  it.each([
    ['Latin-1 with a .cpg of 1252', latin1, '1252'],
    ['Latin-1 with a .cpg of ISO-8859-1', latin1, 'ISO-8859-1'],
    ['Latin-1 without a .cpg', latin1, undefined],
    ['UTF-8 without a .cpg', utf8, undefined],
    ['UTF-8 with a .cpg of UTF-8', utf8, 'UTF-8'],
  ])('reads the names of a .dbf in %s', async (_what, encode, cpg) => {
    const farm = await newFarm();
    const shapes = [rdRectangle(155000, 463000), rdRectangle(155300, 463000)].map((p) => p.coordinates);
    const shp = await writeShapefile(tempDir('cli-dbf-'), 'percelen', {
      shp: shpBytes(shapes),
      dbf: dbfBytes(
        ['NAAM', 'BEGINDAT'],
        [
          ['Tûmkeswei', '2020-01-01'],
          ['Eénhoek', '2020-01-01'],
        ],
        encode,
      ),
      prj: RD_NEW_PRJ,
      ...(cpg === undefined ? {} : { cpg }),
    });
    const run = await akker(['fields', 'import', shp, '--farm', farm], env);
    expect(run.code, run.out + run.err).toBe(0);
    expect((await fieldsOf(farm)).map((f) => f.b_name)).toEqual(['Tûmkeswei', 'Eénhoek']);
  });

  it('refuses two features of one source id, naming both, and sends the rest (exit 1)', async () => {
    const farm = await newFarm();
    const parcels = rvoParcels(3);
    parcels[2]!.SECTORID = parcels[0]!.SECTORID;
    const run = await akker(
      ['fields', 'import', await writeRvoZip(join(folder, 'same-id.zip'), parcels), '--farm', farm, '--year', '2025'],
      env,
    );
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'feature 1 (Perceel 1): not sent: its source id S1000 is also that of feature 3: a source id names one parcel',
    );
    expect(run.out).toContain('feature 3 (Perceel 3): not sent: its source id S1000 is also that of feature 1');
    expect((await fieldsOf(farm)).map((f) => f.b_id_source)).toEqual(['S1001']);
  });
});
