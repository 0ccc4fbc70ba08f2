// Clients that ask for large answers and never read them. In a server process (measured through Linux's
// /proc: its VmRSS, and the sockets it holds) resident memory stays bounded and their connections are
// closed once SEND_TIMEOUT_SECONDS pass without progress. In the app's Node server itself: the answers
// held for all such connections together stay within HELD_ANSWERS_MB while clients that read are
// answered, and a connection whose answer makes no progress is closed by the send timeout.
// Before the bounds, each socket held its whole answers (15 MB each here) for as long as it stayed open,
// which was forever; with a bound per connection only, 64 sockets added some 750 MB. With the budget
// but each answer handed to Node as one string (for the socket, a UTF-8 copy of up to three bytes a
// character), the 16 sockets here added 58 and 92 MB beyond what as many readers took; written as one
// Buffer in pieces, nothing.
import { existsSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppServer } from '../../src/app/node-server.js';
import { templateDataDir } from '../helpers/databases.js';
import { circle } from '../helpers/fixtures.js';
import { killLeftoverServers, signUpOver, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { residentMiB } from '../../bench/resident.js';
import { socketInodes, tcpConnections } from '../../bench/tcp.js';

/** Fields of 10,000 positions (~380 KB of GeoJSON each): one list of 200 would be some 15 MB. */
const FIELDS = 40;
const SOCKETS = 16;
/** GETs each socket sends at once, before reading anything (it never does). */
const PIPELINED = 2;
const SEND_TIMEOUT_SECONDS = 2;
/** Resident memory the never-reading sockets may add to the server, all together, beyond what readers take. */
const RSS_GROWTH_BOUND_MB = 40;
/** Only ends a test that fails: on a busy machine a server process takes long to start and to make its answers. */
const DEADLINE_MS = 240_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The ports of the TCP peers of the sockets process `pid` holds open. */
function peerPorts(pid: number): Set<number> {
  const inodes = socketInodes(pid);
  return new Set(tcpConnections().flatMap(({ inode, remotePort }) => (inodes.has(inode) ? [remotePort] : [])));
}

let dataDir: string;
let server: ServerProcess;
let key: string;
let farm: string;

async function post(path: string, body: unknown): Promise<Record<string, string>> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Record<string, string>;
}

beforeAll(async () => {
  dataDir = await templateDataDir('akker-slow-readers-');
  // One large field through the API, then copies of it straight into the stopped server's database:
  // sixty POSTs would cost the test seconds of geometry checks.
  server = await startServerProcess({ DATA_DIR: dataDir });
  key = await signUpOver(server.url, 'slow-readers@example.org');
  farm = (await post('/api/farms', { b_name_farm: 'Grote percelen' })).b_id_farm!;
  await post(`/api/farms/${farm}/fields`, { b_name: 'Rond', b_start: '2020-01-01', b_geometry: circle(10_000) });
  server.kill('SIGTERM');
  await server.exited;
  const database = await PGlite.create({ dataDir: join(dataDir, 'pgdata') });
  await database.exec(`
    create temp table copies as select fields.*, n from fields, generate_series(2, ${FIELDS}) as n;
    update copies set b_id = b_id || '-' || n;
    alter table copies drop column n;
    insert into fields select * from copies;`);
  await database.close();
  server = await startServerProcess({ DATA_DIR: dataDir, SEND_TIMEOUT_SECONDS: String(SEND_TIMEOUT_SECONDS), LOG_REQUESTS: 'false' });
}, DEADLINE_MS);
afterAll(() => {
  killLeftoverServers();
  rmSync(dataDir, { recursive: true, force: true });
});

it.runIf(existsSync('/proc/self/status'))(
  'holds a bounded amount of memory for sockets that never read, and closes them after SEND_TIMEOUT_SECONDS',
  async () => {
    const path = `/api/farms/${farm}/fields?limit=200`;
    const headers = { 'x-api-key': key, accept: 'application/geo+json' };
    // Read in full by as many clients, all at once, as the sockets below send GETs: what making and sending
    // the pages costs by itself is in the baseline, the most the server took meanwhile.
    const warmUp = async () => {
      const response = await fetch(`${server.url}${path}`, { headers });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    };
    let warm = false;
    const warmedUp = Promise.all(Array.from({ length: SOCKETS * PIPELINED }, warmUp));
    const done = () => (warm = true);
    warmedUp.then(done, done);
    let baseline = residentMiB(server.pid);
    while (!warm) {
      baseline = Math.max(baseline, residentMiB(server.pid));
      await sleep(100);
    }
    await warmedUp;

    const { hostname, port } = new URL(server.url);
    const request = `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nX-API-Key: ${key}\r\nAccept: application/geo+json\r\n\r\n`;
    const sockets: Socket[] = [];
    for (let i = 0; i < SOCKETS; i++) {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => {}); // a reset, once the server gives up on it
      await once(socket, 'connect');
      socket.pause();
      socket.write(request.repeat(PIPELINED));
      sockets.push(socket);
    }
    const ports = sockets.map((socket) => socket.localPort!);
    const stillOpen = () => [...peerPorts(server.pid)].filter((peer) => ports.includes(peer)).length;
    // Accepted by the server: its sockets to them are what the polling below looks for.
    const deadline = Date.now() + DEADLINE_MS;
    while (stillOpen() < SOCKETS && Date.now() < deadline) await sleep(10);

    // Poll until the server has closed every one of them.
    let peak = baseline;
    while (stillOpen() > 0 && Date.now() < deadline) {
      peak = Math.max(peak, residentMiB(server.pid));
      await sleep(100);
    }
    const open = stillOpen();
    const growth = peak - baseline;
    console.log(
      `resident memory: ${baseline.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB (+${growth.toFixed(0)} MB); ${open} sockets open`,
    );
    for (const socket of sockets) socket.destroy();
    expect(growth).toBeLessThan(RSS_GROWTH_BOUND_MB);
    expect(open).toBe(0);
  },
  2 * DEADLINE_MS,
);

it(
  'closes a connection whose answer makes no progress once the send timeout has passed, its answer cut short',
  async () => {
    const answer = 'x'.repeat(32 * 1024 * 1024);
    const server = createAppServer(() => new Response(answer), {
      errorsUrl: 'http://127.0.0.1/errors',
      sendTimeoutSeconds: 2,
      heldAnswersBytes: 1024 * 1024 * 1024,
    });
    let closedByServer = false;
    server.once('connection', (socket) => socket.once('close', () => (closedByServer = true)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    try {
      socket.on('error', () => {}); // a reset, once the server gives up on it
      await once(socket, 'connect');
      socket.pause();
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.byteLength));
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      // The client never reads while it waits; the deadline only ends a test that fails.
      await until(() => closedByServer);
      expect(closedByServer).toBe(true);
      // Read now what reached this side before the close: never the whole answer.
      socket.resume();
      if (!socket.destroyed) await once(socket, 'close');
      expect(received).toBeLessThan(answer.length);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      server.close();
    }
  },
  2 * DEADLINE_MS,
);

/** Until `done` holds; the deadline only ends a test that fails. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!done() && Date.now() < deadline) await sleep(20);
}

it(
  'holds the answers of all connections that do not read within one budget, and answers a client that reads in full',
  async () => {
    const answerBytes = 8 * 1024 * 1024;
    const budget = 64 * 1024 * 1024;
    const answer = 'x'.repeat(answerBytes);
    let answered = 0;
    const server = createAppServer(
      () => {
        answered++;
        return new Response(answer);
      },
      // A send timeout far away: only the budget closes connections here.
      { errorsUrl: 'http://127.0.0.1/errors', sendTimeoutSeconds: 3600, heldAnswersBytes: budget },
    );
    let open = 0;
    server.on('connection', (socket) => {
      open++;
      socket.once('close', () => open--);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 64; i++) {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => {});
        await once(socket, 'connect');
        socket.pause();
        socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        sockets.push(socket);
      }
      await until(() => answered === 64);
      // Each answer counts whole until its last piece has left, as its body stays in memory till then.
      await until(() => open <= budget / answerBytes);
      expect(answered).toBe(64);
      expect(open).toBeLessThanOrEqual(budget / answerBytes);
      expect(open).toBeGreaterThan(0);
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBe(answerBytes);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      server.close();
    }
  },
  2 * DEADLINE_MS,
);

/** A server of `createAppServer` answering every request with `answer`, listening on a free port. */
async function answering(answer: string, sendTimeoutSeconds: number, answered = () => {}) {
  const app = () => {
    answered();
    return new Response(answer);
  };
  const server = createAppServer(app, {
    errorsUrl: 'http://127.0.0.1/errors',
    sendTimeoutSeconds,
    heldAnswersBytes: 1024 * 1024 * 1024,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

it(
  'closes a connection whose answer makes no progress at the send timeout, late by about one turn of a busy event loop at most',
  async () => {
    const sendTimeoutSeconds = 2;
    let handedOverAt = 0;
    let closedAt = 0;
    // The app's answer, handed to Node at once: what the operating system takes of it then is its only progress.
    const { server, port } = await answering('x'.repeat(32 * 1024 * 1024), sendTimeoutSeconds, () => (handedOverAt = performance.now()));
    server.once('connection', (socket) => socket.once('close', () => (closedAt = performance.now())));
    // The event loop busy for BUSY_MS in every turn of BUSY_MS + 10: each timer fires up to BUSY_MS late.
    const BUSY_MS = 150;
    const busy = setInterval(() => {
      const until = performance.now() + BUSY_MS;
      while (performance.now() < until);
    }, 10);
    const socket = connect(port, '127.0.0.1');
    try {
      socket.on('error', () => {});
      await once(socket, 'connect');
      socket.pause();
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      // Long enough for the old close, which counted ten periods and started again whenever a timer fired late.
      const deadline = performance.now() + 30_000;
      while (closedAt === 0 && performance.now() < deadline) await sleep(20);
      clearInterval(busy);
      expect(handedOverAt).toBeGreaterThan(0);
      expect(closedAt).toBeGreaterThan(0);
      const afterMs = closedAt - handedOverAt;
      expect(afterMs).toBeGreaterThanOrEqual(sendTimeoutSeconds * 1000);
      // A timer may fire one busy turn late; a bound that added up over ten periods would not hold.
      expect(afterMs).toBeLessThan(sendTimeoutSeconds * 1000 + 4 * BUSY_MS + 500);
    } finally {
      clearInterval(busy);
      socket.destroy();
      server.closeAllConnections();
      server.close();
    }
  },
  2 * DEADLINE_MS,
);

it(
  'does not cut off a client that reads a large answer slowly but steadily, however long the whole takes',
  async () => {
    const sendTimeoutSeconds = 1;
    const answer = 'x'.repeat(32 * 1024 * 1024);
    const { server, port } = await answering(answer, sendTimeoutSeconds);
    const socket = connect(port, '127.0.0.1');
    let received = 0;
    const reading = setInterval(() => {
      // 128 KiB every 20 ms or so: what is left after the operating system's queues takes seconds.
      for (let taken = 0, chunk: Buffer | null; taken < 128 * 1024 && (chunk = socket.read() as Buffer | null) !== null;) {
        taken += chunk.byteLength;
        received += chunk.byteLength;
      }
    }, 20);
    try {
      socket.on('error', () => {});
      await once(socket, 'connect');
      socket.pause();
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      await until(() => socket.readableEnded || socket.destroyed);
      // The header lines besides the answer.
      expect(received).toBeGreaterThan(answer.length);
      expect(socket.readableEnded).toBe(true);
    } finally {
      clearInterval(reading);
      socket.destroy();
      server.closeAllConnections();
      server.close();
    }
  },
  2 * DEADLINE_MS,
);
