// `akker fields export` against a real listening server: every field of the farm (all pages), in GeoJSON, a
// zipped shapefile and CSV, in WGS 84 or RD New; each read back by an import is all unchanged.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithKey, type Account } from '../helpers/app.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { tempDir } from '../helpers/temp.js';
import { rvoParcels, writeRvoZip } from './fixtures.js';
import { akker } from './run.js';

describe('akker fields export', () => {
  let server: ListeningApp;
  let user: Account;
  let env: Record<string, string>;
  let farm: string;
  const folder = tempDir('cli-export-');
  // More fields than one page of the API (200 at most), so the export has to page.
  const COUNT = 205;

  beforeAll(async () => {
    server = await startListeningApp('pglite');
    user = await signUpWithKey(server.app);
    env = { AKKER_URL: server.url, AKKER_API_KEY: user.key };
    farm = ((await (await server.send(user.key, 'POST', '/api/farms', { b_name_farm: 'De Hoeve' })).json()) as { b_id_farm: string })
      .b_id_farm;
    // Without crops: the export has no cultivations to write.
    const parcels = rvoParcels(COUNT).map((parcel) => ({ ...parcel, GEWASCODE: null }));
    // One field without a source identifier: matched back by overlap.
    parcels[3]!.SECTORID = '';
    const run = await akker(
      ['fields', 'import', await writeRvoZip(join(folder, 'percelen.zip'), parcels), '--farm', farm, '--year', '2025'],
      env,
    );
    expect(run.code, run.out + run.err).toBe(0);
    // 205 fields and their writes: on a busy machine this takes longer than a hook's default minute.
  }, 180_000);
  afterAll(() => server.close());

  it('writes every field of the farm as GeoJSON in WGS 84 to standard output', async () => {
    const run = await akker(['fields', 'export', '--farm', farm], env);
    expect(run.code).toBe(0);
    const collection = JSON.parse(run.out) as { crs?: unknown; features: Array<{ properties: Record<string, unknown> }> };
    expect(collection.crs).toBeUndefined();
    expect(collection.features).toHaveLength(COUNT);
    expect(collection.features[0]!.properties).toMatchObject({
      b_name: 'Perceel 1',
      b_id_source: 'S1000',
      b_start: '2019-01-01',
      b_end: null,
      b_acquiring_method: 'nl_01',
    });
  });

  it.each([
    ['geojson', 'EPSG:28992', 'fields.geojson'],
    ['shapefile', 'EPSG:28992', 'percelen-export.zip'],
    ['csv', 'EPSG:4326', 'fields.csv'],
  ])('exports %s in %s that an import reads back as all unchanged', async (format, crs, name) => {
    const out = join(folder, name);
    const exported = await akker(['fields', 'export', '--farm', farm, '--format', format, '--crs', crs, '--out', out], env);
    expect(exported.code, exported.err).toBe(0);
    expect(exported.err).toContain(`${COUNT} fields written to ${out} (${format}, ${crs})`);
    if (format === 'geojson') expect(JSON.parse(await readFile(out, 'utf8')).crs.properties.name).toBe('urn:ogc:def:crs:EPSG::28992');
    const run = await akker(['fields', 'import', out, '--farm', farm, '--dry-run'], env);
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.out).toContain(`in ${crs}`);
    expect(run.out).toContain(`0 new, ${COUNT} unchanged, 0 changed, 0 only in Akker`);
  });

  describe('a farm without fields', () => {
    let empty: string;
    beforeAll(async () => {
      empty = ((await (await server.send(user.key, 'POST', '/api/farms', { b_name_farm: 'Leeg' })).json()) as { b_id_farm: string })
        .b_id_farm;
    });

    /** What GDAL's ogrinfo says of a file, or undefined (and why, printed) when GDAL is not installed. */
    const ogrinfo = (path: string): string | undefined => {
      try {
        return execFileSync('ogrinfo', ['-ro', '-al', '-so', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          console.log(`ogrinfo is not installed (apt-get install gdal-bin): ${path} is not opened with GDAL`);
          return undefined;
        }
        throw error;
      }
    };

    it.each([
      ['geojson', 'empty.geojson', ''],
      ['shapefile', 'empty.zip', '/vsizip/'],
      ['csv', 'empty.csv', ''],
    ])('exports %s as a valid file of no features, which GDAL opens and an import reads back', async (format, name, vsi) => {
      const out = join(folder, name);
      const run = await akker(['fields', 'export', '--farm', empty, '--format', format, '--crs', 'EPSG:28992', '--out', out], env);
      expect(run.code, run.err).toBe(0);
      expect(run.err).toContain(`0 fields written to ${out}`);
      const info = ogrinfo(`${vsi}${out}`);
      if (info !== undefined) expect(info).toContain('Feature Count: 0');
      const back = await akker(['fields', 'import', out, '--farm', empty, '--dry-run'], env);
      expect(back.code, back.out + back.err).toBe(0);
      expect(back.out).toContain('0 features');
    });
  });

  it('escapes names and source ids a spreadsheet would run as formulas, and reads them back as they were', async () => {
    const farm = ((await (await server.send(user.key, 'POST', '/api/farms', { b_name_farm: 'Formules' })).json()) as { b_id_farm: string })
      .b_id_farm;
    const names = ['=HYPERLINK("http://example.org","klik")', '+31 akker', '-1', '@SUM(A1)', "'=al een aanhalingsteken", 'Gewoon'];
    const path = join(folder, 'formulas.geojson');
    const square = (i: number) => [
      [
        [5.6 + i * 0.01, 52],
        [5.603 + i * 0.01, 52],
        [5.603 + i * 0.01, 52.002],
        [5.6 + i * 0.01, 52.002],
        [5.6 + i * 0.01, 52],
      ],
    ];
    await writeFile(
      path,
      JSON.stringify({
        type: 'FeatureCollection',
        features: names.map((name, i) => ({
          type: 'Feature',
          properties: { b_name: name, b_id_source: i === 0 ? '=1+1' : `bron-${i}`, b_start: '2024-01-01' },
          geometry: { type: 'Polygon', coordinates: square(i) },
        })),
      }),
    );
    expect((await akker(['fields', 'import', path, '--farm', farm], env)).code).toBe(0);
    const out = join(folder, 'formulas.csv');
    expect((await akker(['fields', 'export', '--farm', farm, '--format', 'csv', '--out', out], env)).code).toBe(0);
    const csv = await readFile(out, 'utf8');
    expect(csv).toContain(`"'=HYPERLINK(""http://example.org"",""klik"")"`);
    expect(csv).toContain(`"'=1+1"`);
    expect(csv).toContain(`"'+31 akker"`);
    expect(csv).toContain(`"'-1"`);
    expect(csv).toContain(`"'@SUM(A1)"`);
    expect(csv).toContain(`"''=al een aanhalingsteken"`);
    expect(csv).toContain(',Gewoon,');
    // No cell of a row starts with a formula character, quoted or not.
    expect(csv).not.toMatch(/(^|,)"?[=+\-@]/m);
    const back = await akker(['fields', 'import', out, '--farm', farm, '--dry-run'], env);
    expect(back.code, back.out + back.err).toBe(0);
    expect(back.out).toContain('0 new, 6 unchanged, 0 changed');
  });

  it('needs --out for a shapefile, and refuses an unknown --format or --crs (exit code 2)', async () => {
    const noOut = await akker(['fields', 'export', '--farm', farm, '--format', 'shapefile'], env);
    expect(noOut.code).toBe(2);
    expect(noOut.err).toContain('give --out FILE');
    expect((await akker(['fields', 'export', '--farm', farm, '--format', 'gpkg'], env)).code).toBe(2);
    const crs = await akker(['fields', 'export', '--farm', farm, '--crs', 'EPSG:31370'], env);
    expect(crs.code).toBe(2);
    expect(crs.err).toContain('--crs EPSG:31370 is not known');
  });
});
