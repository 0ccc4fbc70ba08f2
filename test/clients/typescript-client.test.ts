// The typed TypeScript client (clients/typescript) against a real server on a socket: its generated
// types match the app's document, it creates and pages through the client, waits out a 429 for as
// long as Retry-After says, resends after a lost answer only what is safe to resend (a POST under its
// Idempotency-Key), and its example script keeps a copy of a farm in step through the change feed.
import { readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AkkerError,
  createAkkerClient,
  createGeoJsonClient,
  eachItem,
  eachPortfolioRow,
  type AkkerClient,
} from '../../clients/typescript/src/index.js';
import { sql } from 'drizzle-orm';
import { readFarm, pullChanges, syncFarm } from '../../clients/typescript/examples/sync-farm.js';
import { MemoryWindows } from '../../src/rate-limit/memory-windows.js';
import { pruneChanges } from '../../src/resources/changes/pruning.js';
import { CLIENT_TYPES_PATH, clientTypesSource, defaultApiDocument } from '../../scripts/client-types.js';
import { signUpWithKey, type Account } from '../helpers/app.js';
import { makeCalculable, rectangle } from '../helpers/fixtures.js';
import { createOrganisation, shareWithOrganisation } from '../helpers/organisations.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';

/** A request the client sent, and what came back (a status, or `network error`). */
interface Exchange {
  method: string;
  path: string;
  outcome: number | 'network error';
}

/**
 * A TCP relay in front of the server that can lose an answer: after `loseNextResponse()`, the next
 * bytes the server sends are dropped and both connections closed, so the request reached the server
 * and was carried out, but the client sees a network error.
 */
async function startRelay(target: string): Promise<{ url: string; loseNextResponse(): void; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  let loseNext = false;
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const server = connect(Number(port), hostname);
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        server.destroy();
      });
    }
    client.on('data', (chunk) => server.write(chunk));
    server.on('data', (chunk) => {
      if (loseNext) {
        loseNext = false;
        client.destroy();
        server.destroy();
      } else client.write(chunk);
    });
    client.on('end', () => server.end());
    server.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    loseNextResponse: () => void (loseNext = true),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}

describe('the TypeScript client', () => {
  // The rate limiter's clock: real time, plus whatever the test skips ahead.
  let skipped = 0;
  const limiterNow = () => performance.now() + skipped;
  let server: ListeningApp;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let user: Account;
  let exchanges: Exchange[] = [];
  /** Runs when an answer has come, before the client sees it. */
  let onResponse: (status: number) => Promise<void> = async () => {};
  let akker: AkkerClient;

  /** The global fetch, with each exchange written down. */
  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const exchange: Exchange = { method: request.method, path: new URL(request.url).pathname, outcome: 'network error' };
    exchanges.push(exchange);
    const response = await fetch(request);
    exchange.outcome = response.status;
    await onResponse(response.status);
    return response;
  };

  beforeAll(async () => {
    // One calculation a minute: a second one is refused with 429 (the other categories do not run out here).
    server = await startListeningApp('pglite', { RATE_LIMIT_CALCULATION: '1' }, new MemoryWindows(limiterNow));
    relay = await startRelay(server.url);
    user = await signUpWithKey(server.app);
    akker = createAkkerClient({ baseUrl: relay.url, apiKey: user.key, fetch: recordingFetch, networkRetryDelayMs: 10 });
  });
  afterAll(async () => {
    await relay.close();
    await server.close();
  });

  it('has types that are what the generator makes from the app now', async () => {
    const committed = readFileSync(CLIENT_TYPES_PATH, 'utf8');
    const generated = await clientTypesSource(await defaultApiDocument(server.database));
    expect(generated === committed, `${CLIENT_TYPES_PATH} is not what the API describes now: run \`npm run client:generate\``).toBe(true);
  });

  let farmId: string;
  const fieldIds: string[] = [];

  it('creates a farm with a field, sending the key, and pages through a list', async () => {
    const farm = await akker.POST('/api/farms', { body: { b_name_farm: 'De Hoeve' } });
    expect(farm.response.status).toBe(201);
    farmId = farm.data!.b_id_farm;
    for (let i = 0; i < 5; i++) {
      const field = await akker.POST('/api/farms/{b_id_farm}/fields', {
        params: { path: { b_id_farm: farmId } },
        body: { b_name: `Perceel ${i}`, b_start: '2024-01-01', b_geometry: rectangle(5 + i * 0.01) },
      });
      expect(field.response.status).toBe(201);
      expect(field.data!.b_id_farm).toBe(farmId);
      fieldIds.push(field.data!.b_id);
    }

    exchanges = [];
    const listed: string[] = [];
    const pages = (page: { limit: number; offset: number }) =>
      akker.GET('/api/farms/{b_id_farm}/fields', { params: { path: { b_id_farm: farmId }, query: page } });
    for await (const field of eachItem(pages, 2)) listed.push(field.b_id);
    expect(listed).toEqual(fieldIds);
    // Pages of 2, 2 and 1: the last one reaches the total, so no request for an empty fourth.
    expect(exchanges.map((e) => e.outcome)).toEqual([200, 200, 200]);
  });

  it('reads the fields of a farm as GeoJSON, typed as a FeatureCollection', async () => {
    const geo = createGeoJsonClient({ baseUrl: relay.url, apiKey: user.key });
    const { data, response } = await geo.GET('/api/farms/{b_id_farm}/fields', { params: { path: { b_id_farm: farmId } } });
    expect(response.headers.get('content-type')).toBe('application/geo+json');
    expect(data!.type).toBe('FeatureCollection');
    expect(data!.features.map((feature) => feature.properties.b_id)).toEqual(fieldIds);
    expect(data!.pagination.total).toBe(fieldIds.length);
  });

  it("reads a field's current soil data, typed per parameter", async () => {
    const path = { b_id: fieldIds[1]! };
    const analysis = await akker.POST('/api/fields/{b_id}/soil-analyses', {
      params: { path },
      body: { b_sampling_date: '2025-03-01', a_som_loi: 3.2, b_soiltype_agr: 'zeeklei' },
    });
    expect(analysis.response.status).toBe(201);
    const { data } = await akker.GET('/api/fields/{b_id}/current-soil-data', { params: { path } });
    expect(data!.data.map(({ parameter, value, a_id }) => ({ parameter, value, a_id }))).toEqual([
      { parameter: 'a_som_loi', value: 3.2, a_id: analysis.data!.a_id },
      { parameter: 'b_soiltype_agr', value: 'zeeklei', a_id: analysis.data!.a_id },
    ]);
  });

  it('throws the problem of an error answer while paging', async () => {
    const pages = (page: { limit: number; offset: number }) =>
      akker.GET('/api/farms/{b_id_farm}/fields', { params: { path: { b_id_farm: 'AAAAAAAAAAAAAAAAAAAAAA' }, query: page } });
    const paging = eachItem(pages)[Symbol.asyncIterator]();
    const error = await paging.next().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AkkerError);
    expect((error as AkkerError).status).toBe(404);
    expect((error as AkkerError).problem?.type).toMatch(/\/errors\/not-found$/);
  });

  it('waits out a 429 for as long as Retry-After says, then succeeds', async () => {
    const dose = () => akker.POST('/api/fields/{b_id}/calculations/dose', { params: { path: { b_id: fieldIds[0]! } }, body: {} });
    expect((await dose()).response.status).toBe(200);
    // The window's one calculation now leaves it about a second from now.
    skipped += 59_000;
    exchanges = [];
    const retried = await dose();
    expect(retried.response.status).toBe(200);
    // Sent again at once, it would have been refused again: the limiter's window moves with real time.
    expect(exchanges.map((e) => e.outcome)).toEqual([429, 200]);
  });

  it("pages through an organisation's portfolio norms by next_offset, one calculation request a page", async () => {
    const organisation = await createOrganisation(server, user, 'Adviesbureau');
    const farms = [farmId];
    for (const name of ['Noord', 'Zuid']) {
      const farm = await akker.POST('/api/farms', { body: { b_name_farm: name } });
      farms.push(farm.data!.b_id_farm);
    }
    await makeCalculable(server.app, user.key, fieldIds[0]!);
    for (const farm of farms) await shareWithOrganisation(server, user, farm, organisation, 'advisor');
    // Each page finds the window of one calculation a minute empty again: the limiter's clock moves on a minute.
    skipped += 60_000;
    onResponse = async (status) => {
      if (status === 200) skipped += 60_000;
    };
    exchanges = [];
    try {
      const pages = (page: { limit: number; offset: number }) =>
        akker.POST('/api/organisations/{org_id}/calculations/norms', {
          params: { path: { org_id: organisation }, query: page },
          body: { year: 2025 },
        });
      const rows: string[] = [];
      for await (const row of eachPortfolioRow(pages, 2)) {
        if (!('result' in row)) throw new Error(`farm ${row.b_id_farm} failed: ${row.error.detail}`);
        rows.push(`${row.b_name_farm}: ${row.result.fieldsInTotals.length + row.result.fieldsLeftOut.length} fields`);
      }
      expect(rows).toEqual(['De Hoeve: 5 fields', 'Noord: 0 fields', 'Zuid: 0 fields']);
      // Pages of 2 and 1: the second one's next_offset is null.
      expect(exchanges.map((e) => [e.path, e.outcome])).toEqual([
        [`/api/organisations/${organisation}/calculations/norms`, 200],
        [`/api/organisations/${organisation}/calculations/norms`, 200],
      ]);
    } finally {
      onResponse = async () => {};
    }
  });

  it('resends a GET whose answer was lost', async () => {
    exchanges = [];
    relay.loseNextResponse();
    const farm = await akker.GET('/api/farms/{b_id_farm}', { params: { path: { b_id_farm: farmId } } });
    expect(farm.data?.b_name_farm).toBe('De Hoeve');
    expect(exchanges.map((e) => e.outcome)).toEqual(['network error', 200]);
  });

  it('resends a POST whose answer was lost with the same Idempotency-Key: one field, the first answer', async () => {
    exchanges = [];
    relay.loseNextResponse();
    const created = await akker.POST('/api/farms/{b_id_farm}/fields', {
      params: { path: { b_id_farm: farmId } },
      body: { b_name: 'Na de storing', b_start: '2024-01-01', b_geometry: rectangle(5.2) },
    });
    expect(exchanges.map((e) => e.outcome)).toEqual(['network error', 201]);
    expect(created.response.headers.get('idempotent-replayed')).toBe('true');
    const named: string[] = [];
    const pages = (page: { limit: number; offset: number }) =>
      akker.GET('/api/farms/{b_id_farm}/fields', { params: { path: { b_id_farm: farmId }, query: page } });
    for await (const field of eachItem(pages)) if (field.b_name === 'Na de storing') named.push(field.b_id);
    expect(named).toEqual([created.data!.b_id]);
    fieldIds.push(created.data!.b_id);
  });

  it('resends a POST while the first request under its Idempotency-Key is still at work (409), then gets its answer', async () => {
    const key = 'field-after-timeout';
    const post = () =>
      akker.POST('/api/farms/{b_id_farm}/fields', {
        params: { path: { b_id_farm: farmId }, header: { 'Idempotency-Key': key } },
        body: { b_name: 'Na een time-out', b_start: '2024-01-01', b_geometry: rectangle(5.25) },
      });
    const first = await post();
    expect(first.response.status).toBe(201);
    // The stored answer back to a reservation: as if the first request were still at work, until the client has seen a 409.
    const inProgress = sql`update idempotency_keys set status = null where idempotency_key = ${key}`;
    const answered = sql`update idempotency_keys set status = 201 where idempotency_key = ${key}`;
    await server.database.db.execute(inProgress);
    exchanges = [];
    onResponse = async (status) => {
      if (status === 409) await server.database.db.execute(answered);
    };
    const resent = await post();
    onResponse = async () => {};
    expect(exchanges.map((e) => e.outcome)).toEqual([409, 201]);
    expect(resent.data).toEqual(first.data);
    fieldIds.push(first.data!.b_id);
  });

  it('sends no Idempotency-Key with the one POST that refuses it (key creation), and does not resend it', async () => {
    const created = await akker.POST('/api/keys', { body: { name: 'made by the client' } });
    expect(created.response.status).toBe(201);
    expect(created.data!.key).toMatch(/^akk_/);
    exchanges = [];
    relay.loseNextResponse();
    await expect(akker.POST('/api/keys', { body: { name: 'answer lost' } })).rejects.toThrow();
    expect(exchanges.map((e) => e.outcome)).toEqual(['network error']);
  });

  it('does not resend a PATCH whose answer was lost: it was carried out', async () => {
    exchanges = [];
    relay.loseNextResponse();
    await expect(
      akker.PATCH('/api/farms/{b_id_farm}', { params: { path: { b_id_farm: farmId } }, body: { b_name_farm: 'De Nieuwe Hoeve' } }),
    ).rejects.toThrow();
    expect(exchanges.map((e) => e.outcome)).toEqual(['network error']);
    const farm = await akker.GET('/api/farms/{b_id_farm}', { params: { path: { b_id_farm: farmId } } });
    expect(farm.data?.b_name_farm).toBe('De Nieuwe Hoeve');
  });

  it('syncs a copy of the farm through the change feed (the example script): it ends equal to a fresh read', async () => {
    const copy = await readFarm(akker, farmId);
    expect(Object.keys(copy.records.field).sort()).toEqual([...fieldIds].sort());

    // Creates, updates and a cascading delete, through the client.
    const field = (
      await akker.POST('/api/farms/{b_id_farm}/fields', {
        params: { path: { b_id_farm: farmId } },
        body: { b_name: 'Nieuw perceel', b_start: '2024-01-01', b_geometry: rectangle(5.3) },
      })
    ).data!;
    const cultivation = (
      await akker.POST('/api/fields/{b_id}/cultivations', {
        params: { path: { b_id: field.b_id } },
        body: { b_lu_catalogue: 'nl_265', b_lu_start: '2025-03-01' },
      })
    ).data!;
    await akker.POST('/api/fields/{b_id}/soil-analyses', {
      params: { path: { b_id: field.b_id } },
      body: { b_sampling_date: '2025-01-10', a_som_loi: 3.5 },
    });
    await akker.PATCH('/api/fields/{b_id}', { params: { path: { b_id: fieldIds[1]! } }, body: { b_name: 'Hernoemd' } });
    const doomed = (
      await akker.POST('/api/fields/{b_id}/cultivations', {
        params: { path: { b_id: fieldIds[2]! } },
        body: { b_lu_catalogue: 'nl_265', b_lu_start: '2025-03-01' },
      })
    ).data!;
    expect((await akker.DELETE('/api/fields/{b_id}', { params: { path: { b_id: fieldIds[2]! } } })).response.status).toBe(204);
    await akker.PATCH('/api/farms/{b_id_farm}', { params: { path: { b_id_farm: farmId } }, body: { b_name_farm: 'De Hoeve' } });

    expect(await pullChanges(akker, copy)).toBeGreaterThanOrEqual(6);
    const fresh = await readFarm(akker, farmId);
    expect(copy).toEqual(fresh);
    expect(copy.records.cultivation[cultivation.b_lu]).toBeDefined();
    expect(copy.records.cultivation[doomed.b_lu]).toBeUndefined();
    expect(copy.records.field[fieldIds[2]!]).toBeUndefined();
    expect(await pullChanges(akker, copy)).toBe(0);
  });

  it('reads the farm afresh when the copy is older than the feed keeps (410 cursor-expired)', async () => {
    const copy = await readFarm(akker, farmId);
    await akker.PATCH('/api/fields/{b_id}', { params: { path: { b_id: fieldIds[0]! } }, body: { b_name: 'Na het snoeien' } });
    await server.database.db.execute(sql`update farm_changes set changed_at = now() - interval '91 days' where b_id_farm = ${farmId}`);
    expect(await pruneChanges(server.database.db, 90)).toBeGreaterThan(0);
    await expect(pullChanges(akker, structuredClone(copy))).rejects.toMatchObject({ status: 410 });
    const synced = await syncFarm(akker, farmId, copy);
    expect(synced).toEqual(await readFarm(akker, farmId));
    expect(synced.records.field[fieldIds[0]!]).toMatchObject({ b_name: 'Na het snoeien' });
  });
});
