// Errors and limits: the problem members, the order of checks and the error table.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { createLogger } from '../../src/core/logger.js';
import { openTestPglite } from '../helpers/databases.js';
import { appOn } from '../helpers/app.js';

const FIVE_MIB = 5 * 1024 * 1024;

let t: TestApp;
let user: Account;

beforeAll(async () => {
  t = await startTestApp('pglite');
  user = await signUpWithKey(t.app);
});
afterAll(() => t.close());

describe('problem+json', () => {
  it('has exactly the documented members, type under PUBLIC_URL/errors and the request path as instance', async () => {
    const body = await expectProblem(await call(t.app, user.key, 'GET', '/api/farms/unknown'), 404, 'not-found');
    expect(body.instance).toBe('/api/farms/unknown');
    expect(body.title).toBe('Not Found');
  });

  it('uses http://HOST:PORT/errors when PUBLIC_URL is not set', async () => {
    // Another app on the same database, left open for the other tests.
    const plain = appOn(t.database, { PUBLIC_URL: '', HOST: '127.0.0.1', PORT: '4321' });
    const body = (await (await plain.app.request('/api/nothing')).json()) as { type: string };
    expect(body.type).toBe('http://127.0.0.1:4321/errors/not-found');
  });

  it('gives every error response a new error_id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add(((await (await t.app.request('/api/nothing')).json()) as { error_id: string }).error_id);
    expect(ids.size).toBe(20);
  });
});

describe('order of checks', () => {
  it('answers an unknown /api path with 404 before authentication', async () => {
    const unknown = await t.app.request('/api/unknown/path');
    await expectProblem(unknown, 404, 'not-found');
    // No route ran, yet the API's checks did: the answer carries their fields.
    expect(unknown.headers.get('cache-control')).toBe('no-store');
    await expectProblem(await t.app.request('/api'), 404, 'not-found');
    await expectProblem(await t.app.request('/auth'), 404, 'not-found');
  });

  it('answers a known path with a wrong method with 405 and Allow, before authentication', async () => {
    const response = await t.app.request('/api/farms', { method: 'PUT' });
    await expectProblem(response, 405, 'method-not-allowed');
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const one = await t.app.request('/api/farms/abc', { method: 'POST' });
    expect(one.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH');
  });

  it('checks the content type before the key', async () => {
    await expectProblem(
      await t.app.request('/api/farms', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported-media-type',
    );
  });

  it('checks both key headers before the body', async () => {
    const response = await t.app.request('/api/farms', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json', 'x-api-key': user.key, authorization: `Bearer ${user.key}` },
    });
    await expectProblem(response, 400, 'ambiguous-api-key');
  });

  it('checks the key before validating the request', async () => {
    await expectProblem(await t.app.request('/api/farms?limit=0'), 401, 'unauthorized');
  });
});

describe('content type', () => {
  it('refuses a body that is not application/json with 415', async () => {
    const response = await t.app.request('/api/farms', {
      method: 'POST',
      body: 'b_name_farm=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': user.key },
    });
    await expectProblem(response, 415, 'unsupported-media-type');
  });

  it('refuses a body without a content type with 415', async () => {
    const response = await t.app.request('/api/farms', { method: 'POST', body: '{"b_name_farm":"x"}', headers: { 'x-api-key': user.key } });
    await expectProblem(response, 415, 'unsupported-media-type');
  });

  it('accepts application/json with a charset parameter', async () => {
    const response = await t.app.request('/api/farms', {
      method: 'POST',
      body: '{"b_name_farm":"x"}',
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-api-key': user.key },
    });
    expect(response.status).toBe(201);
  });
});

describe('malformed input', () => {
  it('answers malformed JSON with 400 validation-failed', async () => {
    const response = await t.app.request('/api/farms', {
      method: 'POST',
      body: '{"b_name_farm": ',
      headers: { 'content-type': 'application/json', 'x-api-key': user.key },
    });
    const body = await expectProblem(response, 400, 'validation-failed');
    expect(body.errors).toEqual([{ field: 'body', message: 'is not valid JSON' }]);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    await expectProblem(await call(t.app, user.key, 'POST', '/api/farms', [1, 2]), 400, 'validation-failed');
  });
});

describe('body size (5 MiB where a geometry may come, counted on the bytes received)', () => {
  let server: ReturnType<typeof serve>;
  let port: number;
  let fieldsPath: string;

  beforeAll(async () => {
    fieldsPath = `/api/farms/${(await createFarm(t.app, user.key)).b_id_farm}/fields`;
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function send(body: Buffer, chunked: boolean): Promise<{ status: number; type: string | undefined; body: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { 'content-type': 'application/json', 'x-api-key': user.key };
      if (!chunked) headers['content-length'] = body.length;
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: fieldsPath, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body: text }));
      });
      // The server may answer 413 and close while we are still sending: that is the point.
      const ignoreClosed = (error: NodeJS.ErrnoException) =>
        error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error);
      req.on('error', ignoreClosed);
      req.on('socket', (socket) => socket.on('error', ignoreClosed));
      if (chunked) {
        // Several writes without Content-Length: Node sends Transfer-Encoding: chunked.
        for (let offset = 0; offset < body.length; offset += 1024 * 1024) req.write(body.subarray(offset, offset + 1024 * 1024));
        req.end();
      } else req.end(body);
    });
  }

  // A JSON document of exactly `size` bytes: {"b_name":"x","padding":"   …   "} is refused by
  // validation (an unknown property), but only after it got past the size check.
  const jsonOfSize = (size: number) => {
    const head = '{"b_name":"x","padding":"';
    return Buffer.from(head + 'a'.repeat(size - head.length - 2) + '"}');
  };

  for (const chunked of [false, true]) {
    const how = chunked ? 'chunked' : 'with Content-Length';
    it(`accepts exactly 5 MiB (${how}) into validation`, async () => {
      const response = await send(jsonOfSize(FIVE_MIB), chunked);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body).errors).toContainEqual({ field: 'padding', message: 'is not a known property' });
    });

    it(`refuses 5 MiB + 1 byte (${how}) with 413`, async () => {
      const response = await send(jsonOfSize(FIVE_MIB + 1), chunked);
      expect(response.status).toBe(413);
      expect(response.type).toBe('application/problem+json');
      expect(JSON.parse(response.body)).toMatchObject({ status: 413, type: 'https://akker.test/errors/payload-too-large' });
    });
  }

  it('refuses an oversized body before checking its content type', async () => {
    const response = await t.app.request('/api/farms', {
      method: 'POST',
      body: 'x'.repeat(FIVE_MIB + 1),
      headers: { 'content-type': 'text/plain', 'content-length': String(FIVE_MIB + 1) },
    });
    await expectProblem(response, 413, 'payload-too-large');
  });

  it('sends the chunked test bodies without Content-Length, as Transfer-Encoding: chunked', async () => {
    const seen = await new Promise<string | undefined>((resolve) => {
      const bare = createServer((req, res) => {
        resolve(req.headers['transfer-encoding']);
        res.end();
        bare.close();
      }).listen(0, '127.0.0.1', () => {
        const req = httpRequest({ host: '127.0.0.1', port: (bare.address() as AddressInfo).port, method: 'POST' });
        req.write('a');
        req.end('b');
      });
    });
    expect(seen).toBe('chunked');
  });
});

describe('body size per route family', () => {
  const KiB = 1024;
  // {"<property>":"aaa…"} of exactly `size` bytes.
  const bodyOfSize = (property: string, size: number) => {
    const head = `{"${property}":"`;
    return head + 'a'.repeat(size - head.length - 2) + '"}';
  };
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    t.app.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  it('takes 16 KiB on sign-up, sign-in and key management, and refuses a byte more with 413', async () => {
    for (const [path, headers] of [
      ['/auth/sign-up', {}],
      ['/auth/sign-in', {}],
      ['/api/keys', { cookie: user.cookie }],
    ] as const) {
      expect([path, (await post(path, bodyOfSize('email', 16 * KiB), headers)).status]).toEqual([path, 400]);
      const over = await post(path, bodyOfSize('email', 16 * KiB + 1), headers);
      const body = await expectProblem(over, 413, 'payload-too-large');
      expect(body.detail).toBe('The request body is larger than 16384 bytes (16 KiB), the most this operation accepts.');
    }
  });

  it('takes 64 KiB on other writes, and refuses a byte more with 413', async () => {
    const headers = { 'x-api-key': user.key };
    expect((await post('/api/farms', bodyOfSize('b_address_farm', 64 * KiB), headers)).status).toBe(400);
    await expectProblem(await post('/api/farms', bodyOfSize('b_address_farm', 64 * KiB + 1), headers), 413, 'payload-too-large');
  });
});

describe('unexpected errors', () => {
  it('answers 500 internal-error with nothing internal in the body, and logs the error_id', async () => {
    const broken = appOn(await openTestPglite());
    const account = await signUpWithKey(broken.app);
    await broken.database.close();
    const lines: string[] = [];
    broken.deps.log = createLogger('info', { write: (line: string) => void lines.push(line) });
    const response = await call(broken.app, account.key, 'POST', '/api/farms', { b_name_farm: 'x' });
    const body = await expectProblem(response, 500, 'internal-error');
    expect(JSON.stringify(body)).not.toMatch(/at |\.ts|PGlite|closed|stack/i);
    expect(lines.join('\n')).toContain(body.error_id as string);
  });
});

describe('health', () => {
  it('answers GET /health with 200 {"status":"ok"} without a key', async () => {
    const response = await t.app.request('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers another method with 405 problem+json and Allow, and HEAD like GET', async () => {
    const response = await t.app.request('/health', { method: 'POST' });
    await expectProblem(response, 405, 'method-not-allowed');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect((await t.app.request('/health', { method: 'HEAD' })).status).toBe(200);
  });
});
