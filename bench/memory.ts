// npm run bench:memory: the built server's resident memory and start-up time, as an operator meets
// them. Builds dist/ when it is missing, then starts `node dist/server.js` on (1) a new embedded
// DATA_DIR, (2) the same again (a restart), (3) a fresh PostgreSQL database (DATABASE_URL's server, or
// postgres://postgres@127.0.0.1:5432/postgres; created and dropped here). Samples VmRSS of the server
// and its children from /proc: the peak during start-up, idle, and after a few hundred mixed requests.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { projectRoot } from './processes.js';
import { residentMiB } from './resident.js';

const IDLE_SETTLE_MS = 3000;
const REQUESTS = 400;

interface Figures {
  case: string;
  readyS: number;
  startPeakMiB: number;
  idleMiB: number;
  afterLoadMiB: number;
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /"url":"([^"]+)"/.exec(line);
      if (match && line.includes('Akker is listening')) resolve(match[1]!);
    });
  });
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

/** Sign-ups, keys made with the cookie, farms and fields written, and reads: `REQUESTS` in all. */
async function mixedLoad(url: string): Promise<void> {
  let sent = 0;
  const polygon = {
    type: 'Polygon',
    coordinates: [
      [
        [5.1, 52.1],
        [5.11, 52.1],
        [5.11, 52.11],
        [5.1, 52.11],
        [5.1, 52.1],
      ],
    ],
  };
  while (sent < REQUESTS) {
    const email = `bench-${randomBytes(6).toString('hex')}@example.org`;
    const signUp = await fetch(`${url}/auth/sign-up`, json({ email, password: 'bench password', name: 'Bench' }));
    const cookie = signUp.headers.get('set-cookie')!.split(';')[0]!;
    const { key } = (await (await fetch(`${url}/api/keys`, json({ name: 'bench' }, { cookie }))).json()) as { key: string };
    sent += 2;
    const headers = { 'x-api-key': key };
    for (let f = 0; f < 4; f++) {
      const farm = (await (await fetch(`${url}/api/farms`, json({ b_name_farm: `Bench ${f}` }, headers))).json()) as { b_id_farm: string };
      const field = await fetch(
        `${url}/api/farms/${farm.b_id_farm}/fields`,
        json({ b_name: 'Akker', b_geometry: polygon, b_start: '2024-01-01' }, headers),
      );
      await field.arrayBuffer();
      sent += 2;
      const reads = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          fetch(`${url}/api/farms${i % 2 === 0 ? '' : `/${farm.b_id_farm}`}`, { headers }).then((r) => r.arrayBuffer()),
        ),
      );
      sent += reads.length;
    }
  }
}

async function measure(name: string, env: Record<string, string>): Promise<Figures> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: projectRoot,
    env: { ...process.env, PORT: '0', LOG_REQUESTS: 'false', DATABASE_URL: '', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, residentMiB(child.pid!))), 50);
  try {
    const url = await listening(child);
    const readyS = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const startPeakMiB = Math.max(peak, residentMiB(child.pid!));
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    const idleMiB = residentMiB(child.pid!);
    await mixedLoad(url);
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    return { case: name, readyS, startPeakMiB, idleMiB, afterLoadMiB: residentMiB(child.pid!) };
  } finally {
    clearInterval(sampler);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

async function withPostgresDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const server = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `akker_bench_memory_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(server);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (!existsSync(join(projectRoot, 'dist/server.js'))) execFileSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit' });
const dataDir = mkdtempSync(join(tmpdir(), 'akker-bench-memory-'));
const results: Figures[] = [];
try {
  results.push(await measure('embedded, first start', { DATA_DIR: dataDir }));
  results.push(await measure('embedded, restart', { DATA_DIR: dataDir }));
  results.push(await withPostgresDatabase((url) => measure('PostgreSQL', { DATABASE_URL: url })));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
const mib = (value: number) => `${Math.round(value)} MiB`.padStart(9);
console.log(`\n${'case'.padEnd(24)}${'ready'.padStart(8)}${'start peak'.padStart(12)}${'idle'.padStart(10)}${'after load'.padStart(12)}`);
for (const r of results) {
  console.log(
    `${r.case.padEnd(24)}${`${r.readyS.toFixed(1)} s`.padStart(8)}${mib(r.startPeakMiB).padStart(12)}${mib(r.idleMiB).padStart(10)}${mib(r.afterLoadMiB).padStart(12)}`,
  );
}
console.log(`(after load: ${REQUESTS} mixed requests: sign-ups, keys made with the session cookie, farms and fields written, reads)`);
