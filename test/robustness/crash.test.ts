// Crash safety: a server killed with SIGKILL in the middle of a stream of writes, or of a farm's cascade
// delete, is restarted on the same data. Every acknowledged write is there, the delete is all or nothing,
// and the database opens cleanly (and, for the embedded one, passes amcheck).
import { once } from 'node:events';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rectangle } from '../helpers/fixtures.js';
import { killLeftoverServers, signUpOver, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { cloneRow, embeddedData, farmRowCounts, postgresData, type Query, type StoredData } from './stored-data.js';
import { runWriter, WriteLog } from './write-stream.js';

const WRITERS = 8;
const ACKNOWLEDGED_BEFORE_KILL = 150;
// Rows per table below the farm whose delete is killed: about a second of cascade on this machine.
const LARGE_FARM_COPIES = 20_000;
// On the embedded database nothing can be asked while the server holds it: the kill comes this long after
// the server has the request, well inside a cascade of a second or more.
const KILL_AFTER_MS = 300;

const storages: Array<StoredData['kind']> = ['pglite', 'postgres'];
if (!process.env.TEST_DATABASE_URL) console.log('[akker tests] TEST_DATABASE_URL is not set: the crash tests on PostgreSQL are skipped.');

afterAll(killLeftoverServers);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A DELETE that announces itself (`Expect: 100-continue`): `received` resolves once the server has it. */
function startDelete(url: string, key: string, path: string): { received: Promise<unknown>; answered: Promise<number | undefined> } {
  const req = request(`${url}${path}`, { method: 'DELETE', headers: { 'x-api-key': key, expect: '100-continue' } });
  const received = once(req, 'continue');
  const answered = new Promise<number | undefined>((resolve) => {
    req.on('response', (response) => resolve(response.statusCode));
    req.on('error', () => resolve(undefined));
  });
  req.end();
  return { received, answered };
}

/** Resolves once a transaction of another session has begun deleting (PostgreSQL only). */
async function untilDeleting(query: Query): Promise<void> {
  await until(
    async () =>
      (
        await query(`select 1 from pg_stat_activity
          where pid <> pg_backend_pid() and datname = current_database() and xact_start is not null and query ilike 'delete from%'`)
      ).length > 0,
    60_000,
    'the cascade delete to run',
  );
}

async function stopGracefully(server: ServerProcess): Promise<void> {
  server.kill('SIGTERM');
  expect(await server.exited).toEqual({ code: 0, signal: null });
}

async function getJson(url: string, key: string, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, { headers: { 'x-api-key': key } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function allFarms(url: string, key: string): Promise<Map<string, Record<string, unknown>>> {
  const farms = new Map<string, Record<string, unknown>>();
  for (let offset = 0; ; offset += 200) {
    const { body } = await getJson(url, key, `/api/farms?limit=200&offset=${offset}`);
    const page = body as { data: Array<Record<string, unknown>>; pagination: { total: number } };
    for (const farm of page.data) farms.set(farm.b_id_farm as string, farm);
    if (offset + 200 >= page.pagination.total) return farms;
  }
}

describe.each(storages)('crash safety on %s', (kind) => {
  const available = kind === 'pglite' || process.env.TEST_DATABASE_URL !== undefined;
  let data: StoredData;

  beforeAll(async () => {
    if (available) data = kind === 'pglite' ? await embeddedData() : await postgresData(process.env.TEST_DATABASE_URL!);
  });
  afterAll(async () => data?.dispose());

  it.skipIf(!available)('keeps every write acknowledged before a SIGKILL, and opens cleanly after it', { timeout: 120_000 }, async () => {
    const server = await startServerProcess(data.env);
    const key = await signUpOver(server.url, `stream-${kind}@example.org`);
    const log = new WriteLog();
    const writers = Array.from({ length: WRITERS }, (_, w) => runWriter(server.url, key, w, log));
    await until(() => log.acknowledged >= ACKNOWLEDGED_BEFORE_KILL || log.unexpected.length > 0, 60_000, 'acknowledged writes');
    server.kill('SIGKILL');
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await Promise.all(writers);
    expect(log.unexpected).toEqual([]);

    // The lock file of the killed process is stale: the new one takes it over and recovers the database.
    const restarted = await startServerProcess(data.env);
    const stored = await allFarms(restarted.url, key);
    const lost: string[] = [];
    for (const farm of log.farms) {
      const found = stored.get(farm.id);
      if (!found) {
        lost.push(`farm ${farm.id}`);
        continue;
      }
      expect(found.b_name_farm).toBe(farm.name);
      // A PATCH cut off by the kill may or may not have been committed; an acknowledged one must be.
      if (farm.pendingAddress === null || found.b_address_farm !== farm.pendingAddress) expect(found.b_address_farm).toBe(farm.address);
      for (const fieldId of farm.fieldIds) {
        const field = await getJson(restarted.url, key, `/api/fields/${fieldId}`);
        if (field.status !== 200 || field.body.b_id_farm !== farm.id) lost.push(`field ${fieldId}`);
      }
    }
    expect(lost).toEqual([]);
    expect(log.acknowledged).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
    await stopGracefully(restarted);
    await data.withSql((query) => data.checkIntegrity(query));
  });

  it.skipIf(!available)(
    'keeps a farm whole or removes it whole when the server is killed during its cascade delete',
    { timeout: 120_000 },
    async () => {
      // A farm with one record of every kind, through the API…
      let server = await startServerProcess(data.env);
      const key = await signUpOver(server.url, `cascade-${kind}@example.org`);
      const post = async (path: string, body: unknown) => {
        const init = { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-api-key': key } };
        const response = await fetch(`${server.url}${path}`, init);
        expect(response.status).toBe(201);
        return (await response.json()) as Record<string, string>;
      };
      const farm = (await post('/api/farms', { b_name_farm: 'Large farm' })).b_id_farm!;
      const field = (await post(`/api/farms/${farm}/fields`, { b_name: 'P', b_start: '2020-01-01', b_geometry: rectangle() })).b_id!;
      const cultivation = (await post(`/api/fields/${field}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' })).b_lu!;
      const harvest = (
        await post(`/api/cultivations/${cultivation}/harvests`, { b_lu_harvest_date: '2025-06-01', b_lu_yield: 3000, b_lu_cp: 170 })
      ).b_id_harvesting!;
      const analysis = (await post(`/api/fields/${field}/soil-analyses`, { a_som_loi: 3 })).a_id!;
      const fertilizer = (await post(`/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT028' })).p_id!;
      const application = (
        await post(`/api/fields/${field}/fertilizer-applications`, {
          p_id: fertilizer,
          p_app_amount_display: 100,
          p_app_date: '2025-03-01',
        })
      ).p_app_id!;
      if (kind === 'pglite') await stopGracefully(server);

      // …copied in SQL until its delete takes a while.
      const before = await data.withSql(async (query) => {
        await cloneRow(query, 'fields', 'b_id', field, ['b_id'], LARGE_FARM_COPIES);
        await cloneRow(query, 'cultivations', 'b_lu', cultivation, ['b_lu', 'b_id'], LARGE_FARM_COPIES);
        await cloneRow(query, 'harvests', 'b_id_harvesting', harvest, ['b_id_harvesting', 'b_lu'], LARGE_FARM_COPIES);
        await cloneRow(query, 'soil_analyses', 'a_id', analysis, ['a_id', 'b_id'], LARGE_FARM_COPIES);
        await cloneRow(query, 'fertilizer_applications', 'p_app_id', application, ['p_app_id', 'b_id'], LARGE_FARM_COPIES);
        return farmRowCounts(query, farm);
      });
      expect(before.fields).toBe(LARGE_FARM_COPIES + 1);
      if (kind === 'pglite') server = await startServerProcess(data.env);

      const deletion = startDelete(server.url, key, `/api/farms/${farm}`);
      await deletion.received;
      if (kind === 'postgres') await data.withSql(untilDeleting);
      else await sleep(KILL_AFTER_MS);
      server.kill('SIGKILL');
      await server.exited;
      // Killed in the middle: no answer came.
      expect(await deletion.answered).toBeUndefined();

      const restarted = await startServerProcess(data.env);
      const farmStatus = (await getJson(restarted.url, key, `/api/farms/${farm}`)).status;
      if (kind === 'pglite') await stopGracefully(restarted);
      const after = await data.withSql(async (query) => {
        await data.checkIntegrity(query);
        return farmRowCounts(query, farm);
      });
      const nothing = Object.fromEntries(Object.keys(before).map((table) => [table, 0]));
      expect([before, nothing]).toContainEqual(after);
      expect(farmStatus).toBe(after.farms === 1 ? 200 : 404);
      if (kind === 'postgres') await stopGracefully(restarted);
    },
  );
});
