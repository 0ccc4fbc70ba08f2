// Graceful shutdown: SIGTERM stops accepting, lets the requests in flight finish, closes the database
// (and its lock) and exits 0; idle keep-alive connections do not hold it up, and a stuck one only until
// the shutdown timeout.
import { existsSync, rmSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { once } from 'node:events';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { templateDataDir } from '../helpers/databases.js';
import { killLeftoverServers, signUpOver, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

// Both tests stop their server cleanly, so they can share one data directory.
let dataDir: string;
beforeAll(async () => {
  dataDir = await templateDataDir('akker-shutdown-');
});
afterAll(() => {
  killLeftoverServers();
  rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const portOf = (server: ServerProcess) => Number(new URL(server.url).port);

/**
 * A POST whose body the test sends in parts, so that the request is in flight for as long as it likes.
 * `received` resolves when the server has the request: it answers `Expect: 100-continue` once it has
 * read the headers, before the app sees the request.
 */
function openPost(
  server: ServerProcess,
  path: string,
  key: string,
): { req: ClientRequest; received: Promise<unknown>; response: Promise<{ status: number; body: string }> } {
  const req = request({
    host: '127.0.0.1',
    port: portOf(server),
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', 'x-api-key': key, expect: '100-continue' },
  });
  const received = once(req, 'continue');
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
  });
  return { req, received, response };
}

/** Whether a new TCP connection to the server's port is refused. */
function connectionRefused(server: ServerProcess): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(portOf(server), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Resolves once new connections to the server are refused; fails when they are still taken after 10 s. */
async function refusesConnections(server: ServerProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await connectionRefused(server))) {
    if (Date.now() > deadline) throw new Error('the server still takes new connections 10 s after SIGTERM');
    await sleep(20);
  }
}

it('finishes the request in flight, refuses new connections, closes the database and exits 0', async () => {
  const server = await startServerProcess({ DATA_DIR: dataDir });
  const key = await signUpOver(server.url, 'shutdown@example.org');

  const slow = openPost(server, '/api/farms', key);
  slow.req.write('{"b_name_farm": "Arrived during ');
  await slow.received;
  server.kill('SIGTERM');
  await refusesConnections(server);
  slow.req.end('the shutdown"}');
  const answer = await slow.response;
  expect(answer.status).toBe(201);
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(server.output()).toContain('"msg":"stopped"');
  expect(existsSync(join(dataDir, 'akker.lock'))).toBe(false);

  // The data directory opens again, with the farm the last request wrote.
  const farmId = (JSON.parse(answer.body) as { b_id_farm: string }).b_id_farm;
  const reopened = await PGlite.create({ dataDir: join(dataDir, 'pgdata') });
  const rows = (await reopened.query('select b_name_farm from farms where b_id_farm = $1', [farmId])).rows;
  await reopened.close();
  expect(rows).toEqual([{ b_name_farm: 'Arrived during the shutdown' }]);
}, 60_000);

it('is not held up by idle keep-alive connections, and by a stuck one only until the shutdown timeout', async () => {
  const server = await startServerProcess({ DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_SECONDS: '2' });
  // An idle keep-alive connection: one answered request, then nothing.
  const idle = connect(portOf(server), '127.0.0.1');
  idle.write('GET /health HTTP/1.1\r\nHost: akker\r\nConnection: keep-alive\r\n\r\n');
  await new Promise((resolve) => idle.once('data', resolve));
  // A stuck one: a request whose body never comes. The server has it once it answers 100 Continue.
  const stuck = connect(portOf(server), '127.0.0.1');
  stuck.write(
    'POST /auth/sign-in HTTP/1.1\r\nHost: akker\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
  );
  await new Promise((resolve) => stuck.once('data', resolve));

  const started = Date.now();
  server.kill('SIGTERM');
  expect(await server.exited).toEqual({ code: 0, signal: null });
  const seconds = (Date.now() - started) / 1000;
  expect(seconds).toBeLessThan(8);
  expect(server.output()).toContain('shutdown timeout');
  expect(existsSync(join(dataDir, 'akker.lock'))).toBe(false);
  idle.destroy();
  stuck.destroy();
}, 60_000);
