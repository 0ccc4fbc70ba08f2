// Requests that Node's HTTP server refuses before the app sees them get problem+json like every other
// error: header fields over Node's limit (431), bytes that are not HTTP (400), a request that does not
// arrive in time (408). Sent as raw bytes, since no HTTP client sends such requests. And a client that
// goes away in the middle of its body is no server fault: nothing is logged as an error.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refuseClientErrors } from '../../src/app/client-errors.js';
import { templateDataDir } from '../helpers/databases.js';
import { killLeftoverServers, signUpOver, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` to `port` and reads until the server closes the connection. */
function exchange(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...fields] = head.split('\r\n');
      const headers = Object.fromEntries(
        fields.map((field) => [field.slice(0, field.indexOf(':')).toLowerCase(), field.slice(field.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

/** Asserts a problem+json answer of `status` and `code` for `instance`, closing the connection; returns its type. */
function expectProblem(answer: RawResponse, status: number, code: string, instance: string): string {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(answer.headers.connection).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['detail', 'error_id', 'instance', 'status', 'title', 'type']);
  expect(body).toMatchObject({ status, instance });
  expect(body.type).toMatch(new RegExp(`/errors/${code}$`));
  expect(body.error_id).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  expect(body.detail).toEqual(expect.any(String));
  return body.type as string;
}

describe('client errors of the running server', () => {
  let server: ServerProcess;
  let port: number;
  beforeAll(async () => {
    server = await startServerProcess({ DATA_DIR: await templateDataDir() });
    port = Number(new URL(server.url).port);
  }, 60_000);
  afterAll(() => killLeftoverServers());

  it('answers header fields over the limit with 431 problem+json, typed like the API errors', async () => {
    const answer = await exchange(port, `GET /api/farms?limit=5 HTTP/1.1\r\nHost: akker\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`);
    const type = expectProblem(answer, 431, 'request-header-fields-too-large', '/api/farms');
    const notFound = (await (await fetch(`${server.url}/api/nothing`)).json()) as { type: string };
    expect(type.replace(/[^/]+$/, '')).toBe(notFound.type.replace(/[^/]+$/, ''));
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('lets the 431 arrive whole while the client is still sending (1 MiB of header fields)', async () => {
    const answer = await exchange(port, `GET /api/farms HTTP/1.1\r\nHost: akker\r\nX-Filler: ${'a'.repeat(1024 * 1024)}\r\n\r\n`);
    expectProblem(answer, 431, 'request-header-fields-too-large', '/api/farms');
  });

  it('answers bytes that are not HTTP with 400 problem+json', async () => {
    expectProblem(await exchange(port, 'HELLO THERE\r\n\r\n'), 400, 'bad-request', '');
    const badLength = 'POST /api/farms HTTP/1.1\r\nHost: akker\r\nContent-Length: 12abc\r\n\r\n{}';
    expectProblem(await exchange(port, badLength), 400, 'bad-request', '/api/farms');
  });

  it('answers a backslash in the path and a Host field that is no host name with 400 problem+json', async () => {
    // Node's parser takes both; it is the app server's URL that cannot be made of them.
    const backslash = await exchange(port, 'GET /api/farms/a\\b HTTP/1.1\r\nHost: akker\r\n\r\n');
    expectProblem(backslash, 400, 'bad-request', '/api/farms/a\\b');
    expect(backslash.headers['x-content-type-options']).toBe('nosniff');
    expectProblem(await exchange(port, 'GET /api/farms HTTP/1.1\r\nHost: exa mple\r\n\r\n'), 400, 'bad-request', '/api/farms');
    const withBody = 'POST /auth/sign-in HTTP/1.1\r\nHost: exa mple\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';
    expectProblem(await exchange(port, withBody), 400, 'bad-request', '/auth/sign-in');
  });

  it('takes a request without a Host field (HTTP/1.0) as one for the server itself', async () => {
    const answer = await exchange(port, 'GET /health HTTP/1.0\r\n\r\n');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
  });

  it('logs no error when a client goes away in the middle of a chunked body', async () => {
    const key = await signUpOver(server.url, 'gone-mid-body@example.org');
    const logged = server.output().length;
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/farms HTTP/1.1\r\nHost: akker\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\n` +
        'Transfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n',
    );
    // 100 Continue: the server has the request and is about to read its body.
    await new Promise((resolve) => socket.once('data', resolve));
    await new Promise((resolve) => socket.write('10\r\n{"b_name_farm":"\r\n', resolve));
    socket.destroy();
    // The server notices on its next turn; what it does then shows in its log within a moment.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.output().slice(logged)).not.toMatch(/"level":"error"/);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  /** The request log lines of the server since `from` for `path`, parsed. */
  const requestLines = (from: number, path: string) =>
    server
      .output()
      .slice(from)
      .split('\n')
      .filter((line) => line.includes('"msg":"request"') && line.includes(`"route":"${path}"`))
      .map((line) => JSON.parse(line) as { status: number });

  /** Polls the server's log until a request line for `path` shows up after `from` (the server has finished with it). */
  async function loggedRequest(from: number, path: string): Promise<{ status: number }> {
    for (;;) {
      const [line] = requestLines(from, path);
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  let cutKey: Promise<string> | undefined;
  const cutPoints = [0, 1, 60];
  const endings = ['destroy', 'half-close', 'reset'] as const;
  for (const expectContinue of [false, true]) {
    for (const sent of cutPoints) {
      for (const ending of endings) {
        it(`takes a Content-Length body cut after ${sent} of 100 bytes (${ending}${expectContinue ? ', Expect: 100-continue' : ''}) as the client's doing: no error, no 500`, async () => {
          const key = await (cutKey ??= signUpOver(server.url, 'cut-body@example.org'));
          const logged = server.output().length;
          const socket = connect(port, '127.0.0.1');
          socket.on('error', () => undefined);
          await new Promise((resolve) => socket.once('connect', resolve));
          const head =
            `POST /api/farms HTTP/1.1\r\nHost: akker\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n` +
            (expectContinue ? 'Expect: 100-continue\r\n' : '') +
            '\r\n';
          await new Promise((resolve) => socket.write(head, resolve));
          // With 100-continue, the server has the request once it says so; without, once it has read the head.
          if (expectContinue) await new Promise((resolve) => socket.once('data', resolve));
          if (sent > 0) await new Promise((resolve) => socket.write('{"b_name_farm":"' + 'x'.repeat(sent), resolve));
          if (ending === 'destroy') socket.destroy();
          else if (ending === 'half-close') socket.end();
          else socket.resetAndDestroy();
          const line = await loggedRequest(logged, '/api/farms');
          expect(line.status).toBe(400);
          expect(server.output().slice(logged)).not.toMatch(/"level":(50|"error")/);
          socket.destroy();
        });
      }
    }
  }

  it('still serves after them', async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe('a request that does not arrive in time', () => {
  let server: Server;
  beforeAll(async () => {
    // Node's own timeouts, made short; the answer is the same handler's as in the running server.
    server = createServer({ headersTimeout: 200, requestTimeout: 300, connectionsCheckingInterval: 50 }, (_request, response) =>
      response.end(),
    );
    refuseClientErrors(server, 'http://akker.test/errors');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('gets 408 problem+json', async () => {
    const { port } = server.address() as { port: number };
    const answer = await exchange(port, 'GET /api/farms HTTP/1.1\r\nHost: akker\r\n');
    // Node hands over no bytes of a request that timed out, so its path is unknown.
    expect(expectProblem(answer, 408, 'request-timeout', '')).toBe('http://akker.test/errors/request-timeout');
  });
});

describe('bytes that are not HTTP while an answer is under way on the connection', () => {
  let server: Server;
  let port: number;
  let release: () => void;
  let released: Promise<void>;
  beforeAll(async () => {
    // /begun starts its answer and finishes it on release; /queued answers only on release.
    server = createServer((request, response) => {
      if (request.url === '/begun') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('begun;');
      }
      void released.then(() => response.end('done'));
    });
    refuseClientErrors(server, 'http://akker.test/errors');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  beforeEach(() => {
    released = new Promise((resolve) => (release = resolve));
  });
  afterEach(() => release());
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends `requests`, then bytes that are not HTTP once the first answer has begun; all that came back. */
  async function garbleAfter(requests: string): Promise<string> {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const closed = once(socket, 'close');
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.write(requests);
    await new Promise((resolve) => socket.once('data', resolve));
    socket.write('\x01\x02 not HTTP\r\n\r\n');
    await closed;
    return Buffer.concat(chunks).toString('latin1');
  }

  it('closes the connection without writing a 400 into the answer', async () => {
    const received = await garbleAfter('GET /begun HTTP/1.1\r\nHost: akker\r\n\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toContain('begun;');
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('does so too when a later request of the connection waits for its turn', async () => {
    const received = await garbleAfter('GET /begun HTTP/1.1\r\nHost: akker\r\n\r\nGET /queued HTTP/1.1\r\nHost: akker\r\n\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });
});
