// `akker fields import` against a real listening server: each format creates the expected fields (and the
// year's cultivation of an RVO export), positions within 1e-7° of PROJ's after reprojection from RD New; a
// second import is all unchanged; a changed boundary is changed, applied only with --update; bad input is
// refused with a clear message and exit code, and leaves nothing half-written.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { converter } from '../../clients/cli/src/crs.js';
import { signUpWithKey, type Account } from '../helpers/app.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { tempDir } from '../helpers/temp.js';
import { kml, PROJ_CORNERS, rdRectangle, rvoParcels, writeRvoShapefile, writeRvoZip } from './fixtures.js';
import { akker } from './run.js';

interface Field {
  b_id: string;
  b_name: string;
  b_id_source: string | null;
  b_start: string;
  b_end: string | null;
  b_acquiring_method: string;
}

describe('akker fields import', () => {
  let server: ListeningApp;
  let user: Account;
  let env: Record<string, string>;
  const folder = tempDir('cli-import-');

  const newFarm = async (name = 'De Hoeve') =>
    ((await (await server.send(user.key, 'POST', '/api/farms', { b_name_farm: name })).json()) as { b_id_farm: string }).b_id_farm;
  const fieldsOf = async (farm: string) =>
    ((await (await server.send(user.key, 'GET', `/api/farms/${farm}/fields?limit=200`)).json()) as { data: Field[] }).data;
  const geometryOf = async (field: string) =>
    ((await (await server.send(user.key, 'GET', `/api/fields/${field}`)).json()) as { b_geometry: { coordinates: Position[][] } })
      .b_geometry;
  const cropsOf = async (field: string) =>
    (
      (await (await server.send(user.key, 'GET', `/api/fields/${field}/cultivations`)).json()) as {
        data: Array<{ b_lu_catalogue: string; b_lu_start: string }>;
      }
    ).data;

  beforeAll(async () => {
    server = await startListeningApp('pglite');
    user = await signUpWithKey(server.app);
    env = { AKKER_URL: server.url, AKKER_API_KEY: user.key };
  });
  afterAll(() => server.close());

  describe('an RVO Mijn Percelen export (zipped shapefile in RD New)', () => {
    let farm: string;
    let zipPath: string;
    beforeAll(async () => {
      farm = await newFarm();
      zipPath = await writeRvoZip(join(folder, 'percelen.zip'), rvoParcels(3));
    });

    it('shows the review and writes nothing with --dry-run', async () => {
      const run = await akker(['fields', 'import', zipPath, '--farm', farm, '--year', '2025', '--dry-run'], env);
      expect(run.code).toBe(0);
      expect(run.out).toContain('RVO Mijn Percelen export, 3 features, in EPSG:28992');
      expect(run.out).toContain('3 new, 0 unchanged, 0 changed, 0 only in Akker');
      expect(run.out).toContain('+nl_233');
      expect(run.out).toContain('dry run: nothing written');
      expect(await fieldsOf(farm)).toEqual([]);
    });

    it("creates every field with its name, source id, dates and acquiring method, and the year's cultivation", async () => {
      const run = await akker(['fields', 'import', zipPath, '--farm', farm, '--year', '2025'], env);
      expect(run.code, run.out + run.err).toBe(0);
      expect(run.out).toContain('created 3, updated 0, deleted 0, unchanged 0, cultivations added 3');
      const fields = await fieldsOf(farm);
      expect(fields.map((f) => [f.b_name, f.b_id_source, f.b_start, f.b_end, f.b_acquiring_method])).toEqual([
        ['Perceel 1', 'S1000', '2019-01-01', null, 'nl_01'],
        ['Perceel 2', 'S1001', '2019-01-01', '2030-06-30', 'nl_01'],
        ['Perceel 3', 'S1002', '2019-01-01', null, 'nl_01'],
      ]);
      const crops = await Promise.all(fields.map((f) => cropsOf(f.b_id)));
      expect(crops.map((c) => c.map((x) => [x.b_lu_catalogue, x.b_lu_start]))).toEqual([
        [['nl_233', '2025-01-01']],
        [['nl_265', '2025-01-01']],
        [['nl_233', '2025-01-01']],
      ]);
    });

    it('puts each corner within 1e-7° of where PROJ puts it (RD New with its datum shift)', async () => {
      const [first] = await fieldsOf(farm);
      const ring = (await geometryOf(first!.b_id)).coordinates[0]!;
      const source = rdRectangle(155000, 463000).coordinates[0]!;
      expect(ring).toHaveLength(source.length);
      // Whatever the ring's direction, each RD corner has its PROJ position in it.
      for (const [x, y] of source) {
        const [lon, lat] = PROJ_CORNERS[`${x} ${y}`]!;
        const nearest = Math.min(...ring.map(([a, b]) => Math.max(Math.abs(a! - lon!), Math.abs(b! - lat!))));
        expect(nearest).toBeLessThan(1e-7);
      }
    });

    it('reports everything unchanged on a second import, and writes nothing', async () => {
      const run = await akker(['fields', 'import', zipPath, '--farm', farm, '--year', '2025'], env);
      expect(run.code).toBe(0);
      expect(run.out).toContain('0 new, 3 unchanged, 0 changed');
      expect(run.out).toContain('created 0, updated 0, deleted 0, unchanged 3, cultivations added 0');
    });

    it('classes a moved boundary as changed, and changes it only with --update (If-Match)', async () => {
      const parcels = rvoParcels(3);
      parcels[0]!.outline = rdRectangle(155000, 463000, 220);
      parcels[2]!.NAAM = 'Achter de schuur';
      const moved = await writeRvoZip(join(folder, 'moved.zip'), parcels);
      const before = await fieldsOf(farm);

      const plain = await akker(['fields', 'import', moved, '--farm', farm, '--year', '2025'], env);
      expect(plain.code).toBe(0);
      expect(plain.out).toMatch(/Perceel 1\s+changed\s+by source id\s+b_geometry/);
      expect(plain.out).toMatch(/Achter de schuur\s+changed\s+by source id\s+b_name/);
      expect(plain.out).toContain('changed but not updated 2 (use --update)');
      expect(await fieldsOf(farm)).toEqual(before);

      const update = await akker(['fields', 'import', moved, '--farm', farm, '--year', '2025', '--update'], env);
      expect(update.code).toBe(0);
      expect(update.out).toContain('created 0, updated 2');
      const after = await fieldsOf(farm);
      expect(after.map((f) => f.b_name)).toEqual(['Perceel 1', 'Perceel 2', 'Achter de schuur']);
      expect(after.map((f) => f.b_id)).toEqual(before.map((f) => f.b_id));
      expect((await akker(['fields', 'import', moved, '--farm', farm, '--year', '2025'], env)).out).toContain('0 new, 3 unchanged');
    });

    it('deletes the fields the file lacks only with --delete-missing', async () => {
      const two = await writeRvoZip(join(folder, 'two.zip'), rvoParcels(2));
      const kept = await akker(['fields', 'import', two, '--farm', farm, '--year', '2025', '--update'], env);
      expect(kept.out).toContain('only in Akker, kept 1 (use --delete-missing)');
      expect(await fieldsOf(farm)).toHaveLength(3);
      const deleted = await akker(['fields', 'import', two, '--farm', farm, '--year', '2025', '--update', '--delete-missing'], env);
      expect(deleted.code).toBe(0);
      expect(deleted.out).toContain('deleted 1');
      expect((await fieldsOf(farm)).map((f) => f.b_id_source)).toEqual(['S1000', 'S1001']);
    });
  });

  it('reads a shapefile as .shp with its .dbf and .prj beside it', async () => {
    const farm = await newFarm();
    const shp = await writeRvoShapefile(tempDir('cli-shp-'), rvoParcels(2));
    const run = await akker(['fields', 'import', shp, '--farm', farm, '--year', '2025'], env);
    expect(run.code, run.out + run.err).toBe(0);
    expect((await fieldsOf(farm)).map((f) => f.b_id_source)).toEqual(['S1000', 'S1001']);
  });

  it('reads a GeoJSON in RD New by its crs member, its names by --name-from and its start by --start', async () => {
    const farm = await newFarm();
    const path = join(folder, 'rd.geojson');
    const features = [0, 1].map((i) => ({
      type: 'Feature',
      properties: { perceel: `Kavel ${i}` },
      geometry: rdRectangle(155000 + i * 300, 463000),
    }));
    await writeFile(
      path,
      JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::28992' } }, features }),
    );
    const run = await akker(['fields', 'import', path, '--farm', farm, '--name-from', 'perceel', '--start', '2024-03-01'], env);
    expect(run.code, run.out + run.err).toBe(0);
    const fields = await fieldsOf(farm);
    expect(fields.map((f) => [f.b_name, f.b_start, f.b_id_source])).toEqual([
      ['Kavel 0', '2024-03-01', null],
      ['Kavel 1', '2024-03-01', null],
    ]);
    const ring = (await geometryOf(fields[0]!.b_id)).coordinates[0]!;
    expect(Math.min(...ring.map(([lon, lat]) => Math.abs(lon! - 5.3872035089) + Math.abs(lat! - 52.1551722997)))).toBeLessThan(1e-7);
    // Matched by overlap the second time: the file has no source identifiers.
    expect((await akker(['fields', 'import', path, '--farm', farm, '--name-from', 'perceel', '--start', '2024-03-01'], env)).out).toMatch(
      /Kavel 0\s+unchanged\s+by overlap 1\.000/,
    );
  });

  it('reads a KML, which is WGS 84, with the placemark names', async () => {
    const farm = await newFarm();
    const path = join(folder, 'fields.kml');
    const square = (lon: number): Position[] => [
      [lon, 52],
      [lon + 0.003, 52],
      [lon + 0.003, 52.002],
      [lon, 52.002],
      [lon, 52],
    ];
    await writeFile(
      path,
      kml([
        { name: 'Noord', ring: square(5.6) },
        { name: 'Zuid', ring: square(5.61) },
      ]),
    );
    const run = await akker(['fields', 'import', path, '--farm', farm, '--start', '2024-01-01'], env);
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.out).toContain('KML, 2 features, in EPSG:4326');
    expect((await fieldsOf(farm)).map((f) => f.b_name)).toEqual(['Noord', 'Zuid']);
    expect((await geometryOf((await fieldsOf(farm))[0]!.b_id)).coordinates[0]).toContainEqual([5.6, 52]);
  });

  it('creates every feature exactly once when a run is killed (SIGKILL) half-way and started again', async () => {
    const farm = await newFarm();
    const zipPath = await writeRvoZip(join(folder, 'killed.zip'), rvoParcels(8, 'K'));
    // In front of the server: passes everything on, but from the third field created on, the answer never comes
    // back, as with a run killed while its requests were under way.
    let created = 0;
    let onHeld: () => void = () => {};
    const held = new Promise<void>((resolve) => (onHeld = resolve));
    const proxy = createHttpServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      ) as Record<string, string>;
      const answer = await fetch(`${server.url}${request.url}`, {
        method: request.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await answer.arrayBuffer());
      if (request.method === 'POST' && request.url!.endsWith('/fields') && ++created >= 3) return onHeld();
      response.writeHead(answer.status, Object.fromEntries(answer.headers)).end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'clients/cli/src/main.ts', 'fields', 'import', zipPath, '--farm', farm, '--year', '2025'],
      {
        env: { ...process.env, AKKER_URL: proxyUrl, AKKER_API_KEY: user.key },
        stdio: 'ignore',
      },
    );
    const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await held;
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    const half = await fieldsOf(farm);
    expect(half.length).toBeGreaterThanOrEqual(3);
    expect(half.length).toBeLessThan(8);

    const rerun = await akker(['fields', 'import', zipPath, '--farm', farm, '--year', '2025'], env);
    expect(rerun.code, rerun.out + rerun.err).toBe(0);
    const fields = await fieldsOf(farm);
    expect(fields.map((f) => f.b_id_source).sort()).toEqual(rvoParcels(8, 'K').map((p) => p.SECTORID));
    const crops = await Promise.all(fields.map((f) => cropsOf(f.b_id)));
    expect(crops.map((c) => c.length)).toEqual(fields.map(() => 1));
    expect((await akker(['fields', 'import', zipPath, '--farm', farm, '--year', '2025'], env)).out).toContain('0 new, 8 unchanged');
  });

  describe('bad input', () => {
    it('refuses a truncated .shp with exit code 2, writing nothing', async () => {
      const farm = await newFarm();
      const dir = tempDir('cli-truncated-');
      const shp = await writeRvoShapefile(dir, rvoParcels(3));
      const bytes = await readFile(shp);
      await writeFile(shp, bytes.subarray(0, bytes.length - 40));
      const run = await akker(['fields', 'import', shp, '--farm', farm], env);
      expect(run.code).toBe(2);
      expect(run.err).toMatch(/percelen\.shp: the \.shp is truncated or damaged: its header says \d+ bytes, the file has \d+/);
      expect(await fieldsOf(farm)).toEqual([]);
    });

    it('refuses RD coordinates without a .prj, naming --crs, and takes them with --crs EPSG:28992', async () => {
      const farm = await newFarm();
      const shp = await writeRvoShapefile(tempDir('cli-noprj-'), rvoParcels(2), null);
      const run = await akker(['fields', 'import', shp, '--farm', farm], env);
      expect(run.code).toBe(2);
      expect(run.err).toContain('the coordinates are not longitude/latitude and the file names no coordinate system');
      expect(run.err).toContain('--crs');
      expect(await fieldsOf(farm)).toEqual([]);
      expect((await akker(['fields', 'import', shp, '--farm', farm, '--crs', 'EPSG:28992'], env)).code).toBe(0);
      expect(await fieldsOf(farm)).toHaveLength(2);
    });

    it('creates a field whose crop code the catalogue does not know without a cultivation, says so, and exits 1', async () => {
      const farm = await newFarm();
      const parcels = rvoParcels(2);
      parcels[1]!.GEWASCODE = 99999;
      const run = await akker(
        ['fields', 'import', await writeRvoZip(join(folder, 'unknown-crop.zip'), parcels), '--farm', farm, '--year', '2025'],
        env,
      );
      expect(run.code).toBe(1);
      expect(run.out).toContain("feature 2 (Perceel 2): crop code nl_99999 is not in Akker's crop catalogue: no cultivation added");
      const fields = await fieldsOf(farm);
      expect(fields).toHaveLength(2);
      expect((await cropsOf(fields[1]!.b_id)).length).toBe(0);
      expect((await cropsOf(fields[0]!.b_id)).map((c) => c.b_lu_catalogue)).toEqual(['nl_233']);
    });

    it('does not send an outline over 10,000 positions or one that crosses itself; sends the rest; exits 1', async () => {
      const farm = await newFarm();
      const ring: Position[] = Array.from({ length: 10_001 }, (_, i) => {
        const angle = (2 * Math.PI * i) / 10_000;
        return [5.6 + 0.01 * Math.cos(angle), 52 + 0.01 * Math.sin(angle)];
      });
      ring[10_000] = ring[0]!;
      const bowTie = [
        [5.7, 52],
        [5.703, 52.002],
        [5.703, 52],
        [5.7, 52.002],
        [5.7, 52],
      ];
      const fine = [
        [5.8, 52],
        [5.803, 52],
        [5.803, 52.002],
        [5.8, 52.002],
        [5.8, 52],
      ];
      const feature = (name: string, coordinates: number[][]) => ({
        type: 'Feature',
        properties: { name },
        geometry: { type: 'Polygon', coordinates: [coordinates] },
      });
      const path = join(folder, 'bad-outlines.geojson');
      await writeFile(
        path,
        JSON.stringify({
          type: 'FeatureCollection',
          features: [feature('Groot', ring), feature('Vlinder', bowTie), feature('Goed', fine)],
        }),
      );
      const run = await akker(['fields', 'import', path, '--farm', farm, '--start', '2024-01-01'], env);
      expect(run.code).toBe(1);
      expect(run.out).toContain('feature 1 (Groot): not sent: has 10001 positions; Akker takes at most 10000');
      expect(run.out).toContain('feature 2 (Vlinder): not sent: its outline crosses itself');
      expect(run.out).toContain('created 1');
      expect((await fieldsOf(farm)).map((f) => f.b_name)).toEqual(['Goed']);
    });

    it('refuses a wrong API key with exit code 2, without printing the key', async () => {
      const farm = await newFarm();
      const wrong = 'akk_wrongwrongwrongwrongwrongwrongwrongwrong12';
      const run = await akker(
        [
          'fields',
          'import',
          await writeRvoZip(join(folder, 'key.zip'), rvoParcels(1)),
          '--farm',
          farm,
          '--key',
          wrong,
          '--url',
          server.url,
        ],
        {},
      );
      expect(run.code).toBe(2);
      expect(run.err).toContain('Akker refused the API key (401)');
      expect(run.out + run.err).not.toContain(wrong);
      expect(await fieldsOf(farm)).toEqual([]);
    });

    it('says a server that is down cannot be reached, with exit code 2', async () => {
      // A port that was free a moment ago: nothing listens there.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const down = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
      await new Promise((resolve) => closed.close(resolve));
      const run = await akker(['fields', 'import', await writeRvoZip(join(folder, 'down.zip'), rvoParcels(1)), '--farm', 'x'], {
        AKKER_URL: down,
        AKKER_API_KEY: user.key,
      });
      expect(run.code).toBe(2);
      expect(run.err).toContain(`cannot reach Akker: connect ECONNREFUSED ${down.slice('http://'.length)}`);
      expect(run.out + run.err).not.toContain(user.key);
    });

    it('is a usage error (exit code 2) without --farm, or without the settings', async () => {
      expect((await akker(['fields', 'import', 'x.zip'], env)).code).toBe(2);
      const unset = await akker(['fields', 'import', await writeRvoZip(join(folder, 'unset.zip'), rvoParcels(1)), '--farm', 'x'], {});
      expect(unset.code).toBe(2);
      expect(unset.err).toContain('AKKER_URL');
    });
  });

  it('lists the farms, and has help with examples on every command', async () => {
    const run = await akker(['farms', 'list'], env);
    expect(run.code).toBe(0);
    expect(run.out).toContain('De Hoeve');
    for (const command of [[], ['fields', 'import'], ['fields', 'export'], ['farms', 'list']]) {
      const help = await akker([...command, '--help'], env);
      expect(help.code).toBe(0);
      expect(help.out).toContain('Examples:');
    }
  });

  it('converts with proj4 as PROJ does: a second pair of RD points', () => {
    const toWgs84 = converter('EPSG:28992', 'EPSG:4326');
    // cs2cs (PROJ 9.1.1) with the same definition: 121687 487484 → 4.8980098938 52.3742181625; 100000 400000 → 4.5935962824 51.5862179183.
    for (const [rd, wgs] of [
      [
        [121687, 487484],
        [4.8980098938, 52.3742181625],
      ],
      [
        [100000, 400000],
        [4.5935962824, 51.5862179183],
      ],
    ]) {
      const [lon, lat] = toWgs84(rd!);
      expect(Math.abs(lon! - wgs![0]!)).toBeLessThan(1e-9);
      expect(Math.abs(lat! - wgs![1]!)).toBeLessThan(1e-9);
    }
  });
});
