// Input at the edges, each with a defined answer: duplicate JSON keys, the body size limit on every kind
// of JSON endpoint (5 MiB where a geometry may come, 64 KiB on other writes, 16 KiB on account operations), media type parameters, paging at and past its limits, 10,000-character and encoded-slash
// identifiers on every identifier route, and U+0000 (which PostgreSQL cannot store).
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type OpenApiDocument, type Operation } from '../fuzz/openapi.js';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import {
  acquireFertilizer,
  createApplication,
  createCultivation,
  createField,
  createHarvest,
  createSoilAnalysis,
  created,
  organicCertificationBody,
  rectangle,
} from '../helpers/fixtures.js';

const KiB = 1024;
const FIVE_MIB = 5 * 1024 * KiB;

let t: TestApp;
let user: Account;
let operations: Operation[];
let ids: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp('pglite');
  user = await signUpWithKey(t.app);
  const grantee = await signUpWithKey(t.app);
  const farm = (await createFarm(t.app, user.key)).b_id_farm;
  await call(t.app, user.key, 'PUT', `/api/farms/${farm}/access`, { email: grantee.email, role: 'researcher' });
  const field = (await createField(t.app, user.key, farm)).b_id;
  const cultivation = (await createCultivation(t.app, user.key, field, { b_lu_catalogue: 'nl_265' })).b_lu;
  const harvest = (await createHarvest(t.app, user.key, cultivation, { b_lu_harvest_date: '2025-06-01', b_lu_yield: 3000, b_lu_cp: 170 }))
    .b_id_harvesting;
  const analysis = (await createSoilAnalysis(t.app, user.key, field, { a_som_loi: 3 })).a_id;
  const fertilizer = (await acquireFertilizer(t.app, user.key, farm, 'BAAT028')).p_id;
  const application = (await createApplication(t.app, user.key, field, { p_id: fertilizer, p_app_amount_display: 100 })).p_app_id;
  const key = (await (await call(t.app, user.key, 'POST', '/api/keys', { name: 'spare' })).json()) as { id: string };
  await call(t.app, user.key, 'PUT', `/api/farms/${farm}/derogations/2025`);
  const certification = (
    await created<{ b_id_organic: string }>(
      call(t.app, user.key, 'POST', `/api/farms/${farm}/organic-certifications`, organicCertificationBody),
    )
  ).b_id_organic;
  const organisation = await created<{ id: string }>(call(t.app, user.key, 'POST', '/api/organisations', { name: 'Edge BV' }));
  ids = {
    b_id_farm: farm,
    b_id: field,
    b_lu: cultivation,
    b_id_harvesting: harvest,
    a_id: analysis,
    p_id: fertilizer,
    p_app_id: application,
    b_id_organic: certification,
    id: key.id,
    email: grantee.email,
    year: '2025',
    org_id: organisation.id,
  };
  const doc = (await (await t.app.request('/api/openapi.json')).json()) as OpenApiDocument;
  operations = operationsOf(doc);
});
afterAll(() => t.close());

/** The operation's path with real identifiers, and `value` (as sent, already encoded) in place of `param`. */
const pathWith = (operation: Operation, param: string, value: string) =>
  operation.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === param ? value : encodeURIComponent(ids[name]!)));

const paramsOf = (operation: Operation) => [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** The identifier parameters of an operation: a year is a number, whose malformed values are 400 (see below). */
const identifiersOf = (operation: Operation) => paramsOf(operation).filter((param) => param !== 'year');

/** A body that passes validation (which comes before the 404 in the order of checks); `{}` where it does. */
function validBody(operation: Operation): unknown {
  if (!operation.spec.requestBody) return undefined;
  const bodies: Record<string, unknown> = {
    'POST /api/farms/{b_id_farm}/fields': { b_name: 'P', b_start: '2020-01-01', b_geometry: rectangle() },
    'POST /api/fields/{b_id}/cultivations': { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' },
    'POST /api/cultivations/{b_lu}/harvests': { b_lu_harvest_date: '2025-07-01' },
    'POST /api/farms/{b_id_farm}/fertilizers': { p_id_catalogue: 'BAAT028' },
    'POST /api/fields/{b_id}/fertilizer-applications': { p_id: ids.p_id, p_app_amount_display: 1, p_app_date: '2025-03-01' },
    'PUT /api/farms/{b_id_farm}/access': { email: ids.email, role: 'researcher' },
    'PUT /api/farms/{b_id_farm}/grazing-intentions/{year}': { b_grazing_intention: true },
    'POST /api/farms/{b_id_farm}/organic-certifications': organicCertificationBody,
    'POST /api/organisations': { name: 'Another BV' },
    'PATCH /api/organisations/{org_id}': { name: 'Renamed BV' },
    'PUT /api/organisations/{org_id}/members': { email: ids.email, role: 'member' },
  };
  return bodies[`${operation.method} ${operation.path}`] ?? {};
}

describe('duplicate keys in a JSON body', () => {
  // JSON.parse keeps the last of duplicate keys, and so does Akker: the body means what its last key says.
  it('uses the last of duplicate keys', async () => {
    const response = await t.app.request('/api/farms', {
      method: 'POST',
      body: '{"b_name_farm": "first", "b_name_farm": "last"}',
      headers: { 'content-type': 'application/json', 'x-api-key': user.key },
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ b_name_farm: 'last' });
  });

  it('validates the value that is kept', async () => {
    const response = await t.app.request('/api/farms', {
      method: 'POST',
      body: '{"b_name_farm": "fine", "b_name_farm": ""}',
      headers: { 'content-type': 'application/json', 'x-api-key': user.key },
    });
    const body = await expectProblem(response, 400, 'validation-failed');
    expect(body.errors).toEqual([{ field: 'b_name_farm', message: expect.any(String) }]);
  });
});

describe('the body size limit on every kind of JSON endpoint, chunked and not', () => {
  let server: ReturnType<typeof serve>;
  let port: number;

  beforeAll(async () => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function send(method: string, path: string, body: Buffer, chunked: boolean): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { 'content-type': 'application/json', 'x-api-key': user.key };
      if (!chunked) headers['content-length'] = body.length;
      let answered = false;
      // A socket of its own (not the keep-alive pool's), so that a write cut off by the server's close fails here.
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        res.on('aborted', () => reject(new Error(`${method} ${path}: the answer was cut off`)));
      });
      // Once answered, the server may close while the body is still going out: the answer stands.
      req.on('error', (error) => (answered ? undefined : reject(new Error(`${method} ${path}: no answer (${error.message})`))));
      req.on('socket', (socket) => socket.on('error', () => undefined));
      if (chunked) {
        for (let offset = 0; offset < body.length; offset += 1024 * 1024) req.write(body.subarray(offset, offset + 1024 * 1024));
        req.end();
      } else req.end(body);
    });
  }

  // {"<property>":"aaa…"} of exactly `size` bytes: past the size check, validation refuses it.
  const jsonOfSize = (property: string, size: number) => {
    const head = `{"${property}":"`;
    return Buffer.from(head + 'a'.repeat(size - head.length - 2) + '"}');
  };

  const endpoints = () => [
    { method: 'POST', path: `/api/farms/${ids.b_id_farm}/fields`, property: 'b_name', limit: FIVE_MIB },
    { method: 'PATCH', path: `/api/fields/${ids.b_id}`, property: 'b_name', limit: FIVE_MIB },
    { method: 'PATCH', path: `/api/soil-analyses/${ids.a_id}`, property: 'a_source', limit: 64 * KiB },
    { method: 'PUT', path: `/api/farms/${ids.b_id_farm}/access`, property: 'email', limit: 64 * KiB },
    { method: 'POST', path: `/api/fields/${ids.b_id}/calculations/dose`, property: 'start', limit: 64 * KiB },
    { method: 'POST', path: '/auth/sign-up', property: 'email', limit: 16 * KiB },
    { method: 'POST', path: '/api/keys', property: 'name', limit: 16 * KiB },
  ];

  for (const chunked of [false, true]) {
    const how = chunked ? 'chunked' : 'with Content-Length';
    it(`takes a body of exactly its limit into validation and refuses a byte more with 413 (${how})`, async () => {
      for (const { method, path, property, limit } of endpoints()) {
        const atLimit = await send(method, path, jsonOfSize(property, limit), chunked);
        expect([method, path, atLimit.status]).toEqual([method, path, 400]);
        const over = await send(method, path, jsonOfSize(property, limit + 1), chunked);
        expect([method, path, over.status]).toEqual([method, path, 413]);
        expect(JSON.parse(over.body)).toMatchObject({ status: 413, type: 'https://akker.test/errors/payload-too-large' });
      }
    });
  }

  it('answers a 10,000-character identifier on every identifier route with 404', async () => {
    for (const operation of operations) {
      for (const param of identifiersOf(operation)) {
        const path = pathWith(operation, param, 'x'.repeat(10_000));
        const body = validBody(operation);
        const response = await send(operation.method, path, Buffer.from(body === undefined ? '' : JSON.stringify(body)), false);
        expect([operation.method, operation.path, param, response.status]).toEqual([operation.method, operation.path, param, 404]);
      }
    }
  });
});

describe('media type parameters', () => {
  const post = (contentType: string) =>
    t.app.request('/api/farms', {
      method: 'POST',
      body: '{"b_name_farm":"x"}',
      headers: { 'content-type': contentType, 'x-api-key': user.key },
    });

  it.each(['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'APPLICATION/JSON', 'application/json; charset="utf-8"'])(
    'accepts %s',
    async (type) => {
      expect((await post(type)).status).toBe(201);
    },
  );

  // One rule for the guard and the validator behind it: parameters follow `;` directly.
  it.each([
    'application/json ; charset=utf-8',
    'application/json; charset',
    'application/json; charset=',
    'application/jsonx',
    'text/json',
  ])('refuses %s with 415', async (type) => {
    await expectProblem(await post(type), 415, 'unsupported-media-type');
  });
});

describe('paging at and past its limits, on every list', () => {
  // The lists paged by offset; the change feed pages by cursor (test/resources/changes.test.ts).
  const lists = () =>
    operations.filter(
      (o) => o.method === 'GET' && ['limit', 'offset'].every((name) => (o.spec.parameters ?? []).some((p) => p.name === name)),
    );
  const listPath = (operation: Operation, query: string) =>
    `${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]!)}?${query}`;

  it.each([
    'limit=0',
    'limit=201',
    'limit=-1',
    'limit=1.5',
    'limit=1e2',
    'limit=0x10',
    'limit=%205',
    'limit=',
    'offset=-1',
    'offset=2147483648',
    'offset=x',
    'offset=1e9',
    'offset=',
  ])('refuses %s with 400 naming the parameter', async (query) => {
    for (const operation of lists()) {
      const body = await expectProblem(await call(t.app, user.key, 'GET', listPath(operation, query)), 400, 'validation-failed');
      expect(body.errors).toEqual([{ field: query.split('=')[0], message: expect.any(String) }]);
    }
  });

  it('answers limit=200, limit=1 and offset=1000000000 with a page', async () => {
    for (const operation of lists()) {
      for (const [query, limit, offset] of [
        ['limit=200', 200, 0],
        ['limit=1', 1, 0],
        ['offset=1000000000', 50, 1e9],
      ] as const) {
        const response = await call(t.app, user.key, 'GET', listPath(operation, query));
        expect([operation.path, query, response.status]).toEqual([operation.path, query, 200]);
        const page = (await response.json()) as { data: unknown[]; pagination: { limit: number; offset: number } };
        expect(page.pagination).toMatchObject({ limit, offset });
        if (offset > 0) expect(page.data).toEqual([]);
      }
    }
  });
});

describe('identifiers that are not identifiers', () => {
  // An encoded slash stays inside its segment: it never reaches another route, and no identifier has one.
  it('answers encoded slashes in every identifier of every route with 404, and changes nothing', async () => {
    const values = (real: string) => [
      '%2F',
      'a%2Fb',
      `${encodeURIComponent(real)}%2F`,
      `%2F${encodeURIComponent(real)}`,
      `${encodeURIComponent(real)}%2Ffields`,
      `${encodeURIComponent(real)}%2F..%2F${encodeURIComponent(real)}`,
    ];
    for (const operation of operations) {
      for (const param of identifiersOf(operation)) {
        for (const value of values(ids[param]!)) {
          const response = await call(t.app, user.key, operation.method, pathWith(operation, param, value), validBody(operation));
          expect([operation.method, operation.path, value, response.status]).toEqual([operation.method, operation.path, value, 404]);
        }
      }
    }
    for (const path of [
      `/api/farms/${ids.b_id_farm}`,
      `/api/fields/${ids.b_id}`,
      `/api/cultivations/${ids.b_lu}`,
      `/api/soil-analyses/${ids.a_id}`,
    ]) {
      expect((await call(t.app, user.key, 'GET', path)).status).toBe(200);
    }
  });

  it('answers a year that is not a year of four digits, on every route with one, with 400 naming it', async () => {
    const yearOperations = operations.filter((operation) => paramsOf(operation).includes('year'));
    expect(yearOperations.length).toBeGreaterThan(0);
    for (const operation of yearOperations) {
      for (const value of ['x'.repeat(10_000), '%2F', '2025%2F', '%202025', '2025.0', '0x7e9', '1e3', '02025', '-2025']) {
        const response = await call(t.app, user.key, operation.method, pathWith(operation, 'year', value), validBody(operation));
        const body = await expectProblem(response, 400, 'validation-failed');
        expect([operation.method, operation.path, value, body.errors]).toEqual([
          operation.method,
          operation.path,
          value,
          [{ field: 'year', message: 'must be a year of four digits' }],
        ]);
      }
    }
  });

  it('answers an identifier holding U+0000 on every identifier route with 404', async () => {
    for (const operation of operations) {
      for (const param of paramsOf(operation)) {
        const response = await call(t.app, user.key, operation.method, pathWith(operation, param, 'a%00b'), validBody(operation));
        await expectProblem(response, 404, 'not-found');
      }
    }
  });
});

describe('U+0000 in a body or a query', () => {
  it('refuses it with 400 naming the field, and stores nothing', async () => {
    const before = (await (await call(t.app, user.key, 'GET', '/api/farms')).json()) as { pagination: { total: number } };
    const response = await call(t.app, user.key, 'POST', '/api/farms', { b_name_farm: 'De\u0000Hoeve' });
    expect((await expectProblem(response, 400, 'validation-failed')).errors).toEqual([
      { field: 'b_name_farm', message: 'must not contain the character U+0000' },
    ]);
    const after = (await (await call(t.app, user.key, 'GET', '/api/farms')).json()) as { pagination: { total: number } };
    expect(after.pagination.total).toBe(before.pagination.total);
  });

  it('finds it deep in a body', async () => {
    const response = await call(t.app, user.key, 'POST', `/api/farms/${ids.b_id_farm}/fields`, {
      b_name: 'ok',
      b_start: '2020-01-01',
      b_geometry: rectangle(),
      b_acquiring_method: 'owner\u0000',
    });
    expect(response.status).toBe(400);
  });

  it('refuses it in a query parameter', async () => {
    const body = await expectProblem(
      await call(t.app, user.key, 'GET', '/api/catalogues/cultivations?q=gras%00'),
      400,
      'validation-failed',
    );
    expect(body.errors).toEqual([{ field: 'q', message: 'must not contain the character U+0000' }]);
  });
});
