// npm run bench:portfolio: the portfolio norms and nitrogen balance of an organisation of 100 farms × 20 fields
// (each field with 2 cultivations, 4 applications and 1 soil analysis, as in bench:norms), on the embedded
// database and on PostgreSQL (BENCH_DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/postgres;
// BENCH_POSTGRES=false leaves it out), against the real server process. In the same run, round after round:
// the page of 100 farms, and the same 100 farm requests one after the other. Also the answer's size, the
// server's resident memory above idle while it runs, and the longest wait for /health meanwhile.
// Targets (issue 40): p50 ≤ 1.5 s, ≤ 0.5 × the 100 farm requests, < 1 MB, ≤ 100 MB above idle, /health ≤ 200 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { openPostgres, pgliteHandle, type DatabaseHandle } from '../src/db/client.js';
import { pollHealth } from './health-poll.js';
import { percentile, startInProcess } from './in-process.js';
import { freshDatabase } from './postgres.js';
import { seedPortfolio } from './portfolio-farms.js';
import { startServer } from './processes.js';
import { residentMiB } from './resident.js';

const FARMS = Number(process.env.BENCH_FARMS ?? 100);
const FIELDS = Number(process.env.BENCH_FIELDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const IDLE_SETTLE_MS = 2000;
const RAISED = { RATE_LIMIT_GENERAL: '1000000', RATE_LIMIT_WRITE: '1000000', RATE_LIMIT_CALCULATION: '1000000' };

const CALCULATIONS = [
  { path: 'norms', body: { year: 2025 } },
  { path: 'nitrogen-balance', body: { start: '2025-01-01', end: '2025-12-31' } },
] as const;

interface Figures {
  storage: string;
  calculation: string;
  pageP50: number;
  farmsP50: number;
  /** The page's time ÷ the 100 farm requests', per round. */
  ratios: number[];
  bytes: number;
}

async function post(url: string, key: string, path: string, body: unknown): Promise<string> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${text.slice(0, 500)}`);
  return text;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Seeds the farms and the organisation on `database` through an in-process app, then closes it. */
async function prepare(database: DatabaseHandle) {
  const bench = await startInProcess({ LOG_REQUESTS: 'false' }, database);
  try {
    return { key: bench.key, ...(await seedPortfolio(bench, FARMS, FIELDS)) };
  } finally {
    await bench.close();
  }
}

/** Samples the server's resident memory every 50 ms and polls /health, from now until `stop`. */
function watch(server: { url: string; pid: number }) {
  let peak = residentMiB(server.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, residentMiB(server.pid))), 50);
  const health = pollHealth(server.url);
  return {
    stop: async () => {
      clearInterval(sampler);
      return { peak: Math.max(peak, residentMiB(server.pid)), longestHealth: await health.stop() };
    },
  };
}

async function measure(storage: string, env: Record<string, string>, seeded: { key: string; organisation: string; farmIds: string[] }) {
  const server = await startServer('src/server.ts', {
    PORT: '0',
    LOG_REQUESTS: 'false',
    DATABASE_URL: '',
    REDIS_URL: '',
    ...RAISED,
    ...env,
  });
  const figures: Figures[] = [];
  try {
    await delay(IDLE_SETTLE_MS);
    const idle = residentMiB(server.pid);
    const requests = CALCULATIONS.map(({ path, body }) => ({
      path,
      page: () => post(server.url, seeded.key, `/api/organisations/${seeded.organisation}/calculations/${path}?limit=${FARMS}`, body),
      farms: async () => {
        for (const farm of seeded.farmIds) await post(server.url, seeded.key, `/api/farms/${farm}/calculations/${path}`, body);
      },
    }));
    // First the pages alone: their time, and what the server holds and how /health fares while they run.
    const pagesAlone = watch(server);
    const pageTimes = new Map<string, number[]>();
    const bytes = new Map<string, number>();
    for (const { path, page } of requests) {
      const text = await page();
      const answer = JSON.parse(text) as { data: Array<{ error?: unknown }>; pagination: { next_offset: number | null } };
      if (answer.data.length !== FARMS || answer.data.some((row) => row.error) || answer.pagination.next_offset !== null)
        throw new Error(`unexpected page: ${answer.data.length} rows, next_offset ${answer.pagination.next_offset}`);
      bytes.set(path, Buffer.byteLength(text));
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) times.push(await timed(page));
      pageTimes.set(path, times);
    }
    const whilePages = await pagesAlone.stop();
    // Then, round after round, the page and the same farms one request after the other.
    const overall = watch(server);
    for (const { path, page, farms } of requests) {
      await farms();
      const farmTimes: number[] = [];
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const p = await timed(page);
        const f = await timed(farms);
        pageTimes.get(path)!.push(p);
        farmTimes.push(f);
        ratios.push(p / f);
      }
      const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
      figures.push({
        storage,
        calculation: path,
        pageP50: percentile(sorted(pageTimes.get(path)!), 50),
        farmsP50: percentile(sorted(farmTimes), 50),
        ratios,
        bytes: bytes.get(path)!,
      });
    }
    return { figures, idle, whilePages, overall: await overall.stop() };
  } finally {
    await server.stop();
  }
}

const results: Array<Awaited<ReturnType<typeof measure>>> = [];
const dataDir = mkdtempSync(join(tmpdir(), 'akker-bench-portfolio-'));
try {
  const embedded = pgliteHandle(await PGlite.create({ dataDir: join(dataDir, 'pgdata') }));
  results.push(await measure('embedded', { DATA_DIR: dataDir }, await prepare(embedded)));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
if (process.env.BENCH_POSTGRES !== 'false') {
  const postgres = await freshDatabase(
    process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    'akker_bench_portfolio',
  );
  try {
    const seeded = await prepare(await openPostgres(postgres.url, 2));
    results.push(await measure('PostgreSQL', { DATABASE_URL: postgres.url }, seeded));
  } finally {
    await postgres.drop();
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `\n${FARMS} farms × ${FIELDS} fields, ${ROUNDS} rounds of (the page of ${FARMS} farms, then the ${FARMS} farm requests one after the other)`,
);
console.log(
  `${'storage'.padEnd(12)}${'calculation'.padEnd(18)}${'page p50'.padStart(10)}${'farms p50'.padStart(11)}${'ratio p50'.padStart(11)}${'answer'.padStart(10)}`,
);
for (const { figures } of results) {
  for (const f of figures) {
    const ratio = percentile(
      [...f.ratios].sort((a, b) => a - b),
      50,
    );
    console.log(
      `${f.storage.padEnd(12)}${f.calculation.padEnd(18)}${s(f.pageP50).padStart(10)}${s(f.farmsP50).padStart(11)}${ratio.toFixed(2).padStart(11)}${`${(f.bytes / 1024).toFixed(0)} KiB`.padStart(10)}` +
        `  p50 ≤ 1.5 s: ${f.pageP50 <= 1500 ? 'met' : 'NOT met'}; ratio ≤ 0.5: ${ratio <= 0.5 ? 'met' : 'NOT met'}; < 1 MB: ${f.bytes < 1_000_000 ? 'met' : 'NOT met'}`,
    );
  }
}
for (const r of results) {
  const above = r.whilePages.peak - r.idle;
  console.log(
    `${r.figures[0]!.storage}: server RSS idle ${r.idle.toFixed(0)} MiB; while the pages run alone, peak ${r.whilePages.peak.toFixed(0)} MiB (+${above.toFixed(0)} MiB; ≤ 100: ${above <= 100 ? 'met' : 'NOT met'}), longest /health ${r.whilePages.longestHealth.toFixed(0)} ms (≤ 200: ${r.whilePages.longestHealth <= 200 ? 'met' : 'NOT met'}); ` +
      `with the farm requests too, peak ${r.overall.peak.toFixed(0)} MiB, longest /health ${r.overall.longestHealth.toFixed(0)} ms`,
  );
}
