// `npm run bench:hostile`: the requests an attacker sends to make one request cost seconds, each sent
// to a real server (a child process; embedded database in memory, or a fresh database on the
// PostgreSQL server of BENCH_DATABASE_URL when set) while another connection asks
// /health again and again. Prints, per request, the time to its answer, the status, the size of the
// answer and the longest /health wait meanwhile; the targets are an answer within 1 s and no /health
// wait over 500 ms. To add a request, add a case to `cases`.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { createFarm, signUpWithKey } from './akker-api.js';
import { pollHealth } from './health-poll.js';
import { freshDatabase } from './postgres.js';
import { startServer } from './processes.js';

const MAX_ANSWER_MS = 1000;
const MAX_HEALTH_WAIT_MS = 500;
const KiB = 1024;
const MiB = 1024 * KiB;

/** A request as an HTTP client sends it, or (`raw`) bytes written to the socket as they are. */
type HostileRequest =
  { method: string; path: string; headers?: Record<string, string>; body?: string; chunked?: boolean } | { raw: string };

interface Setup {
  key: string;
  farmId: string;
}

interface Case {
  name: string;
  request: (setup: Setup) => HostileRequest;
}

const deepArrays = (property: string, size: number) => {
  const depth = Math.floor((size - property.length - 5) / 2);
  return `{"${property}":${'['.repeat(depth)}${']'.repeat(depth)}}`;
};
const unknownProperties = (count: number) => `{${Array.from({ length: count }, (_, i) => `"p${i}":0`).join(',')}}`;
const emptyPolygons = (count: number) =>
  `{"b_name":"x","b_start":"2020-01-01","b_geometry":{"type":"MultiPolygon","coordinates":[${Array(count).fill('[[]]').join(',')}]}}`;

const cases: Case[] = [
  {
    name: '5 MiB nested arrays → /auth/sign-in',
    request: () => ({ method: 'POST', path: '/auth/sign-in', body: deepArrays('email', 5 * MiB) }),
  },
  {
    name: '5 MiB nested arrays → /auth/sign-up',
    request: () => ({ method: 'POST', path: '/auth/sign-up', body: deepArrays('email', 5 * MiB) }),
  },
  {
    name: '5 MiB nested arrays, chunked → /auth/sign-in',
    request: () => ({ method: 'POST', path: '/auth/sign-in', body: deepArrays('email', 5 * MiB), chunked: true }),
  },
  {
    name: '15 KiB nested arrays → /auth/sign-in',
    request: () => ({ method: 'POST', path: '/auth/sign-in', body: deepArrays('email', 15 * KiB) }),
  },
  {
    name: '420,000 unknown properties → /auth/sign-up',
    request: () => ({ method: 'POST', path: '/auth/sign-up', body: unknownProperties(420_000) }),
  },
  {
    name: '420,000 unknown properties → POST fields',
    request: ({ key, farmId }) => ({
      method: 'POST',
      path: `/api/farms/${farmId}/fields`,
      headers: { 'x-api-key': key },
      body: unknownProperties(420_000),
    }),
  },
  {
    name: '5 MiB nested arrays → POST fields',
    request: ({ key, farmId }) => ({
      method: 'POST',
      path: `/api/farms/${farmId}/fields`,
      headers: { 'x-api-key': key },
      body: deepArrays('b_geometry', 5 * MiB - 1),
    }),
  },
  {
    name: '1,048,536 empty polygons → POST fields',
    request: ({ key, farmId }) => ({
      method: 'POST',
      path: `/api/farms/${farmId}/fields`,
      headers: { 'x-api-key': key },
      body: emptyPolygons(1_048_536),
    }),
  },
  {
    name: '5,000 unknown properties → POST /api/farms',
    request: ({ key }) => ({ method: 'POST', path: '/api/farms', headers: { 'x-api-key': key }, body: unknownProperties(5_000) }),
  },
  { name: 'backslash in the path', request: () => ({ raw: 'GET /api/farms/a\\b HTTP/1.1\r\nHost: akker\r\n\r\n' }) },
  { name: 'Host: exa mple', request: () => ({ raw: 'GET /api/farms HTTP/1.1\r\nHost: exa mple\r\n\r\n' }) },
];

interface Answer {
  status: number;
  bytes: number;
}

function send(base: string, request: HostileRequest): Promise<Answer> {
  const url = new URL(base);
  if ('raw' in request) {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(request.raw));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('latin1');
        const [head = '', body = ''] = text.split('\r\n\r\n', 2);
        resolve({ status: Number(head.split(' ')[1]), bytes: Buffer.byteLength(body, 'latin1') });
      });
    });
  }
  const body = Buffer.from(request.body ?? '');
  const headers: Record<string, string> = { 'content-type': 'application/json', ...request.headers };
  if (!request.chunked) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    let answered = false;
    const call = httpRequest(`${base}${request.path}`, { method: request.method, headers }, (response) => {
      answered = true;
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => {
        resolve({ status: response.statusCode!, bytes });
        call.destroy();
      });
    });
    // The server may answer and close before the whole body is out: the answer stands.
    call.on('error', (error) => (answered ? undefined : reject(error)));
    if (request.chunked) {
      for (let offset = 0; offset < body.length; offset += 64 * KiB) call.write(body.subarray(offset, offset + 64 * KiB));
      call.end();
    } else call.end(body);
  });
}

const postgres = process.env.BENCH_DATABASE_URL ? await freshDatabase(process.env.BENCH_DATABASE_URL, 'akker_bench_hostile') : undefined;
const server = await startServer('src/server.ts', {
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: 'memory://',
  DATABASE_URL: postgres?.url ?? '',
  REDIS_URL: '',
  RATE_LIMIT_GENERAL: '1000000',
  RATE_LIMIT_WRITE: '1000000',
  RATE_LIMIT_CALCULATION: '1000000',
});
let failed = false;
try {
  const account = await signUpWithKey(server.url, 'hostile');
  const setup: Setup = { key: account.key, farmId: (await createFarm(server.url, account.key)).b_id_farm };
  console.log(
    `${'request'.padEnd(48)} ${'answer ms'.padStart(9)} ${'status'.padStart(6)} ${'bytes'.padStart(7)} ${'/health max ms'.padStart(14)}`,
  );
  for (const { name, request } of cases) {
    const hostile = request(setup);
    const health = pollHealth(server.url);
    const started = performance.now();
    const answer = await send(server.url, hostile);
    const responseMs = performance.now() - started;
    const healthMs = await health.stop();
    const ok = responseMs <= MAX_ANSWER_MS && healthMs <= MAX_HEALTH_WAIT_MS && answer.status < 500;
    if (!ok) failed = true;
    console.log(
      `${name.padEnd(48)} ${responseMs.toFixed(0).padStart(9)} ${String(answer.status).padStart(6)} ${String(answer.bytes).padStart(7)} ${healthMs.toFixed(0).padStart(14)}${ok ? '' : '  ← over target'}`,
    );
  }
  console.log(`targets: answer ≤ ${MAX_ANSWER_MS} ms, /health wait ≤ ${MAX_HEALTH_WAIT_MS} ms, no 5xx`);
} finally {
  await server.stop();
  await postgres?.drop();
}
process.exitCode = failed ? 1 : 0;
