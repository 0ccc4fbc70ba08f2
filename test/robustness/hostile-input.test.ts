// Requests an attacker sends to make one request cost the server seconds or gigabytes: bodies
// nested millions deep, hundreds of thousands of properties, property names as long as a body.
// Each is answered with a small problem, over a real socket, while the server goes on answering
// /health; a body over its route's size is refused before it has even been sent.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageKinds } from '../helpers/databases.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { createFarm, signUpWithKey, type Account } from '../helpers/app.js';

const KiB = 1024;
const MiB = 1024 * KiB;
/** The most an error body may weigh, whatever the request. */
const SMALL = 4 * KiB;

/** `{"<property>":` + depth × `[` + depth × `]` + `}`: the 5 MiB body that froze JSON.parse for seconds. */
const deepArrays = (property: string, size: number) => {
  const depth = Math.floor((size - property.length - 5) / 2);
  return `{"${property}":${'['.repeat(depth)}${']'.repeat(depth)}}`;
};

/** An object of `count` properties nobody knows: `{"p0":0,"p1":0,…}`. */
const unknownProperties = (count: number) => `{${Array.from({ length: count }, (_, i) => `"p${i}":0`).join(',')}}`;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Bytes of the request body written when the answer arrived. */
  sentWhenResponded: number;
}

/**
 * Sends `body` in 64 KiB pieces, each after the one before has left (with Content-Length unless
 * `chunked`), and settles with the answer; what is still unsent when it arrives is not sent.
 */
function send(url: string, method: string, path: string, headers: Record<string, string>, body: string, chunked = false): Promise<Answer> {
  const bytes = Buffer.from(body);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const outgoing = { 'content-type': 'application/json', ...headers, ...(chunked ? {} : { 'content-length': String(bytes.length) }) };
    const call = httpRequest(`${url}${path}`, { method, headers: outgoing }, (response) => {
      answered = true;
      const sentWhenResponded = sent;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString(), sentWhenResponded });
        call.destroy();
      });
    });
    // Once answered, the server may close while the body is still going out: the answer stands.
    call.on('error', (error) => (answered ? undefined : reject(error)));
    const writeNext = () => {
      if (answered || call.destroyed) return;
      if (sent >= bytes.length) return void call.end();
      const piece = bytes.subarray(sent, sent + 64 * KiB);
      sent += piece.length;
      call.write(piece, () => setImmediate(writeNext));
    };
    call.flushHeaders();
    writeNext();
  });
}

/** /health asked again and again, one at a time, until `work` settles; the statuses it got meanwhile. */
async function healthDuring<T>(url: string, work: Promise<T>): Promise<{ result: T; health: number[] }> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  const health: number[] = [];
  do health.push((await fetch(`${url}/health`)).status);
  while (!settled);
  return { result: await done, health };
}

/** A small problem+json of `status` and `code`, and the server answered /health meanwhile. */
function expectSmallProblem({ result, health }: { result: Answer; health: number[] }, status: number, code: string) {
  expect(result.status).toBe(status);
  expect(result.headers['content-type']).toBe('application/problem+json');
  expect(result.headers['x-content-type-options']).toBe('nosniff');
  expect(Buffer.byteLength(result.body)).toBeLessThan(SMALL);
  const problem = JSON.parse(result.body) as { type: string; errors?: unknown[]; errors_omitted?: number; detail: string };
  expect(problem.type).toBe(`https://akker.test/errors/${code}`);
  expect(health.length).toBeGreaterThan(0);
  expect(health.every((s) => s === 200)).toBe(true);
  return problem;
}

describe.each(storageKinds)('hostile input (%s)', (kind) => {
  let t: ListeningApp;
  let user: Account;
  let fieldsPath: string;

  beforeAll(async () => {
    t = await startListeningApp(kind);
    user = await signUpWithKey(t.app);
    fieldsPath = `/api/farms/${(await createFarm(t.app, user.key)).b_id_farm}/fields`;
  });
  afterAll(() => t.close());

  for (const path of ['/auth/sign-in', '/auth/sign-up']) {
    it(`refuses a 5 MiB body of nested arrays to ${path} with 413 before the body is sent`, async () => {
      const body = deepArrays('email', 5 * MiB);
      const answered = await healthDuring(t.url, send(t.url, 'POST', path, {}, body));
      expectSmallProblem(answered, 413, 'payload-too-large');
      // Judged on Content-Length: the server answered while most of the body was still to come.
      expect(answered.result.sentWhenResponded).toBeLessThan(MiB);
    });

    it(`refuses the same body sent chunked to ${path} with 413`, async () => {
      expectSmallProblem(
        await healthDuring(t.url, send(t.url, 'POST', path, {}, deepArrays('email', 5 * MiB), true)),
        413,
        'payload-too-large',
      );
    });

    it(`refuses nested arrays that fit ${path}'s size with 400 before parsing them`, async () => {
      const problem = expectSmallProblem(
        await healthDuring(t.url, send(t.url, 'POST', path, {}, deepArrays('email', 15 * KiB))),
        400,
        'validation-failed',
      );
      expect(problem.detail).toMatch(/nests arrays and objects more than 64 deep/);
    });
  }

  it('refuses 420,000 unknown properties with a small answer: 413 on sign-up, 400 where a geometry may come', async () => {
    const body = unknownProperties(420_000);
    expect(body.length).toBeGreaterThan(4.5 * MiB);
    expectSmallProblem(await healthDuring(t.url, send(t.url, 'POST', '/auth/sign-up', {}, body)), 413, 'payload-too-large');
    const problem = expectSmallProblem(
      await healthDuring(t.url, send(t.url, 'POST', fieldsPath, { 'x-api-key': user.key }, body)),
      400,
      'validation-failed',
    );
    expect(problem.detail).toMatch(/more than 200000 array elements and object members/);
  });

  it('lists the first 20 of 5,000 unknown properties and counts the rest', async () => {
    const problem = expectSmallProblem(
      await healthDuring(t.url, send(t.url, 'POST', '/api/farms', { 'x-api-key': user.key }, unknownProperties(5_000))),
      400,
      'validation-failed',
    );
    expect(problem.errors).toHaveLength(20);
    // 5,000 unknown properties and the missing b_name_farm.
    expect(problem.errors!.length + problem.errors_omitted!).toBe(5_001);
    expect(problem.detail).toMatch(/and 4981 more$/);
  });

  it('refuses 5 MiB of nested arrays and 1,000,000 array elements where a geometry may come with 400', async () => {
    const headers = { 'x-api-key': user.key };
    const deep = await healthDuring(t.url, send(t.url, 'POST', fieldsPath, headers, deepArrays('b_geometry', 5 * MiB - 1)));
    expect(expectSmallProblem(deep, 400, 'validation-failed').detail).toMatch(/more than 64 deep/);
    const emptyPolygons = `{"b_name":"x","b_start":"2020-01-01","b_geometry":{"type":"MultiPolygon","coordinates":[${Array(1_000_000).fill('[[]]').join(',')}]}}`;
    const wide = await healthDuring(t.url, send(t.url, 'POST', fieldsPath, headers, emptyPolygons));
    expect(expectSmallProblem(wide, 400, 'validation-failed').detail).toMatch(/more than 200000/);
  });

  it('refuses nested arrays and wide objects on an ordinary write with 400', async () => {
    const headers = { 'x-api-key': user.key };
    const deep = await healthDuring(t.url, send(t.url, 'POST', '/api/farms', headers, deepArrays('b_name_farm', 60 * KiB)));
    expectSmallProblem(deep, 400, 'validation-failed');
    const wide = await healthDuring(
      t.url,
      send(t.url, 'PATCH', '/api/farms/x', headers, `{"b_name_farm":[${Array(12_000).fill(0).join(',')}]}`),
    );
    expect(expectSmallProblem(wide, 400, 'validation-failed').detail).toMatch(/more than 10000/);
  });

  it('keeps the answer small when a property name is as long as the body', async () => {
    const answered = await healthDuring(
      t.url,
      send(t.url, 'POST', '/api/farms', { 'x-api-key': user.key }, `{"${'n'.repeat(60 * KiB)}":1}`),
    );
    expectSmallProblem(answered, 400, 'validation-failed');
  });

  it('counts neither brackets nor commas inside strings, escaped quotes included', async () => {
    // As JSON text: "\"[{,[{,…\\" — an escaped quote first, an escaped backslash before the closing quote.
    const name = `\\"${'[{,'.repeat(60)}\\\\`;
    const created = await send(t.url, 'POST', '/api/farms', { 'x-api-key': user.key }, `{"b_name_farm":"${name}"}`);
    expect(created.status).toBe(201);
    expect((JSON.parse(created.body) as { b_name_farm: string }).b_name_farm).toBe(`"${'[{,'.repeat(60)}\\`);
  });
});
