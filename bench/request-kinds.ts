// The CPU time each kind of request of the mix (`npm run load`) costs, one kind at a time: `npm run
// bench:kinds` (PostgreSQL; BENCH_KIND_REQUESTS requests of each kind, default 1,500, over 16 connections;
// BENCH_KINDS=<name>,<name> only those kinds).
// For each kind, the server's CPU time (its threads included) and all PostgreSQL processes' per request,
// read from /proc before and after: far steadier than requests per second on a shared machine, and the
// place to see what a change does to one kind. BENCH_BEFORE=<another checkout> measures that checkout's
// server too, each build on a database of its own, the builds taking turns kind by kind. The server's
// settings are the load test's (bench/settings.ts): rate limits at their ceiling (the calculations' too: one
// key sends them all), the request log on.
import { join, resolve } from 'node:path';
import { postgresCpu, postgresCpuMsSince, processCpuMs } from './cpu-time.js';
import { freshDatabase, type BenchDatabase } from './postgres.js';
import { startServer, type Server } from './processes.js';
import { progress } from './report.js';
import { envNumber, measuredAkkerEnv, type Build } from './settings.js';
import { HttpClient } from '../scripts/load/http-client.js';

const REQUESTS = envNumber('BENCH_KIND_REQUESTS', 1_500);
const CONNECTIONS = 16;
const serverUrl = process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Kind {
  name: string;
  method: string;
  /** The request's path and body; `n` counts the requests of the kind, for writes that need a new record each time. */
  request: (ids: Ids, n: number) => { path: string; body?: unknown };
  status: number;
}

interface Ids {
  farm: string;
  field: string;
  cultivation: string;
  /** Fields made for the deletes, one for each request. */
  doomed: string[];
}

const square = (n: number) => {
  const lon = 4 + (n % 1000) * 0.001;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [lon, 52],
        [lon + 0.0005, 52],
        [lon + 0.0005, 52.0003],
        [lon, 52.0003],
        [lon, 52],
      ],
    ],
  };
};

/** A calculation of the year 2025, as the mix asks it. */
const calculation = (name: string, path: (ids: Ids) => string): Kind => ({
  name,
  method: 'POST',
  request: (ids) => ({ path: path(ids), body: { start: '2025-01-01', end: '2025-12-31' } }),
  status: 200,
});

const KINDS: Kind[] = [
  { name: 'farm', method: 'GET', request: (ids) => ({ path: `/api/farms/${ids.farm}` }), status: 200 },
  { name: 'farm list', method: 'GET', request: () => ({ path: '/api/farms' }), status: 200 },
  { name: 'field', method: 'GET', request: (ids) => ({ path: `/api/fields/${ids.field}` }), status: 200 },
  { name: 'field list', method: 'GET', request: (ids) => ({ path: `/api/farms/${ids.farm}/fields?limit=20` }), status: 200 },
  { name: 'cultivation list', method: 'GET', request: (ids) => ({ path: `/api/fields/${ids.field}/cultivations` }), status: 200 },
  { name: 'harvest list', method: 'GET', request: (ids) => ({ path: `/api/cultivations/${ids.cultivation}/harvests` }), status: 200 },
  // Before the writes, which add to the field what the calculation reads: in the mix a field has a few of each.
  calculation('field nitrogen balance', (ids) => `/api/fields/${ids.field}/calculations/nitrogen-balance`),
  calculation('field dose', (ids) => `/api/fields/${ids.field}/calculations/dose`),
  calculation('farm nitrogen balance', (ids) => `/api/farms/${ids.farm}/calculations/nitrogen-balance`),
  {
    name: 'update farm',
    method: 'PATCH',
    request: (ids, n) => ({ path: `/api/farms/${ids.farm}`, body: { b_address_farm: `Dorpsstraat ${n}` } }),
    status: 200,
  },
  {
    name: 'add soil analysis',
    method: 'POST',
    request: (ids, n) => ({
      path: `/api/fields/${ids.field}/soil-analyses`,
      body: { a_som_loi: 1 + (n % 50) / 10, b_sampling_date: '2025-02-01' },
    }),
    status: 201,
  },
  {
    name: 'create field',
    method: 'POST',
    request: (ids, n) => ({
      path: `/api/farms/${ids.farm}/fields`,
      body: { b_name: `Field ${n}`, b_geometry: square(n), b_start: '2024-01-01' },
    }),
    status: 201,
  },

  // Last: the deletes leave work for autovacuum, which would be counted to the kind measured next.
  { name: 'delete field', method: 'DELETE', request: (ids, n) => ({ path: `/api/fields/${ids.doomed[n]}` }), status: 204 },
];

/** BENCH_KINDS (names, comma-separated) measures only those. */
const kinds = process.env.BENCH_KINDS ? KINDS.filter((kind) => process.env.BENCH_KINDS!.split(',').includes(kind.name)) : KINDS;

async function expectStatus(client: HttpClient, status: number, ...args: Parameters<HttpClient['send']>) {
  const answer = await client.send(...args);
  if (answer.status !== status) throw new Error(`${args[0]} ${args[1]} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return JSON.parse(answer.body || '{}') as Record<string, string>;
}

/** A user with a key and a farm, a field with a cultivation and its harvest, and fields to delete. */
async function setUp(client: HttpClient): Promise<{ key: string; ids: Ids }> {
  const email = `kinds-${Date.now().toString(36)}@example.org`;
  const signUp = await client.send('POST', '/auth/sign-up', {}, { email, password: 'kinds bench password', name: 'Kinds' });
  if (signUp.status !== 201) throw new Error(`sign-up answered ${signUp.status}`);
  const cookie = (signUp.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
  const { key } = await expectStatus(client, 201, 'POST', '/api/keys', { cookie }, { name: 'kinds' });
  const headers = { 'x-api-key': key! };
  const farm = (await expectStatus(client, 201, 'POST', '/api/farms', headers, { b_name_farm: 'Kinds' })).b_id_farm!;
  const field = (
    await expectStatus(client, 201, 'POST', `/api/farms/${farm}/fields`, headers, {
      b_name: 'Perceel',
      b_geometry: square(0),
      b_start: '2020-01-01',
    })
  ).b_id!;
  const cultivation = (
    await expectStatus(client, 201, 'POST', `/api/fields/${field}/cultivations`, headers, {
      b_lu_catalogue: 'nl_265',
      b_lu_start: '2025-01-01',
    })
  ).b_lu!;
  await expectStatus(client, 201, 'POST', `/api/cultivations/${cultivation}/harvests`, headers, {
    b_lu_harvest_date: '2025-06-01',
    b_lu_yield: 3000,
    b_lu_cp: 170,
  });
  await expectStatus(client, 201, 'POST', `/api/fields/${field}/soil-analyses`, headers, {
    a_som_loi: 3,
    a_clay_mi: 20,
    b_sampling_date: '2025-01-15',
  });
  const doomed: string[] = [];
  for (let n = 0; n < REQUESTS; n++) {
    doomed.push(
      (
        await expectStatus(client, 201, 'POST', `/api/farms/${farm}/fields`, headers, {
          b_name: `Doomed ${n}`,
          b_geometry: square(n),
          b_start: '2024-01-01',
        })
      ).b_id!,
    );
  }
  return { key: key!, ids: { farm, field, cultivation, doomed } };
}

interface Side {
  build: Build;
  database: BenchDatabase;
  server?: Server;
  client?: HttpClient;
  key?: string;
  ids?: Ids;
  cpu: Map<string, { serverUs: number; databaseUs: number }>;
}

/** `REQUESTS` of one kind over CONNECTIONS connections; the CPU time per request of the server and of PostgreSQL. */
async function measure(side: Side, kind: Kind): Promise<void> {
  const client = side.client!;
  const headers = { 'x-api-key': side.key! };
  let next = 0;
  const one = async () => {
    for (let n = next++; n < REQUESTS; n = next++) {
      const { path, body } = kind.request(side.ids!, n);
      const answer = await client.send(kind.method, path, headers, body);
      if (answer.status !== kind.status) throw new Error(`${kind.name}: ${answer.status} ${answer.body.slice(0, 200)}`);
    }
  };
  const before = { server: processCpuMs(side.server!.pid), database: postgresCpu() };
  await Promise.all(Array.from({ length: CONNECTIONS }, one));
  const perRequestUs = (ms: number) => Math.round((ms * 1000) / REQUESTS);
  side.cpu.set(kind.name, {
    serverUs: perRequestUs(processCpuMs(side.server!.pid) - before.server),
    databaseUs: perRequestUs(postgresCpuMsSince(before.database)),
  });
}

const builds: Build[] = [
  ...(process.env.BENCH_BEFORE ? [{ label: 'before', script: join(resolve(process.env.BENCH_BEFORE), 'src/server.ts') }] : []),
  { label: process.env.BENCH_BEFORE ? 'after' : 'Akker', script: 'src/server.ts' },
];
console.log(
  `CPU time per request, each kind of the load test's requests alone: ${REQUESTS} requests over ${CONNECTIONS} connections, on PostgreSQL; ` +
    builds.map(({ label, script }) => `${label}: ${script}`).join('; '),
);
const sides: Side[] = [];
try {
  for (const build of builds) {
    const database = await freshDatabase(serverUrl, 'akker_kinds');
    const server = await startServer(build.script, {
      ...measuredAkkerEnv({ DATABASE_URL: database.url }),
      SIGNUP_LIMIT_PER_HOUR: '0',
      RATE_LIMIT_CALCULATION: '1000000',
    });
    progress(`${build.label}: setting up`);
    // A connection a request: none reused that the server is closing as idle meanwhile.
    const setUpClient = new HttpClient(server.url, CONNECTIONS, false);
    const made = await setUp(setUpClient).finally(() => setUpClient.close());
    sides.push({ build, database, server, client: new HttpClient(server.url, CONNECTIONS), ...made, cpu: new Map() });
  }
  for (const kind of kinds) {
    for (const side of sides) {
      progress(`${side.build.label}: ${kind.name}`);
      // A first pass warms the code up; the second is measured (the deletes have one field each to remove).
      if (kind.name !== 'delete field') await measure(side, kind);
      await measure(side, kind);
    }
  }
  const header = ['request'.padEnd(24), ...sides.map((side) => `${side.build.label} server / PostgreSQL µs`.padStart(34))];
  if (sides.length === 2) header.push('after ÷ before, server / PostgreSQL / both'.padStart(44));
  console.log(header.join(''));
  for (const kind of kinds) {
    const cells = sides.map((side) => side.cpu.get(kind.name)!);
    const line = [kind.name.padEnd(24), ...cells.map(({ serverUs, databaseUs }) => `${serverUs} / ${databaseUs}`.padStart(34))];
    if (cells.length === 2) {
      const [b, a] = cells as [{ serverUs: number; databaseUs: number }, { serverUs: number; databaseUs: number }];
      const ratio = (x: number, y: number) => (y === 0 ? '–' : (x / y).toFixed(2));
      line.push(
        `${ratio(a.serverUs, b.serverUs)} / ${ratio(a.databaseUs, b.databaseUs)} / ${ratio(a.serverUs + a.databaseUs, b.serverUs + b.databaseUs)}`.padStart(
          44,
        ),
      );
    }
    console.log(line.join(''));
  }
} finally {
  for (const side of sides) {
    side.client?.close();
    await side.server?.stop();
    await side.database.drop();
  }
}
