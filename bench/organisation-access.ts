// Access through an organisation against the same access held directly, in one run, on PGlite and on
// PostgreSQL: `GET /api/farms` and a farm read for a member whose 1,000 farms come through an organisation,
// and for a user holding the same 1,000 roles (advisor) themselves. The two take turns, slice by slice, on
// one server, so a slow patch of the shared machine falls on both alike. Prints each ratio (direct ÷ through
// the organisation, in requests/s) against the bound of 1.1, and exits 1 past it.
// Settings: BENCH_WARMUP_SECONDS (3), BENCH_SLICES (6), BENCH_SLICE_SECONDS (3), BENCH_DATABASE_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, type DatabaseHandle } from '../src/db/client.js';
import { createFarm, signUpWithKey, type Account } from './akker-api.js';
import { atExit } from './cleanup.js';
import { sample, summarize, type Sample, type Target } from './load.js';
import { freshDatabase } from './postgres.js';
import { startServer } from './processes.js';
import { analyze, insertFarms } from './seed.js';
import { envNumber, measuredAkkerEnv } from './settings.js';

const FARMS = 1_000;
const CONNECTIONS = 8;
const MAX_RATIO = 1.1;
const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 3);
const SLICES = Math.max(1, Math.round(envNumber('BENCH_SLICES', 6)));
const SLICE_SECONDS = envNumber('BENCH_SLICE_SECONDS', 3);
const postgresServerUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The owner's other farms in bulk, each given to `direct` as advisor and shared with the organisation as advisor; returns the farm both read. */
async function share(open: () => Promise<DatabaseHandle>, owner: Account, direct: Account, organisationId: string): Promise<string> {
  const database = await open();
  try {
    await insertFarms(database, owner.userId, FARMS - 1);
    await database.db.execute(sql`
      insert into farm_access (b_id_farm, user_id, role, farm_created_at)
      select b_id_farm, ${direct.userId}, 'advisor', farm_created_at from farm_access where user_id = ${owner.userId}`);
    await database.db.execute(sql`
      insert into organisation_farm_access (b_id_farm, organisation_id, role, farm_created_at)
      select b_id_farm, ${organisationId}, 'advisor', farm_created_at from farm_access where user_id = ${owner.userId}`);
    await analyze(database);
    const rows = await database.db.execute(sql`
      select b_id_farm from farm_access where user_id = ${owner.userId} order by farm_created_at offset ${FARMS / 2} limit 1`);
    return (rows.rows[0] as { b_id_farm: string }).b_id_farm;
  } finally {
    await database.close();
  }
}

/** Direct and through the organisation take turns, slice by slice, the first alternating; requests/s of each. */
async function compare(name: string, direct: Target, member: Target): Promise<{ direct: number; member: number }> {
  const sides = [direct, member];
  for (const target of sides) await sample(name, target, CONNECTIONS, WARMUP_SECONDS);
  const taken: [Sample[], Sample[]] = [[], []];
  for (let slice = 0; slice < SLICES; slice++) {
    for (const index of slice % 2 === 0 ? [0, 1] : [1, 0])
      taken[index]!.push(await sample(name, sides[index]!, CONNECTIONS, SLICE_SECONDS, 0.5));
  }
  return { direct: summarize(taken[0]).requestsPerSecond, member: summarize(taken[1]).requestsPerSecond };
}

/** Checks that both see the same 1,000 farms, then measures the list and the read. Returns whether both ratios held. */
async function bench(title: string, env: Record<string, string>, open: () => Promise<DatabaseHandle>): Promise<boolean> {
  // Seeded through one server (users, keys, the organisation, the first farm), the other farms in bulk once it stopped.
  const setup = await startServer('src/server.ts', measuredAkkerEnv(env));
  let people: { owner: Account; direct: Account; member: Account; organisation: string };
  try {
    const [owner, direct, member] = [
      await signUpWithKey(setup.url, 'owner'),
      await signUpWithKey(setup.url, 'direct'),
      await signUpWithKey(setup.url, 'member'),
    ];
    people = { owner, direct, member, organisation: await organisationOf(setup.url, owner, member) };
    await createFarm(setup.url, owner.key);
  } finally {
    await setup.stop();
  }
  const farmId = await share(open, people.owner, people.direct, people.organisation);
  const server = await startServer('src/server.ts', measuredAkkerEnv(env));
  try {
    const as = (account: Account, path: string): Target => ({ url: `${server.url}${path}`, headers: { 'x-api-key': account.key } });
    for (const account of [people.direct, people.member]) {
      const page = (await (await fetch(as(account, '/api/farms?limit=1').url, { headers: as(account, '').headers })).json()) as {
        pagination: { total: number };
        data: Array<{ role: string }>;
      };
      if (page.pagination.total !== FARMS || page.data[0]?.role !== 'advisor') throw new Error(`${title}: ${JSON.stringify(page)}`);
    }
    const list = await compare(`${title} list`, as(people.direct, '/api/farms?limit=50'), as(people.member, '/api/farms?limit=50'));
    const read = await compare(`${title} read`, as(people.direct, `/api/farms/${farmId}`), as(people.member, `/api/farms/${farmId}`));
    let ok = true;
    console.log(
      `\n${title}: ${FARMS.toLocaleString('en-US')} farms, ${CONNECTIONS} connections, ${SLICES} slices of ${SLICE_SECONDS} s each`,
    );
    for (const [what, figures] of [
      ['GET /api/farms?limit=50', list],
      ['GET /api/farms/{b_id_farm}', read],
    ] as const) {
      const ratio = figures.direct / figures.member;
      ok &&= ratio <= MAX_RATIO;
      console.log(
        `  ${what.padEnd(28)} direct ${Math.round(figures.direct)} req/s, through the organisation ${Math.round(figures.member)} req/s: ` +
          `${ratio.toFixed(3)} × (bound ${MAX_RATIO}) ${ratio <= MAX_RATIO ? 'ok' : 'OVER'}`,
      );
    }
    return ok;
  } finally {
    await server.stop();
  }
}

async function organisationOf(url: string, owner: Account, member: Account): Promise<string> {
  const send = async (method: string, path: string, body: unknown, status: number) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-api-key': owner.key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== status) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const org = await send('POST', '/api/organisations', { name: 'Bench Advies' }, 201);
  await send('PUT', `/api/organisations/${org.id}/members`, { email: member.email, role: 'member' }, 200);
  return org.id;
}

const folder = mkdtempSync(join(tmpdir(), 'akker-bench-orgs-'));
atExit(() => rmSync(folder, { recursive: true, force: true }));
let ok = await bench('Embedded (PGlite)', { DATA_DIR: join(folder, 'data'), DATABASE_URL: '' }, () => openPglite(join(folder, 'data')));
const postgres = await freshDatabase(postgresServerUrl, 'akker_bench_orgs');
try {
  ok = (await bench('PostgreSQL', { DATABASE_URL: postgres.url }, () => openPostgres(postgres.url))) && ok;
} finally {
  await postgres.drop();
}
process.exitCode = ok ? 0 : 1;
