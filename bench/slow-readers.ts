// `npm run bench:slow-readers`: issue 43's figure. Akker (a child process) on a new embedded database,
// then on a fresh database of BENCH_DATABASE_URL's PostgreSQL server when it takes one, holds a farm
// whose fields have outlines of 10,000 positions, so that its first GeoJSON page is some 4 MiB. Then
// BENCH_SOCKETS raw TCP sockets each send that GET with the API key (once, and in a second case twice
// at once) and never read. Measured, with a fresh Akker for each case: its resident memory (VmRSS of it
// and its children) idle before and at its peak while the sockets hold, against a target of 256 MiB
// added; /health and a farm read asked every 100 ms meanwhile by another client (how many answered, the
// longest wait); and, per socket, how long after the last progress of its answer the server closed it,
// against SEND_TIMEOUT_SECONDS (closed then, late by a busy turn of its event loop: at most
// CLOSE_LATE_MS here) unless the budget of HELD_ANSWERS_MB closed it before. The bytes loopback's
// kernel queues took of the answers (not Akker's memory) are shown beside them.
// Settings: BENCH_SOCKETS (64), BENCH_PIPELINED (1,2: the cases, GETs a socket sends at once),
// BENCH_FIELDS (12), BENCH_SEND_TIMEOUT_SECONDS (5: Akker's SEND_TIMEOUT_SECONDS), HELD_ANSWERS_MB
// (unset: Akker's default, 64), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test),
// LOG_REQUESTS (true).
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { circle } from '../test/helpers/fixtures.js';
import { createFarm, signUpWithKey } from './akker-api.js';
import { freshDatabase, type BenchDatabase } from './postgres.js';
import { startServer } from './processes.js';
import { progress } from './report.js';
import { residentMiB } from './resident.js';
import { envNumber, measuredAkkerEnv } from './settings.js';
import { socketInodes, tcpConnections } from './tcp.js';

const SOCKETS = envNumber('BENCH_SOCKETS', 64);
const FIELDS = envNumber('BENCH_FIELDS', 12);
const SEND_TIMEOUT_SECONDS = envNumber('BENCH_SEND_TIMEOUT_SECONDS', 5);
/**
 * GETs each socket sends at once, one case each. With one, loopback's kernel takes the whole answer
 * (its queues hold some 4 MiB a connection) and Akker holds nothing; the second is held in Akker.
 */
const PIPELINED = (process.env.BENCH_PIPELINED ?? '1,2').split(',').map(Number);
if (PIPELINED.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error('BENCH_PIPELINED must be whole numbers, 1 or more, separated by commas');
const postgresServerUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Issue 43: what the never-reading sockets may add to the server's resident memory. */
const TARGET_ADDED_MIB = 256;
/** How late a close at the send timeout may be: one turn of Akker's event loop, busy making answers (operations.md). */
const CLOSE_LATE_MS = 500;
const ASK_EVERY_MS = 100;
const SAMPLE_EVERY_MS = 50;
/** Before the idle figure: what the set-up left behind settles. */
const SETTLE_MS = 3000;
/** Only ends a run that goes wrong: on a busy machine 64 answers take a while to make. */
const HOLD_DEADLINE_MS = 300_000;
const MiB = 1024 * 1024;

interface Asked {
  answered: number;
  failed: number;
  longestMs: number;
}

/** GETs `url` every ASK_EVERY_MS (or right after the previous answer, when that took longer) until stopped. */
function askEvery(url: string, headers: Record<string, string>): { stop: () => Promise<Asked> } {
  let running = true;
  const asked: Asked = { answered: 0, failed: 0, longestMs: 0 };
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (response.status === 200) asked.answered++;
        else asked.failed++;
      } catch {
        asked.failed++;
      }
      asked.longestMs = Math.max(asked.longestMs, performance.now() - started);
      await delay(Math.max(0, started + ASK_EVERY_MS - performance.now()));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return asked;
    },
  };
}

/** One never-reading socket, as the server and the kernel show it. */
interface Held {
  socket: Socket;
  port: number;
  sentAt: number;
  /** When the first byte of its answer had reached this side. */
  answeredAt?: number;
  /** Bytes of its answer that had left Akker (in the kernel's queues, or read into the socket's buffer here). */
  taken: number;
  /** When `taken` last grew: the answer's last progress towards its client. */
  progressAt?: number;
  /** When the server no longer held its connection. */
  closedAt?: number;
  seenOpen: boolean;
}

interface Figures {
  database: string;
  pipelined: number;
  pageBytes: number;
  features: number;
  idleMiB: number;
  peakMiB: number;
  afterMiB: number;
  kernelPeakMiB: number;
  /** The longest time between two samples: how far off a time of progress or of a close may be. */
  longestGapMs: number;
  health: Asked;
  farmRead: Asked;
  held: Held[];
}

async function measure(database: string, pipelined: number, env: Record<string, string>): Promise<Figures> {
  progress(`${database}: starting Akker`);
  const server = await startServer('src/server.ts', { ...measuredAkkerEnv(env), SEND_TIMEOUT_SECONDS: String(SEND_TIMEOUT_SECONDS) });
  try {
    const { key } = await signUpWithKey(server.url, 'slow-readers');
    const farm = (await createFarm(server.url, key)).b_id_farm;
    progress(`${database}: ${FIELDS} fields of 10,000 positions`);
    for (let i = 0; i < FIELDS; i++) {
      const response = await fetch(`${server.url}/api/farms/${farm}/fields`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ b_name: `Rond ${i}`, b_start: '2020-01-01', b_geometry: circle(10_000, 5.5 + 0.03 * i) }),
      });
      if (response.status !== 201) throw new Error(`POST field answered ${response.status}: ${await response.text()}`);
    }
    const path = `/api/farms/${farm}/fields?limit=200`;
    // Read in full once, so that the code that makes the page is loaded before the idle figure.
    const page = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': key, accept: 'application/geo+json' } });
    if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}`);
    const body = await page.text();
    const features = (JSON.parse(body) as { features: unknown[] }).features.length;
    await delay(SETTLE_MS);
    const idleMiB = residentMiB(server.pid);

    progress(`${database}: ${SOCKETS} sockets ask for the page (${(Buffer.byteLength(body) / MiB).toFixed(1)} MiB) and never read`);
    const health = askEvery(`${server.url}/health`, {});
    const farmRead = askEvery(`${server.url}/api/farms/${farm}`, { 'x-api-key': key });
    const { hostname, port } = new URL(server.url);
    const request = `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-API-Key: ${key}\r\nAccept: application/geo+json\r\n\r\n`;
    const held: Held[] = [];
    for (let i = 0; i < SOCKETS; i++) {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => {}); // a reset, once the server gives up on it
      await once(socket, 'connect');
      socket.pause();
      socket.write(request.repeat(pipelined));
      held.push({ socket, port: socket.localPort!, sentAt: performance.now(), taken: 0, seenOpen: false });
    }
    let peakMiB = idleMiB;
    let kernelPeak = 0;
    let sampledAt = performance.now();
    let longestGapMs = 0;
    const deadline = performance.now() + HOLD_DEADLINE_MS;
    while (held.some((h) => h.closedAt === undefined) && performance.now() < deadline) {
      peakMiB = Math.max(peakMiB, residentMiB(server.pid));
      const now = performance.now();
      longestGapMs = Math.max(longestGapMs, now - sampledAt);
      sampledAt = now;
      const inodes = socketInodes(server.pid);
      const connections = tcpConnections();
      let kernel = 0;
      for (const h of held) {
        if (h.closedAt !== undefined) continue;
        const mine = connections.find((c) => c.localPort === h.port && c.remotePort === Number(port));
        const theirs = connections.find((c) => c.localPort === Number(port) && c.remotePort === h.port && inodes.has(c.inode));
        const inKernel = (mine?.receiveQueue ?? 0) + (theirs?.sendQueue ?? 0);
        kernel += inKernel;
        const taken = inKernel + h.socket.readableLength;
        if (taken > h.taken) {
          h.taken = taken;
          h.answeredAt ??= now;
          h.progressAt = now;
        }
        if (theirs) h.seenOpen = true;
        else if (h.seenOpen || h.answeredAt !== undefined) h.closedAt = now;
      }
      kernelPeak = Math.max(kernelPeak, kernel);
      await delay(SAMPLE_EVERY_MS);
    }
    const [healthAsked, farmAsked] = await Promise.all([health.stop(), farmRead.stop()]);
    for (const { socket } of held) socket.destroy();
    await delay(SETTLE_MS);
    return {
      database,
      pipelined,
      pageBytes: Buffer.byteLength(body),
      features,
      idleMiB,
      peakMiB,
      afterMiB: residentMiB(server.pid),
      kernelPeakMiB: kernelPeak / MiB,
      longestGapMs,
      health: healthAsked,
      farmRead: farmAsked,
      held,
    };
  } finally {
    await server.stop();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
/** Median (min–max) of `values`, each as `format` writes it. */
const range = (values: number[], format = (ms: number) => `${seconds(ms)} s`) => {
  if (values.length === 0) return '–';
  const sorted = [...values].sort((a, b) => a - b);
  return `${format(sorted[Math.floor(sorted.length / 2)]!)} (${format(sorted[0]!)}–${format(sorted.at(-1)!)})`;
};

/** Prints one database's figures; returns whether its targets are met. */
function print(f: Figures): boolean {
  const added = f.peakMiB - f.idleMiB;
  const timeoutMs = SEND_TIMEOUT_SECONDS * 1000;
  const answered = f.held.filter((h) => h.answeredAt !== undefined);
  const closed = f.held.filter((h) => h.closedAt !== undefined);
  const afterProgress = (sockets: Held[]) => sockets.filter((h) => h.progressAt !== undefined).map((h) => h.closedAt! - h.progressAt!);
  // A socket whose answers the kernel took whole held nothing in Akker: its connection follows the keep-alive timeout.
  const takenWhole = closed.filter((h) => h.taken >= f.pipelined * f.pageBytes);
  const heldInAkker = afterProgress(closed.filter((h) => h.taken < f.pipelined * f.pageBytes));
  // Closed before the send timeout: by the budget. The rest by the timeout, within CLOSE_LATE_MS, give or
  // take a sample's gap at either end.
  const error = 2 * f.longestGapMs;
  const byBudget = heldInAkker.filter((ms) => ms < timeoutMs - error);
  const byTimeout = heldInAkker.filter((ms) => ms >= timeoutMs - error);
  const lateMs = timeoutMs + CLOSE_LATE_MS + error;
  const late = byTimeout.filter((ms) => ms > lateMs).length;
  const memoryMet = added <= TARGET_ADDED_MIB;
  const othersMet = f.health.failed === 0 && f.farmRead.failed === 0 && f.health.answered > 0 && f.farmRead.answered > 0;
  const closesMet = closed.length === f.held.length && late === 0;
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  const asked = ({ answered, failed, longestMs }: Asked) => `${answered} answered, ${failed} failed, longest ${longestMs.toFixed(0)} ms`;
  console.log(
    `\n${f.database}: ${f.held.length} sockets, each sending ${f.pipelined} × GET /api/farms/{id}/fields?limit=200 as GeoJSON ` +
      `(${(f.pageBytes / MiB).toFixed(2)} MiB, ${f.features} of ${FIELDS} fields) at once and reading nothing`,
  );
  const row = (label: string, value: string) => console.log(`  ${label.padEnd(52)}${value}`);
  row('resident memory idle before', `${f.idleMiB.toFixed(0)} MiB`);
  row('resident memory at the peak while held', `${f.peakMiB.toFixed(0)} MiB`);
  row('added by the sockets', `${added.toFixed(0)} MiB (target ≤ ${TARGET_ADDED_MIB} MiB: ${verdict(memoryMet)})`);
  row('resident memory after they closed', `${f.afterMiB.toFixed(0)} MiB`);
  row('in the kernel socket queues, at the most', `${f.kernelPeakMiB.toFixed(0)} MiB (not Akker's memory)`);
  row(
    'taken from Akker by the kernel, per socket',
    range(
      f.held.map((h) => h.taken),
      (bytes) => `${(bytes / MiB).toFixed(2)} MiB`,
    ),
  );
  row(`/health, every ${ASK_EVERY_MS} ms meanwhile`, asked(f.health));
  row(`GET /api/farms/{id}, every ${ASK_EVERY_MS} ms meanwhile`, asked(f.farmRead));
  row(
    'first byte at the socket, after its requests',
    `${answered.length} sockets, ${range(answered.map((h) => h.answeredAt! - h.sentAt))}`,
  );
  row(
    'connections closed by the server',
    `${closed.length} of ${f.held.length}; after the last progress of their answers (sampled at most ${f.longestGapMs.toFixed(0)} ms apart):`,
  );
  row('  answers taken whole, closed as idle (keep-alive)', `${takenWhole.length}, ${range(afterProgress(takenWhole))}`);
  row('  before the send timeout (by the budget)', `${byBudget.length}, ${range(byBudget)}`);
  row(
    `  at the send timeout (${SEND_TIMEOUT_SECONDS} s)`,
    `${byTimeout.length}, ${range(byTimeout)}; over ${seconds(lateMs)} s: ${late} (${verdict(closesMet)})`,
  );
  return memoryMet && othersMet && closesMet;
}

/** BENCH_DATABASE_URL's server with a database of this run's, or undefined (saying why) when it takes none. */
async function postgresDatabase(): Promise<BenchDatabase | undefined> {
  try {
    return await freshDatabase(postgresServerUrl, 'akker_bench_slow_readers');
  } catch (error) {
    console.log(`\nPostgreSQL: skipped, ${postgresServerUrl} is not usable: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

console.log(
  `Akker slow-readers benchmark (issue 43): node ${process.version}; SEND_TIMEOUT_SECONDS=${SEND_TIMEOUT_SECONDS}, ` +
    `HELD_ANSWERS_MB=${process.env.HELD_ANSWERS_MB ?? '64 (default)'}; memory and sockets sampled every ${SAMPLE_EVERY_MS} ms; MiB = 1024 × 1024 bytes.`,
);
const results: boolean[] = [];
for (const pipelined of PIPELINED) {
  const dataDir = mkdtempSync(join(tmpdir(), 'akker-bench-slow-readers-'));
  try {
    results.push(print(await measure('Embedded database', pipelined, { DATA_DIR: dataDir, DATABASE_URL: '' })));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const postgres = await postgresDatabase();
if (postgres) {
  try {
    for (const pipelined of PIPELINED) {
      results.push(print(await measure('PostgreSQL', pipelined, { DATABASE_URL: postgres.url })));
    }
  } finally {
    await postgres.drop();
  }
}
console.log(`\nTargets ${results.every(Boolean) ? 'met' : 'NOT met'}.`);
